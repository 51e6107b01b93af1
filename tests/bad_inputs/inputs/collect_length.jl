si(a::DeviceArray{Int,1}) = length(a)
