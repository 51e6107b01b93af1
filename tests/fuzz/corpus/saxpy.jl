# y = a*x + y, one element per thread.
# Teaches: address spaces, bounds checks and `@inbounds`.
# Look at: code_llvm (the `y[i]` load/store on the global pointer, no bounds check
# thanks to `@inbounds`; `i <= length(y)` is the only guard), code_ptx (`ld.global`).
# job: saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})
# targets: ptx gcn native
# run: saxpy!(2.0f0, ones(Float32, 1000), ones(Float32, 1000)) --blocks 4 --threads 256
function saxpy!(a::Float32, x::DeviceArray{Float32,1}, y::DeviceArray{Float32,1})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i <= length(y)
        @inbounds y[i] = a * x[i] + y[i]
    end
    return nothing
end
