# Julia's `==` on tuples compares element by element, each with `==`.
nan_and_zero(a::Float64, b::Float64) = ((a, 1) == (b, 1), (a, 1) === (b, 1), (a, 1) != (b, 1))
mixed(a::Int32, b::Int64, c::Float64) = ((a,) == (b,), (a, a) != (b, b), (b, 1) == (c, 1))
lengths(x::Int) = ((x, 2) == (x, 2, 3), () == (),
                   (x, 2, 3, 4, 5, 6, 7) == (x, 2, 3, 4, 5, 6, 7.0))
