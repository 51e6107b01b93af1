mutable struct P
    a::Int
end
f(x::Int) = x
