# A socket filter returns the kernel's u32: read back as the program's own
# return type (it printed 0xffffffac for -84); a wider or Nothing return is
# no program.
neg(pkt::Ptr{UInt8}, len::UInt32) = Int32(len) - Int32(100)
big(pkt::Ptr{UInt8}, len::UInt32) = UInt64(len) << 33 | UInt64(1)
i8(pkt::Ptr{UInt8}, len::UInt32) = Int8(-3)
u8(pkt::Ptr{UInt8}, len::UInt32) = unsafe_load(pkt, 1)
b(pkt::Ptr{UInt8}, len::UInt32) = len > UInt32(10)
retnothing(pkt::Ptr{UInt8}, len::UInt32) = nothing
