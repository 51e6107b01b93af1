function f(x::Int)
    if x > 0
        y = 1
    else
        y = 1.0
    end
    return y
end
