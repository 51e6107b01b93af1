function k!(a::DeviceArray{Float32,1}, x::Float32)
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    s = CuStaticSharedArray(Float32, 32)
    s[threadIdx().x] = a[i]
    sync_threads()
    @inbounds a[i] = s[33 - threadIdx().x] * x
    return nothing
end
