# A BPF socket-filter style program: accept IPv4 packets (EtherType 0x0800), drop the rest.
# Teaches: a BPF packet filter and the kernel's verifier.
# Look at: code_bpf (packet loads), `prism run --device bpf` (the verifier log).
# job: accept_ipv4(Ptr{UInt8}, UInt32)
# targets: bpf
function accept_ipv4(pkt::Ptr{UInt8}, len::UInt32)
    if len < 14
        return UInt32(0)
    end
    hi = unsafe_load(pkt, 13)
    lo = unsafe_load(pkt, 14)
    ethertype = (UInt16(hi) << 8) | UInt16(lo)
    return ethertype == 0x0800 ? len : UInt32(0)
end
