const Z = 1 ÷ 0
f() = Z
