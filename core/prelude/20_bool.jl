# Base, part 2: Bool. `Bool <: Integer`; arithmetic on Bools gives Int.

@inline !(x::Bool) = not_int(x)
@inline ~(x::Bool) = !x
@inline &(x::Bool, y::Bool) = and_int(x, y)
@inline |(x::Bool, y::Bool) = or_int(x, y)
@inline xor(x::Bool, y::Bool) = x != y

@inline ==(x::Bool, y::Bool) = eq_int(x, y)
@inline <(x::Bool, y::Bool) = y & !x
@inline <=(x::Bool, y::Bool) = y | !x

@inline +(x::Bool) = Int(x)
@inline -(x::Bool) = -Int(x)
@inline +(x::Bool, y::Bool) = Int(x) + Int(y)
@inline -(x::Bool, y::Bool) = Int(x) - Int(y)
@inline *(x::Bool, y::Bool) = x & y
@inline /(x::Bool, y::Bool) = float(x) / float(y)
@inline div(x::Bool, y::Bool) = y ? x : throw(DivideError())
@inline rem(x::Bool, y::Bool) = y ? false : throw(DivideError())
@inline mod(x::Bool, y::Bool) = rem(x, y)
@inline fld(x::Bool, y::Bool) = div(x, y)
@inline cld(x::Bool, y::Bool) = div(x, y)

# `false * x` is a signed zero even when x is Inf or NaN ("strong zero").
@inline *(x::Bool, y::T) where {T<:AbstractFloat} = ifelse(x, y, copysign(zero(y), y))
@inline *(y::T, x::Bool) where {T<:AbstractFloat} = x * y

@inline function power_by_squaring(x::Bool, p::Integer)
    if p < 0 && !x
        throw(DomainError{typeof(p), :powbysq}(p))
    end
    return x | iszero(p)
end

@inline signbit(x::Bool) = false
@inline abs(x::Bool) = x
@inline iszero(x::Bool) = !x
@inline isone(x::Bool) = x
@inline zero(::Type{Bool}) = false
@inline one(::Type{Bool}) = true
@inline typemin(::Type{Bool}) = false
@inline typemax(::Type{Bool}) = true

# Base keeps a negative zero in `false + -0.0` (promoting false to 0.0 would
# give 0.0).
@inline +(x::Bool, y::T) where {T<:AbstractFloat} = ifelse(x, oneunit(y) + y, y)
@inline +(y::AbstractFloat, x::Bool) = x + y
