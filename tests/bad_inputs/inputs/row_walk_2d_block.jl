function copy2d_bad!(B::DeviceArray{Float32,2}, A::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    j = (blockIdx().y - 1) * blockDim().y + threadIdx().y
    @inbounds B[j, i] = A[j, i]
    return nothing
end

function copy2d_good!(B::DeviceArray{Float32,2}, A::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    j = (blockIdx().y - 1) * blockDim().y + threadIdx().y
    @inbounds B[i, j] = A[i, j]
    return nothing
end
