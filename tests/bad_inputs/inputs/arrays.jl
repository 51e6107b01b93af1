function k(a::DeviceArray{Float32,1})
    return nothing
end
function k2(a::DeviceArray{Float32,2})
    return nothing
end
