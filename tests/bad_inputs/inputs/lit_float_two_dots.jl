f(x::Int) = x + 1.2.3
