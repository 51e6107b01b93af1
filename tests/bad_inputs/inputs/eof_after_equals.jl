f(x::Int) =
