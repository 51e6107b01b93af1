n(x::Int; y::Int = 2) = x + y
