f(x::Int) = (x + 1
