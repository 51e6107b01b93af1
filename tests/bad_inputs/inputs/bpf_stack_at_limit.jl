# A 64-element UInt64 tuple indexed at run time: 512 bytes of locals and
# the backend's own stack use pass the limit; LLVM said so twice, advising
# BPF maps, and the second copy named an unrelated line.
function bigstack(pkt::Ptr{UInt8}, len::UInt32)
    t = (UInt64(1), UInt64(8), UInt64(15), UInt64(22), UInt64(29), UInt64(36), UInt64(43), UInt64(50), UInt64(57), UInt64(64), UInt64(71), UInt64(78), UInt64(85), UInt64(92), UInt64(99), UInt64(106), UInt64(113), UInt64(120), UInt64(127), UInt64(134), UInt64(141), UInt64(148), UInt64(155), UInt64(162), UInt64(169), UInt64(176), UInt64(183), UInt64(190), UInt64(197), UInt64(204), UInt64(211), UInt64(218), UInt64(225), UInt64(232), UInt64(239), UInt64(246), UInt64(253), UInt64(260), UInt64(267), UInt64(274), UInt64(281), UInt64(288), UInt64(295), UInt64(302), UInt64(309), UInt64(316), UInt64(323), UInt64(330), UInt64(337), UInt64(344), UInt64(351), UInt64(358), UInt64(365), UInt64(372), UInt64(379), UInt64(386), UInt64(393), UInt64(400), UInt64(407), UInt64(414), UInt64(421), UInt64(428), UInt64(435), UInt64(442))
    k = Int(unsafe_load(pkt, 1)) % 64 + 1
    return UInt32(t[k] % UInt32)
end
