function cnt(a::DeviceArray{UInt8,1})
    p = pointer(a)
    pend = p + length(a)
    n = 0
    while p < pend
        n += Int(unsafe_load(p) == 0xff)
        p += 1
    end
    return n
end
d(a::DeviceArray{UInt8,1}) = (pointer(a) + 3) - pointer(a)
