sq(x) = x * x
pick(b::Bool) = b ? sq : abs
usepick(b::Bool, x::Float32) = pick(b)(x)
