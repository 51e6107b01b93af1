f(x::Int) = 'a'
