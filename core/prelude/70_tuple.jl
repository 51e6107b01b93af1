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
# opposite; `isequal` compares each element with `isequal`, so
# `isequal((NaN,), (NaN,))`. Tuples of different lengths are unequal.
@inline ==(a::Tuple, b::Tuple) = all_pairs(==, a, b)
@inline isequal(a::Tuple, b::Tuple) = all_pairs(isequal, a, b)

# f(a[i], b[i]) for every i, stopping at the first false. One method per
# length (the language has no splatting); a longer pair of equal length
# throws.
@inline all_pairs(f, a::Tuple, b::Tuple) = nfields(a) == nfields(b) ? throw(ArgumentError()) : false
@inline all_pairs(f, a::Tuple{}, b::Tuple{}) = true
@inline all_pairs(f, a::NTuple{1,Any}, b::NTuple{1,Any}) = f(a[1], b[1])
@inline all_pairs(f, a::NTuple{2,Any}, b::NTuple{2,Any}) = f(a[1], b[1]) && f(a[2], b[2])
@inline all_pairs(f, a::NTuple{3,Any}, b::NTuple{3,Any}) = f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3])
@inline all_pairs(f, a::NTuple{4,Any}, b::NTuple{4,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4])
@inline all_pairs(f, a::NTuple{5,Any}, b::NTuple{5,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5])
@inline all_pairs(f, a::NTuple{6,Any}, b::NTuple{6,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6])
@inline all_pairs(f, a::NTuple{7,Any}, b::NTuple{7,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7])
@inline all_pairs(f, a::NTuple{8,Any}, b::NTuple{8,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8])
@inline all_pairs(f, a::NTuple{9,Any}, b::NTuple{9,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8]) && f(a[9], b[9])
@inline all_pairs(f, a::NTuple{10,Any}, b::NTuple{10,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8]) && f(a[9], b[9]) && f(a[10], b[10])
@inline all_pairs(f, a::NTuple{11,Any}, b::NTuple{11,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8]) && f(a[9], b[9]) && f(a[10], b[10]) &&
    f(a[11], b[11])
@inline all_pairs(f, a::NTuple{12,Any}, b::NTuple{12,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8]) && f(a[9], b[9]) && f(a[10], b[10]) &&
    f(a[11], b[11]) && f(a[12], b[12])
@inline all_pairs(f, a::NTuple{13,Any}, b::NTuple{13,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8]) && f(a[9], b[9]) && f(a[10], b[10]) &&
    f(a[11], b[11]) && f(a[12], b[12]) && f(a[13], b[13])
@inline all_pairs(f, a::NTuple{14,Any}, b::NTuple{14,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8]) && f(a[9], b[9]) && f(a[10], b[10]) &&
    f(a[11], b[11]) && f(a[12], b[12]) && f(a[13], b[13]) && f(a[14], b[14])
@inline all_pairs(f, a::NTuple{15,Any}, b::NTuple{15,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8]) && f(a[9], b[9]) && f(a[10], b[10]) &&
    f(a[11], b[11]) && f(a[12], b[12]) && f(a[13], b[13]) && f(a[14], b[14]) && f(a[15], b[15])
@inline all_pairs(f, a::NTuple{16,Any}, b::NTuple{16,Any}) =
    f(a[1], b[1]) && f(a[2], b[2]) && f(a[3], b[3]) && f(a[4], b[4]) && f(a[5], b[5]) &&
    f(a[6], b[6]) && f(a[7], b[7]) && f(a[8], b[8]) && f(a[9], b[9]) && f(a[10], b[10]) &&
    f(a[11], b[11]) && f(a[12], b[12]) && f(a[13], b[13]) && f(a[14], b[14]) && f(a[15], b[15]) &&
    f(a[16], b[16])

# Everything but the first element (Base.tail), one method per length.
@inline tail(t::Tuple{}) = throw(ArgumentError())
@inline tail(t::NTuple{1,Any}) = ()
@inline tail(t::NTuple{2,Any}) = (t[2],)
@inline tail(t::NTuple{3,Any}) = (t[2], t[3])
@inline tail(t::NTuple{4,Any}) = (t[2], t[3], t[4])
@inline tail(t::NTuple{5,Any}) = (t[2], t[3], t[4], t[5])
@inline tail(t::NTuple{6,Any}) = (t[2], t[3], t[4], t[5], t[6])
@inline tail(t::NTuple{7,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7])
@inline tail(t::NTuple{8,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8])
@inline tail(t::NTuple{9,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9])
@inline tail(t::NTuple{10,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10])
@inline tail(t::NTuple{11,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11])
@inline tail(t::NTuple{12,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12])
@inline tail(t::NTuple{13,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13])
@inline tail(t::NTuple{14,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14])
@inline tail(t::NTuple{15,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15])
@inline tail(t::NTuple{16,Any}) = (t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15], t[16])

