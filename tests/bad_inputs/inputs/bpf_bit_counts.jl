k(ctx::Ptr{UInt8}, len::UInt32)::UInt32 = UInt32(leading_zeros(len)) + UInt32(trailing_zeros(len))
