function k!(b::DeviceArray{Float32,2})
    c = b[:, 1]
    @. b = b + 1f0
    return nothing
end
