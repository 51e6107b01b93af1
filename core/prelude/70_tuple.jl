# Base, part 7: tuples.

@inline length(t::Tuple) = nfields(t)
@inline isempty(t::Tuple) = length(t) == 0
@inline getindex(t::Tuple, i::Int) = getfield(t, i)
@inline getindex(t::Tuple, i::Integer) = getfield(t, Int(i))
@inline first(t::Tuple) = getfield(t, 1)
@inline last(t::Tuple) = getfield(t, nfields(t))
@inline firstindex(t::Tuple) = 1
@inline lastindex(t::Tuple) = length(t)

# Julia compares tuples element by element, each with `==`: `(1,) == (1.0,)`,
# `(NaN,) != (NaN,)` and `(0.0,) == (-0.0,)`, where `===` would say the
# opposite. Tuples of different lengths are unequal. One method per length
# (the language has no splatting); a longer pair of equal length throws.
@inline ==(a::Tuple, b::Tuple) = nfields(a) == nfields(b) ? throw(ArgumentError()) : false
@inline ==(a::Tuple{}, b::Tuple{}) = true
@inline ==(a::NTuple{1,Any}, b::NTuple{1,Any}) = a[1] == b[1]
@inline ==(a::NTuple{2,Any}, b::NTuple{2,Any}) = a[1] == b[1] && a[2] == b[2]
@inline ==(a::NTuple{3,Any}, b::NTuple{3,Any}) = a[1] == b[1] && a[2] == b[2] && a[3] == b[3]
@inline ==(a::NTuple{4,Any}, b::NTuple{4,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4]
@inline ==(a::NTuple{5,Any}, b::NTuple{5,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5]
@inline ==(a::NTuple{6,Any}, b::NTuple{6,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6]
@inline ==(a::NTuple{7,Any}, b::NTuple{7,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7]
@inline ==(a::NTuple{8,Any}, b::NTuple{8,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8]
@inline ==(a::NTuple{9,Any}, b::NTuple{9,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8] && a[9] == b[9]
@inline ==(a::NTuple{10,Any}, b::NTuple{10,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8] && a[9] == b[9] && a[10] == b[10]
@inline ==(a::NTuple{11,Any}, b::NTuple{11,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8] && a[9] == b[9] && a[10] == b[10] &&
    a[11] == b[11]
@inline ==(a::NTuple{12,Any}, b::NTuple{12,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8] && a[9] == b[9] && a[10] == b[10] &&
    a[11] == b[11] && a[12] == b[12]
@inline ==(a::NTuple{13,Any}, b::NTuple{13,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8] && a[9] == b[9] && a[10] == b[10] &&
    a[11] == b[11] && a[12] == b[12] && a[13] == b[13]
@inline ==(a::NTuple{14,Any}, b::NTuple{14,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8] && a[9] == b[9] && a[10] == b[10] &&
    a[11] == b[11] && a[12] == b[12] && a[13] == b[13] && a[14] == b[14]
@inline ==(a::NTuple{15,Any}, b::NTuple{15,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8] && a[9] == b[9] && a[10] == b[10] &&
    a[11] == b[11] && a[12] == b[12] && a[13] == b[13] && a[14] == b[14] && a[15] == b[15]
@inline ==(a::NTuple{16,Any}, b::NTuple{16,Any}) =
    a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] && a[5] == b[5] &&
    a[6] == b[6] && a[7] == b[7] && a[8] == b[8] && a[9] == b[9] && a[10] == b[10] &&
    a[11] == b[11] && a[12] == b[12] && a[13] == b[13] && a[14] == b[14] && a[15] == b[15] &&
    a[16] == b[16]
