struct P
    a::Int
end
struct P
    b::Int
end
f(x::Int) = P(x).a
