function tri64(ctx::Ptr{UInt8}, len::UInt32)::UInt32
    s = 0
    for i in 1:Int(len)
        s += i
    end
    return s % UInt32
end
