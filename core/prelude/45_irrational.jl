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

@inline float(x::AbstractIrrational) = Float64(x)
@inline -(x::AbstractIrrational) = -Float64(x)

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
