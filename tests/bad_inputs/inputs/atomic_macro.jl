# CUDA.jl's `@atomic a[i] += v` is the kernel language's atomic_add!.
function hist!(counts::DeviceArray{Int32,1}, data::DeviceArray{Int32,1})
    i = threadIdx().x
    CUDA.@atomic counts[data[i]] += Int32(1)
    return nothing
end
