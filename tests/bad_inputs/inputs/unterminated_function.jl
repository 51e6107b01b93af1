function f(x::Int)
    return x
