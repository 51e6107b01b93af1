const N = Int32(32)
function rev!(out::DeviceArray{Float32,1})
    s = CuStaticSharedArray(Float32, N)
    t = threadIdx().x
    s[t] = t
    sync_threads()
    out[t] = s[N + Int32(1) - t]
    return nothing
end
function cube!(out::DeviceArray{Float32,1})
    s = CuStaticSharedArray(Float32, (2, 2, 2))
    t = threadIdx().x
    s[t] = t
    sync_threads()
    out[t] = s[2, 2, 2] + s[1, 1, t > 4 ? 2 : 1]
    return nothing
end
function tup!(out::DeviceArray{Int32,1})
    s = CuStaticSharedArray(Int32, (Int32(4), Int32(2)))
    u = CuStaticSharedArray(Int32, (8,))
    t = threadIdx().x
    s[t] = t
    u[t] = 2t
    sync_threads()
    out[t] = s[1, 2] + u[t] + size(s, 2)
    return nothing
end
function scale!(a::DeviceArray{Float32,4}, s::Float32)
    for l in axes(a, 4), k in axes(a, 3), j in axes(a, 2), i in axes(a, 1)
        a[i, j, k, l] *= s
    end
    return nothing
end
partial2(a::DeviceArray{Float32,4}) = a[1, 5]
partial3(a::DeviceArray{Float32,4}) = a[1, 2, 3]
oob(a::DeviceArray{Float32,4}) = a[1, 9]
function ethertype(pkt::Ptr{UInt8}, len::UInt32)
    p = Ptr{UInt16}(pkt)
    return UInt32(unsafe_load(p, 7))
end
bits(a::DeviceArray{Float32,1}) = unsafe_load(convert(Ptr{UInt32}, pointer(a)))
addr(a::DeviceArray{Float32,1}) = UInt(pointer(a)) != 0
