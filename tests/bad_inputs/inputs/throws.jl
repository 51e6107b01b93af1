function f(x::Int)
    x > 10 && throw(InexactError(x))
    return x
end
function g(a::DeviceArray{Float32,1}, i::Int)
    return a[i]
end
h(x::Float64) = Int(x)
function k(a::DeviceArray{Float32,2})
    a[3, 1] = 1.0f0
    return nothing
end
d(x::Int, y::Int) = div(x, y)
q(y::Int) = typemin(Int) ÷ y
