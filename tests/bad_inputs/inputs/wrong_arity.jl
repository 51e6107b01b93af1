g(x::Int, y::Int) = x + y
function f(x::Int)
    return g(x)
end
