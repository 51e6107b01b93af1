# isless of a signed and an unsigned integer is Base's `x < y`, exact:
# promoting to the unsigned type threw InexactError for a negative value.
f(a::Int64, b::UInt64) = isless(a, b)
g(a::Int8, b::UInt8) = isless((a, 1), (b, 2))
