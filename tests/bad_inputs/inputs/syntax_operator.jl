function f(x::Int)
    y = x +* 1
    return y
end
