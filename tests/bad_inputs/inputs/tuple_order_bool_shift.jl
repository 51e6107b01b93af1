sh(b::Bool, n::Int) = (b << 1, n << b, b >>> 1, true >> n, Int32(5) >> true)
cz(x::UInt8, y::Int32) = (count_zeros(x), count_zeros(y))
lt(a::Int, b::Int) = ((1, a) < (1, b), (1, 2.0) < (1, 3), (1,) < (1, 0), (2,) < (1, 5), (a, 2) <= (a, 2), isless((1, NaN), (1, 2.0)), isless((1, 2.0), (1, NaN)), (1, 2) > (1, 1), () < ())
