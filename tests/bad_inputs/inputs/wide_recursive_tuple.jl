f(x) = f((x, x, x, x, x, x, x, x))
