g(x; y=1) = x + y
f(x::Int) = g(x; y=2)
