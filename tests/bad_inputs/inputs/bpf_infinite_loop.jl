function spin(pkt::Ptr{UInt8}, len::UInt32)
    s = UInt32(0)
    while unsafe_load(pkt, 1) != 0x00
        s += len
    end
    return s
end
