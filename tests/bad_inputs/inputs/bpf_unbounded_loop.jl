function spin(pkt::Ptr{UInt8}, len::UInt32)
    s = UInt32(0)
    i = UInt32(0)
    while i < len * len
        s += UInt32(unsafe_load(pkt, Int(i % len) + 1))
        i += UInt32(1)
    end
    return s
end
