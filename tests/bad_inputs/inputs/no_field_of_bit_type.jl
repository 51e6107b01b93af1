f(x::Int) = x.foo
