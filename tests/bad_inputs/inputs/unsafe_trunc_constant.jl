# An out-of-range constant conversion is poison: inference must not claim a
# value for it (it folded 1e10 to Int32 as 1410065408, which no device gives).
c1() = unsafe_trunc(Int32, 1e10)
c2() = unsafe_trunc(Int32, 1e9)
