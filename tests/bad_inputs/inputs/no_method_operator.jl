f(x::Int) = x + nothing
