function rowsum!(out::DeviceArray{Float32,1}, a::DeviceArray{Float32,2})
    i = threadIdx().x
    t = 0f0
    for j in axes(a, 2)
        @inbounds t += a[i, j]
    end
    @inbounds out[i] = t
    return nothing
end
