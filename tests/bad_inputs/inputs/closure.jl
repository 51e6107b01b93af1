function f(x::Int)
    g = y -> y + x
    return g(1)
end