# Julia orders tuples lexicographically: `<` compares the first elements
# that differ (by `==`) with `<`; isless with isless and isequal. A prefix
# is less than the tuple it begins.
@inline <(::Tuple{}, ::Tuple{}) = false
@inline <(::Tuple{}, ::Tuple) = true
@inline <(::Tuple, ::Tuple{}) = false
@inline function <(a::Tuple, b::Tuple)
    x = a[1]
    y = b[1]
    return x == y ? tail(a) < tail(b) : x < y
end
# Base's generic `<=`: NaN makes both sides false ((NaN,) <= (NaN,) is false).
@inline <=(a::Tuple, b::Tuple) = (a < b) | (a == b)
@inline isless(::Tuple{}, ::Tuple{}) = false
@inline isless(::Tuple{}, ::Tuple) = true
@inline isless(::Tuple, ::Tuple{}) = false
@inline function isless(a::Tuple, b::Tuple)
    x = a[1]
    y = b[1]
    return isless(x, y) || (isequal(x, y) && isless(tail(a), tail(b)))
end

# Julia's `in` of a tuple: whether an element `==` x, from the first on
# (`x in (1, 2)`, `x ∈ t`); an empty tuple holds nothing.
@inline in(x, t::Tuple{}) = false
@inline in(x, t::Tuple) = (t[1] == x) || in(x, tail(t))

# Base's convert of a tuple to a tuple type: element by element (a struct's
# `NTuple{2, Float64}` field built from `(1, 2)`); the same type is itself,
# which also keeps the two methods from being ambiguous there.
@inline convert(::Type{T}, x::T) where {T<:Tuple} = x
@inline convert(::Type{T}, x::Tuple) where {T<:Tuple} = tuple_convert(T, x)
@inline tuple_convert(::Type{Tuple{T1}}, x::NTuple{1,Any}) where {T1} = (convert(T1, x[1]),)
@inline tuple_convert(::Type{Tuple{T1, T2}}, x::NTuple{2,Any}) where {T1, T2} = (convert(T1, x[1]), convert(T2, x[2]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3}}, x::NTuple{3,Any}) where {T1, T2, T3} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4}}, x::NTuple{4,Any}) where {T1, T2, T3, T4} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5}}, x::NTuple{5,Any}) where {T1, T2, T3, T4, T5} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6}}, x::NTuple{6,Any}) where {T1, T2, T3, T4, T5, T6} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7}}, x::NTuple{7,Any}) where {T1, T2, T3, T4, T5, T6, T7} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8}}, x::NTuple{8,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8, T9}}, x::NTuple{9,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8, T9} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]), convert(T9, x[9]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8, T9, T10}}, x::NTuple{10,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8, T9, T10} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]), convert(T9, x[9]), convert(T10, x[10]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11}}, x::NTuple{11,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]), convert(T9, x[9]), convert(T10, x[10]), convert(T11, x[11]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12}}, x::NTuple{12,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]), convert(T9, x[9]), convert(T10, x[10]), convert(T11, x[11]), convert(T12, x[12]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13}}, x::NTuple{13,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]), convert(T9, x[9]), convert(T10, x[10]), convert(T11, x[11]), convert(T12, x[12]), convert(T13, x[13]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14}}, x::NTuple{14,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]), convert(T9, x[9]), convert(T10, x[10]), convert(T11, x[11]), convert(T12, x[12]), convert(T13, x[13]), convert(T14, x[14]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15}}, x::NTuple{15,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]), convert(T9, x[9]), convert(T10, x[10]), convert(T11, x[11]), convert(T12, x[12]), convert(T13, x[13]), convert(T14, x[14]), convert(T15, x[15]))
@inline tuple_convert(::Type{Tuple{T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16}}, x::NTuple{16,Any}) where {T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16} = (convert(T1, x[1]), convert(T2, x[2]), convert(T3, x[3]), convert(T4, x[4]), convert(T5, x[5]), convert(T6, x[6]), convert(T7, x[7]), convert(T8, x[8]), convert(T9, x[9]), convert(T10, x[10]), convert(T11, x[11]), convert(T12, x[12]), convert(T13, x[13]), convert(T14, x[14]), convert(T15, x[15]), convert(T16, x[16]))
