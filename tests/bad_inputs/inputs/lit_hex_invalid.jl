f(x::Int) = x + 0xZZ
