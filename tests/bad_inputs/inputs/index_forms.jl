function f(a::DeviceArray{Float32,1}, b::DeviceArray{Float32,2}, t::NTuple{3,Int})
    u = t[2:end]
    v = a[begin]
    s = sum(i for i in 1:3)
    r = b[1, :]
    return nothing
end
