f(x::Int) = "abc"
