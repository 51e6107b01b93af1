# What a review found against Julia 1.10 on x86-64.
sbn(x, y) = signbit(x / y)
p4() = π^4
pn(n) = π^n
const K1 = 1^-5
const K2 = (-1)^-3
k() = (K1, K2)
l10(x) = log10(x)
sn(x) = sin(x)
t17() = 17 in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17)
z(::Type{X} = Float64) where {X} = zero(X)
zz() = (z(), z(Int32))
v8() = Val(0x05)
