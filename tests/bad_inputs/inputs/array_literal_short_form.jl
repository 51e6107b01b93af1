ok(x::Int) = x
f(n::Int) = [n]
g(x::Int) = (@assert x > 0; x)
