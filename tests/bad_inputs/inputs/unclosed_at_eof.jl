f(x) = x
g(x) = (x,
