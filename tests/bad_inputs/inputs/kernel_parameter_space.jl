function k(t::NTuple{1024,Int}, a::DeviceArray{Int,1})
    a[1] = t[a[2]]
    return nothing
end
function ok(t::NTuple{500,Int}, a::DeviceArray{Int,1})
    a[1] = t[a[2]]
    return nothing
end
