f(x::Int) = x + 0x1234567890abcdef1234567890abcdef12
