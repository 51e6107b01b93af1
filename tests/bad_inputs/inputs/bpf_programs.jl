function fl(pkt::Ptr{UInt8}, len::UInt32)
    return UInt32(Float32(len) * 1.5f0)
end
function thr(pkt::Ptr{UInt8}, len::UInt32)
    return UInt32(threadIdx().x)
end
function nb(pkt::Ptr{UInt8}, len::UInt32)
    x = Int8(unsafe_load(pkt, 1))
    return UInt32(x)
end
simple(x::Int) = x + 1
