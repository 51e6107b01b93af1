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
@inline clamp(x::Real, lo::Real, hi::Real) = min(max(x, lo), hi)

# -1, 0 or +1 in the type of x (NaN and ±0.0 return themselves).
@inline sign(x::Real) = ifelse(x < zero(x), -one(x), ifelse(x > zero(x), one(x), x))
@inline sign(x::Unsigned) = ifelse(iszero(x), zero(x), one(x))
@inline sign(x::Bool) = x

# Quotient and remainder together, as Julia's divrem and fldmod.
@inline divrem(x::Real, y::Real) = (div(x, y), rem(x, y))
@inline fldmod(x::Real, y::Real) = (fld(x, y), mod(x, y))
