function f(x::Int)
    if x > 0
        y = 1
    end
    return y
end
