# Base, part 1: Julia's promotion system.
#
# `promote_rule(S, T)` states, for one ordered pair of types, the type both
# convert to; it need only be defined one way round. `promote_type` asks
# both orders; `promote` converts a pair of values to their promoted type.
# The mixed-type operator methods at the end of this file are what make
# `Float32 * Int64` a Float32 and `Int32 - 1` an Int64.

# No rule known for this ordered pair.
promote_rule(::Type{T}, ::Type{S}) where {T,S} = Bottom

promote_type(::Type{Bottom}, ::Type{Bottom}) = Bottom
promote_type(::Type{T}, ::Type{T}) where {T} = T
promote_type(::Type{T}, ::Type{Bottom}) where {T} = T
promote_type(::Type{Bottom}, ::Type{T}) where {T} = T
@inline function promote_type(::Type{T}, ::Type{S}) where {T,S}
    return promote_result(T, S, promote_rule(T, S), promote_rule(S, T))
end

# A rule in either order decides; if both exist, promote their results.
@inline promote_result(::Type{T}, ::Type{S}, ::Type{U}, ::Type{V}) where {T,S,U,V} = promote_type(U, V)
# With no rule either way, the common supertype (`Signed` for an abstract
# `Signed` and Int64); `promote` then finds nothing converted.
@inline promote_result(::Type{T}, ::Type{S}, ::Type{Bottom}, ::Type{Bottom}) where {T,S} = typejoin(T, S)

# Booleans promote to any other number type.
promote_rule(::Type{Bool}, ::Type{T}) where {T<:Number} = T

# Integers: the wider type wins; at equal width the unsigned one wins.
promote_rule(::Type{Int16}, ::Union{Type{Int8}, Type{UInt8}}) = Int16
promote_rule(::Type{Int32}, ::Union{Type{Int8}, Type{Int16}, Type{UInt8}, Type{UInt16}}) = Int32
promote_rule(::Type{Int64}, ::Union{Type{Int8}, Type{Int16}, Type{Int32}, Type{UInt8}, Type{UInt16}, Type{UInt32}}) = Int64
promote_rule(::Type{UInt16}, ::Union{Type{Int8}, Type{Int16}, Type{UInt8}}) = UInt16
promote_rule(::Type{UInt32}, ::Union{Type{Int8}, Type{Int16}, Type{Int32}, Type{UInt8}, Type{UInt16}}) = UInt32
promote_rule(::Type{UInt64}, ::Union{Type{Int8}, Type{Int16}, Type{Int32}, Type{Int64}, Type{UInt8}, Type{UInt16}, Type{UInt32}}) = UInt64
promote_rule(::Type{UInt8}, ::Type{Int8}) = UInt8

# Floats: the wider float wins, and any float wins over any integer.
promote_rule(::Type{Float32}, ::Type{Float16}) = Float32
promote_rule(::Type{Float64}, ::Union{Type{Float16}, Type{Float32}}) = Float64
promote_rule(::Type{T}, ::Type{S}) where {T<:AbstractFloat, S<:Integer} = T

# Base's `not_sametype` check: values of different types that promotion
# leaves as they were (no rule relates a user's `MyNum <: Number` to Int64)
# are Julia's error, not a call that would recurse forever. It folds away
# whenever a rule applies.
@inline function promote(x::T, y::S) where {T,S}
    R = promote_type(T, S)
    a, b = convert(R, x), convert(R, y)
    typeof(a) === T && typeof(b) === S &&
        throw(ErrorException{:promotion, Tuple{T, S}}())
    return (a, b)
end
@inline promote(x::T, y::T) where {T} = (x, y)
@inline function promote(x::T, y::S, z::U) where {T,S,U}
    R = promote_type(promote_type(T, S), U)
    a, b, c = convert(R, x), convert(R, y), convert(R, z)
    typeof(a) === T && typeof(b) === S && typeof(c) === U &&
        throw(ErrorException{:promotion, Tuple{T, S, U}}())
    return (a, b, c)
end
@inline promote(x::T, y::T, z::T) where {T} = (x, y, z)

@inline convert(::Type{T}, x::T) where {T} = x
@inline convert(::Type{T}, x::T) where {T<:Number} = x
@inline convert(::Type{T}, x::Number) where {T<:Number} = T(x)

@inline oftype(x, y) = convert(typeof(x), y)

# Mixed-type arithmetic and comparison: promote, then use the same-type method.
@inline function +(x::Number, y::Number)
    a, b = promote(x, y)
    return a + b
end
@inline function -(x::Number, y::Number)
    a, b = promote(x, y)
    return a - b
end
@inline function *(x::Number, y::Number)
    a, b = promote(x, y)
    return a * b
