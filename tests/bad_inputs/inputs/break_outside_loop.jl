function f(x::Int)
    break
    return x
end
