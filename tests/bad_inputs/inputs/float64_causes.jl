function rowsum64!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i <= size(x, 1)
        acc = 0.0
        for j in 1:size(x, 2)
            @inbounds acc += x[i, j]
        end
        @inbounds out[i] = acc
    end
    return nothing
end
function exp64!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i <= length(y)
        @inbounds y[i] = Float32(exp(Float64(x[i])))
    end
    return nothing
end
function scale_by!(y::DeviceArray{Float32,1}, s)
    i = threadIdx().x
    @inbounds y[i] = y[i] * s
    return nothing
end
