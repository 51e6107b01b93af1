f(x::Int) = (x + 1
g(x) = x
