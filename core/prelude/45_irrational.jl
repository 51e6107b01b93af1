# Base's irrational constants. `π` is the only value of `Irrational{:π}`, a
# number with no precision of its own: it becomes the float it meets, so
# `2f0 * π` is a Float32 and `π / 2` a Float64, as in Julia.

abstract type AbstractIrrational <: Real end
struct Irrational{sym} <: AbstractIrrational end

const π = Irrational{:π}()
const pi = π
const ℯ = Irrational{:ℯ}()

# Each precision's nearest value to the exact number.
@inline Float64(::Irrational{:π}) = 3.141592653589793
@inline Float32(::Irrational{:π}) = 3.1415927f0
@inline Float16(::Irrational{:π}) = bitcast(Float16, 0x4248)
@inline Float64(::Irrational{:ℯ}) = 2.718281828459045
@inline Float32(::Irrational{:ℯ}) = 2.7182817f0
@inline Float16(::Irrational{:ℯ}) = bitcast(Float16, 0x4170)

# The floats on either side of the exact value (Julia's `Float64(π,
# RoundDown)`), for comparisons.
@inline irrational_below(::Type{Float64}, ::Irrational{:π}) = bitcast(Float64, 0x400921fb54442d18)
@inline irrational_above(::Type{Float64}, ::Irrational{:π}) = bitcast(Float64, 0x400921fb54442d19)
@inline irrational_below(::Type{Float32}, ::Irrational{:π}) = bitcast(Float32, 0x40490fda)
@inline irrational_above(::Type{Float32}, ::Irrational{:π}) = bitcast(Float32, 0x40490fdb)
@inline irrational_below(::Type{Float64}, ::Irrational{:ℯ}) = bitcast(Float64, 0x4005bf0a8b145769)
@inline irrational_above(::Type{Float64}, ::Irrational{:ℯ}) = bitcast(Float64, 0x4005bf0a8b14576a)
@inline irrational_below(::Type{Float32}, ::Irrational{:ℯ}) = bitcast(Float32, 0x402df854)
@inline irrational_above(::Type{Float32}, ::Irrational{:ℯ}) = bitcast(Float32, 0x402df855)

@inline float(x::AbstractIrrational) = Float64(x)
@inline -(x::AbstractIrrational) = -Float64(x)
@inline zero(::Type{T}) where {T<:AbstractIrrational} = false
@inline one(::Type{T}) where {T<:AbstractIrrational} = true
# Every irrational of Base is positive.
@inline abs(x::AbstractIrrational) = x
# `ℯ^x` is `exp(x)`, not a power of a rounded ℯ.
@inline ^(::Irrational{:ℯ}, x::Number) = exp(x)

# Rounding goes through Float64: `round(π)` is 3.0, `trunc(Int, π)` is 3.
@inline round(x::AbstractIrrational) = round(float(x))
@inline floor(x::AbstractIrrational) = floor(float(x))
@inline ceil(x::AbstractIrrational) = ceil(float(x))
@inline trunc(x::AbstractIrrational) = trunc(float(x))
@inline round(::Type{T}, x::AbstractIrrational) where {T<:Integer} = round(T, float(x))
@inline floor(::Type{T}, x::AbstractIrrational) where {T<:Integer} = floor(T, float(x))
@inline ceil(::Type{T}, x::AbstractIrrational) where {T<:Integer} = ceil(T, float(x))
@inline trunc(::Type{T}, x::AbstractIrrational) where {T<:Integer} = trunc(T, float(x))

# A float is never equal to an irrational, and compares with the exact
# value, not with its own rounding of it: `3.1415927f0 > π`, as in Julia.
@inline ==(x::AbstractIrrational, y::Real) = false
@inline ==(x::Real, y::AbstractIrrational) = false
@inline <(x::T, y::AbstractIrrational) where {T<:Union{Float32, Float64}} = x <= irrational_below(T, y)
@inline <(x::AbstractIrrational, y::T) where {T<:Union{Float32, Float64}} = irrational_above(T, x) <= y
@inline <(x::Float16, y::AbstractIrrational) = x <= irrational_below(Float32, y)
@inline <(x::AbstractIrrational, y::Float16) = irrational_above(Float32, x) <= y
@inline <=(x::AbstractFloat, y::AbstractIrrational) = x < y
@inline <=(x::AbstractIrrational, y::AbstractFloat) = x < y

# Meeting a float, an irrational takes its precision; anything else makes a
# Float64.
promote_rule(::Type{S}, ::Type{Float16}) where {S<:AbstractIrrational} = Float16
promote_rule(::Type{S}, ::Type{Float32}) where {S<:AbstractIrrational} = Float32
promote_rule(::Type{S}, ::Type{Float64}) where {S<:AbstractIrrational} = Float64
promote_rule(::Type{S}, ::Type{T}) where {S<:AbstractIrrational, T<:Integer} = Float64
promote_rule(::Type{S}, ::Type{T}) where {S<:AbstractIrrational, T<:AbstractIrrational} = Float64

# Two irrationals meet in Float64 (the same type twice would not promote).
@inline +(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) + Float64(y)
@inline -(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) - Float64(y)
@inline *(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) * Float64(y)
@inline /(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) / Float64(y)
@inline ==(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) == Float64(y)
@inline <(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) < Float64(y)
@inline <=(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) <= Float64(y)

# Base's irrationals are positive: isequal(π, x) asks for the sign.
@inline signbit(x::AbstractIrrational) = false

# Base has no `^` of an irrational and an integer: Number's method squares
# the Float64 (`π^4` is `(π*π)*(π*π)`, not Float64's compensated power), and
# a negative power throws, as there; `ℯ^n` stays `exp(n)`. (A literal
# negative power is `inv(π)^2`: literal_pow, in 60_math.jl.)
@inline inv(x::AbstractIrrational) = 1.0 / Float64(x)
@inline ^(x::AbstractIrrational, p::Integer) = power_by_squaring(Float64(x), p)
@inline ^(::Irrational{:ℯ}, x::Integer) = exp(x)

# Base's irrationals.jl: two irrationals' power is the Float64s'.
@inline ^(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) ^ Float64(y)
# ... but ℯ to an irrational power is exp of it (ambiguous otherwise).
@inline ^(::Irrational{:ℯ}, x::AbstractIrrational) = exp(Float64(x))
