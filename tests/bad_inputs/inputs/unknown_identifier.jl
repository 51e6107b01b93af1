function f(x::Int)
    return x + yy
end
