struct P
    a::Real
end
f(x::Int) = P(x).a
