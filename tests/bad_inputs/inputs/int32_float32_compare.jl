c32(a::Int32, b::Float32) = (a == b, a < b, isless(b, a))
