f(a) = a[1]
g(x::UInt64) = x
