f(x::Int) = x + 0b102
