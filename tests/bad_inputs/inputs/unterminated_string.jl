f(x::Int) = "abc
