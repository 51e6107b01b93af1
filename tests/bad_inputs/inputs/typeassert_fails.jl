function k(a::DeviceArray{Float32,1})
    i = threadIdx().x
    if i == 1
        y = a[i]::Int
        a[i] = Float32(y)
    end
    return nothing
end