end
@inline function /(x::Number, y::Number)
    a, b = promote(x, y)
    return a / b
end
@inline function ^(x::Number, y::Number)
    a, b = promote(x, y)
    return a ^ b
end
@inline function ==(x::Number, y::Number)
    a, b = promote(x, y)
    return a == b
end
@inline function <(x::Real, y::Real)
    a, b = promote(x, y)
    return a < b
end
@inline function <=(x::Real, y::Real)
    a, b = promote(x, y)
    return a <= b
end
@inline function div(x::Real, y::Real)
    a, b = promote(x, y)
    return div(a, b)
end
@inline function rem(x::Real, y::Real)
    a, b = promote(x, y)
    return rem(a, b)
end
@inline function mod(x::Real, y::Real)
    a, b = promote(x, y)
    return mod(a, b)
end
@inline function fld(x::Real, y::Real)
    a, b = promote(x, y)
    return fld(a, b)
end
@inline function cld(x::Real, y::Real)
    a, b = promote(x, y)
    return cld(a, b)
end
@inline function min(x::Real, y::Real)
    a, b = promote(x, y)
    return min(a, b)
end
@inline function max(x::Real, y::Real)
    a, b = promote(x, y)
    return max(a, b)
end
@inline function minmax(x::Real, y::Real)
    a, b = promote(x, y)
    return minmax(a, b)
end
@inline function &(x::Integer, y::Integer)
    a, b = promote(x, y)
    return a & b
end
@inline function |(x::Integer, y::Integer)
    a, b = promote(x, y)
    return a | b
end
@inline function xor(x::Integer, y::Integer)
    a, b = promote(x, y)
    return xor(a, b)
end
@inline function fma(x::Number, y::Number, z::Number)
    a, b, c = promote(x, y, z)
    return fma(a, b, c)
end
@inline function muladd(x::Number, y::Number, z::Number)
    a, b, c = promote(x, y, z)
    return muladd(a, b, c)
end
@inline muladd(x::T, y::T, z::T) where {T<:Number} = x * y + z

# One-argument forms, as Base's operators.jl: `*(x)`, `&(x)`, `|(x)`, `xor(x)`.
@inline *(x::Number) = x
@inline &(x::Integer) = x
@inline |(x::Integer) = x
@inline xor(x::Integer) = x
@inline ⊻(x::Integer) = x

# Base's catch-alls for a number type of the program's own that defines no
# arithmetic of its own (`struct MyNum <: Number`): Julia's error, "+ not
# defined for MyNum", not the mixed-type methods above calling themselves
# until the stack overflows; `==` of two is `===`, as in Base.
@inline +(x::T, y::T) where {T<:Number} = throw(ErrorException{:no_op_add, Tuple{T}}())
@inline -(x::T, y::T) where {T<:Number} = throw(ErrorException{:no_op_sub, Tuple{T}}())
@inline *(x::T, y::T) where {T<:Number} = throw(ErrorException{:no_op_mul, Tuple{T}}())
@inline /(x::T, y::T) where {T<:Number} = throw(ErrorException{:no_op_div, Tuple{T}}())
@inline fma(x::T, y::T, z::T) where {T<:Number} = throw(ErrorException{:no_op_fma, Tuple{T}}())
@inline &(x::T, y::T) where {T<:Integer} = throw(ErrorException{:no_op_and, Tuple{T}}())
@inline |(x::T, y::T) where {T<:Integer} = throw(ErrorException{:no_op_or, Tuple{T}}())
@inline xor(x::T, y::T) where {T<:Integer} = throw(ErrorException{:no_op_xor, Tuple{T}}())
@inline ==(x::T, y::T) where {T<:Number} = x === y
@inline <(x::T, y::T) where {T<:Real} = throw(ErrorException{:no_op_lt, Tuple{T}}())
@inline <=(x::T, y::T) where {T<:Real} = (x == y) | (x < y)

# Base's one-argument `min(x)` and `max(x)` (math.jl's `min(x::Real) = x`).
@inline min(x::Real) = x
@inline max(x::Real) = x

# Base's `&(a, b, c, xs...)` and the like fold left (operators.jl's afoldl):
# for three and four arguments (no splatting); a program's own method of
# three arguments is more specific.
@inline &(a, b, c) = (a & b) & c
@inline |(a, b, c) = (a | b) | c
@inline xor(a, b, c) = xor(xor(a, b), c)
@inline &(a, b, c, d) = ((a & b) & c) & d
@inline |(a, b, c, d) = ((a | b) | c) | d
@inline xor(a, b, c, d) = xor(xor(xor(a, b), c), d)
@inline ⊻(a, b, c) = xor(a, b, c)
@inline ⊻(a, b, c, d) = xor(a, b, c, d)
