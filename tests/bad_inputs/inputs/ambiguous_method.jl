g(x::Int, y) = 1
g(x, y::Int) = 2
f(x::Int) = g(x, x)
