const C = Int8(0xff)
f() = C
