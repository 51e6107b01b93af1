function f(x::Int)
    t = (1, 2)
    return t[3]
end
