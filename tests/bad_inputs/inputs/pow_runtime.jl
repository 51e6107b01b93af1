pw(x, n) = x ^ n
lit3(x) = x ^ 3
cs(a, b) = copysign(a, b)
fs(a, b) = flipsign(a, b)
c(x, y) = cld(x, y)
