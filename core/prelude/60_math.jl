# Base, part 6: number functions that work on any number type.

@inline zero(x::Number) = zero(typeof(x))
@inline one(x::Number) = one(typeof(x))
@inline typemin(x::Real) = typemin(typeof(x))
@inline typemax(x::Real) = typemax(typeof(x))
@inline oneunit(x::Number) = one(x)

@inline iszero(x::Number) = x == zero(x)
@inline isone(x::Number) = x == one(x)

@inline min(x::T, y::T) where {T<:Real} = ifelse(y < x, y, x)
@inline max(x::T, y::T) where {T<:Real} = ifelse(y < x, x, y)
# Julia's: comparisons, not min/max, so `clamp(-0.0, 0.0, 1.0)` is -0.0.
@inline function clamp(x::X, lo::L, hi::H) where {X<:Real, L<:Real, H<:Real}
    T = promote_type(promote_type(X, L), H)
    return ifelse(x > hi, convert(T, hi), ifelse(x < lo, convert(T, lo), convert(T, x)))
end
# Julia's `min(x, y, z...)`, for three and four arguments (no splatting).
@inline min(x::Real, y::Real, z::Real) = min(min(x, y), z)
@inline max(x::Real, y::Real, z::Real) = max(max(x, y), z)
@inline min(x::Real, y::Real, z::Real, w::Real) = min(min(min(x, y), z), w)
@inline max(x::Real, y::Real, z::Real, w::Real) = max(max(max(x, y), z), w)
@inline abs2(x::Real) = x * x

# -1, 0 or +1 in the type of x (NaN and ±0.0 return themselves).
@inline sign(x::Real) = ifelse(x < zero(x), -one(x), ifelse(x > zero(x), one(x), x))
@inline sign(x::Unsigned) = ifelse(iszero(x), zero(x), one(x))
@inline sign(x::Bool) = x

# Quotient and remainder together, as Julia's divrem and fldmod.
@inline divrem(x::Real, y::Real) = (div(x, y), rem(x, y))
@inline fldmod(x::Real, y::Real) = (fld(x, y), mod(x, y))

# The multiplicative inverse; of an integer, as a Float64 (`inv(2) == 0.5`).
@inline inv(x::IEEEFloat) = one(x) / x
@inline inv(x::Union{Bool, BitInteger}) = 1.0 / Float64(x)

# `x^p` with an integer literal p is `literal_pow(^, x, Val{p}())`, as Julia
# lowers it, so that small powers of hardware numbers multiply as in Julia's
# Base: `x^3` is `x*x*x` (not a `pow` call: other rounding, and a libm call
# on a GPU) and `2^-1` is `inv(2) == 0.5` (not a DomainError). Any other
# negative power is a Float64's for an integer (`2^-3 == 0.125`) and `inv(x)^-p`
# otherwise, as Base's fallback. Only lowering calls it, always with `^`.
struct Val{x} end
const HWReal = Union{Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float32, Float64}
@inline literal_pow(f, x, ::Val{p}) where {p} = p >= 0 || x isa AbstractFloat ? f(x, p) : x isa BitInteger ? f(Float64(x), p) : f(inv(x), -p)
@inline literal_pow(f, x::HWReal, ::Val{0}) = one(x)
@inline literal_pow(f, x::HWReal, ::Val{1}) = x
@inline literal_pow(f, x::HWReal, ::Val{2}) = x * x
@inline literal_pow(f, x::HWReal, ::Val{3}) = x * x * x
@inline literal_pow(f, x::HWReal, ::Val{-1}) = inv(x)
@inline function literal_pow(f, x::HWReal, ::Val{-2})
    i = inv(x)
    return i * i
end

# Base's total order: `isless` is `<` except that NaN comes after every
# number and -0.0 before 0.0; max, min and minmax of other types (a struct
# that defines isless) fall back on it, as Base's do.
# Mixed integers compare exactly with `<` (isless(-1, 0x01) is true, where
# promoting to UInt8 would throw InexactError); floats have their own below.
@inline isless(x::Real, y::Real) = x < y
@inline isless(x::T, y::T) where {T<:Real} = x < y
@inline function isless(x::T, y::T) where {T<:IEEEFloat}
    return (!isnan(x) & (isnan(y) | (signbit(x) & !signbit(y)))) | (x < y)
end
# A float against another real compares with `<`, exact across types
# (isless(16777216f0, Int32(16777217))), not after promotion.
@inline isless(x::AbstractFloat, y::AbstractFloat) =
    (!isnan(x) & (isnan(y) | (signbit(x) & !signbit(y)))) | (x < y)
@inline isless(x::Real, y::AbstractFloat) =
    (!isnan(x) & (isnan(y) | (signbit(x) & !signbit(y)))) | (x < y)
@inline isless(x::AbstractFloat, y::Real) =
    (!isnan(x) & (isnan(y) | (signbit(x) & !signbit(y)))) | (x < y)
@inline max(x, y) = isless(y, x) ? x : y
@inline min(x, y) = isless(y, x) ? y : x
@inline minmax(x, y) = isless(y, x) ? (y, x) : (x, y)
@inline minmax(x::T, y::T) where {T<:Real} = isless(y, x) ? (y, x) : (x, y)
@inline minmax(x::T, y::T) where {T<:IEEEFloat} = (min(x, y), max(x, y))

# `Val(3)` is `Val{3}()`: the value must be a compile-time constant, and an
# Int (a type parameter here keeps an integer's value, not its type, so
# `Val(0x05)` would be `Val{5}`).
@inline Val(x::Int64) = Val{x}()

# A literal power of an irrational: a negative one is `inv(π)^2`, and any
# of ℯ is `exp(p)`, as Base's literal_pow methods compute them.
@inline literal_pow(f, x::AbstractIrrational, ::Val{p}) where {p} = p < 0 ? f(inv(x), -p) : f(x, p)
@inline literal_pow(f, ::Irrational{:ℯ}, ::Val{p}) where {p} = exp(p)

# Base's fallbacks for a number type of the program's own: `one(T)` is
# `convert(T, 1)` (so `T(1)`), an integer power multiplies by squaring, and
# an integer fma is a multiply and an add.
@inline one(::Type{T}) where {T<:Number} = convert(T, 1)
@inline zero(::Type{T}) where {T<:Number} = convert(T, 0)
@inline ^(x::Number, p::Integer) = power_by_squaring(x, p)
@inline ^(x::T, p::T) where {T<:Integer} = power_by_squaring(x, p)
@inline ^(x::T, y::T) where {T<:Number} = throw(ErrorException{:no_op_pow, Tuple{T}}())
@inline ^(::Irrational{:ℯ}, x::Irrational{:ℯ}) = exp(Float64(x))
@inline fma(x::Integer, y::Integer, z::Integer) = x * y + z
# A Bool power is x or one, as Base's power_by_squaring finds with p == 1
# and p == 0 (its loop would need trailing_zeros of a Bool).
@inline power_by_squaring(x::Number, p::Bool) = p ? x : one(x)
@inline power_by_squaring(x::Bool, p::Bool) = x | !p
@inline power_by_squaring(x::T, p::Bool) where {T<:BitInteger} = p ? x : one(T)
