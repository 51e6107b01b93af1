# Optional arguments, more of Base, @propagate_inbounds, `in`.
f(a, b = 1, c = b + a) = (a, b, c)
dom(x) = asin(x)
lp(x) = log1p(x)
Base.@propagate_inbounds getp(a, i) = a[i]
checked(a) = getp(a, 3)
m(x) = (x in (1, 2.0), x ∉ (1, 2), in(x, (x,)))
c3() = cbrt(-27.0)
warp(x::Float32) = shfl_down_sync(0xffffffff, x, 1)
lit() = 1i32
g(x, y = 2, z) = x
