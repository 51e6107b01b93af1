function k!(a::DeviceArray{Float32,1})
    i = threadIdx().x
    i = i + (blockIdx().x - 1) * blockDim().x
    if i <= length(a)
        a[i] = 1f0
    end
    return nothing
end
