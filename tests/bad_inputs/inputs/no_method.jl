g(x::Float32) = x
function f(x::Int)
    return g(x)
end
