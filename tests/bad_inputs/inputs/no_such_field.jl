struct P
    a::Int
end
f(x::Int) = P(x).b
