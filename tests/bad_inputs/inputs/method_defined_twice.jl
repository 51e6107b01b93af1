f(x::Int) = x + 1
g(x) = 2 * x
f(x::Int) = x + 2
f(y::Int64) = y + 3
