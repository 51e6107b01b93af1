# CUDA.jl's host-side launch inside a kernel file.
function k!(a::DeviceArray{Float32,1})
    i = threadIdx().x
    @inbounds a[i] = 2f0 * a[i]
    return nothing
end
function host(a::DeviceArray{Float32,1})
    @cuda threads=4 blocks=1 k!(a)
    return nothing
end
