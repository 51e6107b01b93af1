const Z = 0x05 % Int8(3)
f() = Z
