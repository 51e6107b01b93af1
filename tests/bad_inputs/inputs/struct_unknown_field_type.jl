struct P
    a::Nope
end
f(x::Int) = P(x).a
