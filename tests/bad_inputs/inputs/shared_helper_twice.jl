buf() = CuStaticSharedArray(Int32, 2)
@noinline nbuf() = CuStaticSharedArray(Int32, 2)
@noinline twice() = (buf(), buf())
function k!(a::DeviceArray{Int32,1})
    b1 = buf()
    b2 = buf()
    b1[1] = Int32(1)
    b2[1] = Int32(2)
    a[1] = b1[1]
    return nothing
end
function kn!(a::DeviceArray{Int32,1})
    b1 = nbuf()
    b2 = nbuf()
    b1[1] = Int32(1)
    b2[1] = Int32(2)
    a[1] = b1[1]
    return nothing
end
function kt!(a::DeviceArray{Int32,1})
    b1, b2 = twice()
    b1[1] = Int32(1)
    b2[1] = Int32(2)
    a[1] = b1[1]
    return nothing
end
