g(x::Int) = g(x)
f(x::Int) = g(x)
