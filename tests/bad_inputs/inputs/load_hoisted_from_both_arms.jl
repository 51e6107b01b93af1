function both_arms!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    i = (blockIdx().x - 1) * blockDim().x + t
    if t % 2 == 0
        @inbounds y[i] = sin(x[8i])
    else
        @inbounds y[i] = cos(x[8i])
    end
    return nothing
end
