function rowsum_checked!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i <= size(x, 1)
        acc = 0.0f0
        for j in 1:size(x, 2)
            acc += x[i, j]
        end
        out[i] = acc
    end
    return nothing
end

function rowsum_inbounds!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i <= size(x, 1)
        acc = 0.0f0
        for j in 1:size(x, 2)
            @inbounds acc += x[i, j]
        end
        @inbounds out[i] = acc
    end
    return nothing
end

function loopcheck!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1}, n::Int)
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    acc = 0.0f0
    for k in 1:n
        acc += x[k] * x[k + i]
    end
    y[i] = acc
    return nothing
end
function loopcheck_ib!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1}, n::Int)
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    acc = 0.0f0
    for k in 1:n
        @inbounds acc += x[k] * x[k + i]
    end
    @inbounds y[i] = acc
    return nothing
end
