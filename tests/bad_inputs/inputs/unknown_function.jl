function f(x::Int)
    return gg(x)
end
