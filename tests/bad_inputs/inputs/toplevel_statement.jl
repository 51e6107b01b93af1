x = 1
f(x::Int) = x
