function f(x::Int)
    if x > 0
        return x
    return 0
end
