function f(x::Int)
    1 = x
    return x
end
