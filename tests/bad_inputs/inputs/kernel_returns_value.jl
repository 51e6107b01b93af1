function k(a::DeviceArray{Float32,1})
    i = threadIdx().x
    return a[i]
end
