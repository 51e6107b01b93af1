g(x) = g((x, x))
f(x::Int) = g(x)
