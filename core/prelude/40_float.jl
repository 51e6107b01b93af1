# Base, part 4: the IEEE floating-point types Float16, Float32, Float64.

@inline -(x::T) where {T<:IEEEFloat} = neg_float(x)
@inline +(x::T, y::T) where {T<:IEEEFloat} = add_float(x, y)
@inline -(x::T, y::T) where {T<:IEEEFloat} = sub_float(x, y)
@inline *(x::T, y::T) where {T<:IEEEFloat} = mul_float(x, y)
@inline /(x::T, y::T) where {T<:IEEEFloat} = div_float(x, y)

@inline ==(x::T, y::T) where {T<:IEEEFloat} = eq_float(x, y)
@inline !=(x::T, y::T) where {T<:IEEEFloat} = ne_float(x, y)
@inline <(x::T, y::T) where {T<:IEEEFloat} = lt_float(x, y)
@inline <=(x::T, y::T) where {T<:IEEEFloat} = le_float(x, y)

@inline fma(x::T, y::T, z::T) where {T<:IEEEFloat} = fma_float(x, y, z)
# Base's: in Float32, where the product of two Float16 is exact, then rounded.
@inline fma(x::Float16, y::Float16, z::Float16) =
    Float16(muladd(Float32(x), Float32(y), Float32(z)))
@inline muladd(x::T, y::T, z::T) where {T<:IEEEFloat} = muladd_float(x, y, z)

# The remainder of truncated division (C's fmod), sign of the dividend.
@inline rem(x::T, y::T) where {T<:IEEEFloat} = rem_float(x, y)
@inline function mod(x::T, y::T) where {T<:IEEEFloat}
    r = rem(x, y)
    if iszero(r)
        return copysign(r, y)
    elseif (r > zero(T)) ⊻ (y > zero(T))
        return r + y
    else
        return r
    end
end
@inline div(x::T, y::T) where {T<:IEEEFloat} = round((x - rem(x, y)) / y)
@inline fld(x::T, y::T) where {T<:IEEEFloat} = round((x - mod(x, y)) / y)
@inline cld(x::T, y::T) where {T<:IEEEFloat} = -fld(-x, y)

# Float ^ Float: a negative base needs an integral exponent; ±Inf counts
# as an even one and NaN gives NaN (`(-2.0)^Inf` is Inf), as in Julia.
@inline function ^(x::T, y::T) where {T<:IEEEFloat}
    if x < zero(T) && isfinite(y) && !isinteger(y)
        throw(DomainError{T, :exp}(x))
    end
    return pow_float(x, y)
end
# Float ^ Integer keeps the float type: `2.0f0^3` is a Float32. Above
# maxintfloat every float is even, so an odd n gives the result x's sign
# back (`(-1.0)^(2^53 + 1)` is -1.0).
@inline function ^(x::T, n::Integer) where {T<:IEEEFloat}
    y = pow_float(x, convert(T, n))
    return ifelse(isodd(n), copysign(y, x), y)
end

@inline abs(x::T) where {T<:IEEEFloat} = abs_float(x)
@inline copysign(x::T, y::T) where {T<:IEEEFloat} = copysign_float(x, y)
@inline copysign(x::T, y::Real) where {T<:IEEEFloat} = copysign(x, convert(T, y))
@inline flipsign(x::T, y::Real) where {T<:IEEEFloat} = ifelse(signbit(y), -x, x)
@inline signbit(x::T) where {T<:IEEEFloat} = signbit(bitcast(inttype(T), x))

@inline isnan(x::T) where {T<:IEEEFloat} = x != x
@inline isfinite(x::T) where {T<:IEEEFloat} = iszero(x - x)
@inline isinf(x::T) where {T<:IEEEFloat} = !isnan(x) & !isfinite(x)
@inline isinteger(x::T) where {T<:IEEEFloat} = iszero(x - trunc(x))
@inline isnan(x::Real) = false
@inline isfinite(x::Real) = true
@inline isinf(x::Real) = false

# min and max propagate NaN, and order -0.0 below 0.0.
@inline function min(x::T, y::T) where {T<:IEEEFloat}
    return ifelse((y < x) | (signbit(y) > signbit(x)),
                  ifelse(isnan(x), x, y), ifelse(isnan(y), y, x))
end
@inline function max(x::T, y::T) where {T<:IEEEFloat}
    return ifelse((y > x) | (signbit(y) < signbit(x)),
                  ifelse(isnan(x), x, y), ifelse(isnan(y), y, x))
end

# Rounding to an integral value of the same float type.
@inline floor(x::T) where {T<:IEEEFloat} = floor_llvm(x)
@inline ceil(x::T) where {T<:IEEEFloat} = ceil_llvm(x)
@inline trunc(x::T) where {T<:IEEEFloat} = trunc_llvm(x)
# Ties to even, as Julia's default RoundNearest.
@inline round(x::T) where {T<:IEEEFloat} = rint_llvm(x)

# Square root and logarithm of a negative number throw, as in Julia.
@inline function sqrt(x::T) where {T<:IEEEFloat}
    x < zero(T) && throw(DomainError{T, :sqrt}(x))
    return sqrt_llvm(x)
end
@inline function log(x::T) where {T<:IEEEFloat}
    x < zero(T) && throw(DomainError{T, :log}(x))
    return log_float(x)
end
@inline function log2(x::T) where {T<:IEEEFloat}
    x < zero(T) && throw(DomainError{T, :log2}(x))
    return log2_float(x)
end
@inline function log10(x::T) where {T<:IEEEFloat}
    x < zero(T) && throw(DomainError{T, :log10}(x))
    return log10_float(x)
end
@inline exp(x::T) where {T<:IEEEFloat} = exp_float(x)
@inline exp2(x::T) where {T<:IEEEFloat} = exp2_float(x)
@inline sin(x::T) where {T<:IEEEFloat} = sin_float(x)
@inline cos(x::T) where {T<:IEEEFloat} = cos_float(x)
@inline tan(x::T) where {T<:IEEEFloat} = tan_float(x)
@inline atan(x::T) where {T<:IEEEFloat} = atan_float(x)
# The angle of the point (x, y), in (-π, π]: C's atan2.
@inline atan(y::T, x::T) where {T<:IEEEFloat} = atan2_float(y, x)

# Integer arguments compute in Float64, as in Julia.
@inline sqrt(x::Real) = sqrt(float(x))
@inline log(x::Real) = log(float(x))
@inline exp(x::Real) = exp(float(x))
@inline sin(x::Real) = sin(float(x))
@inline cos(x::Real) = cos(float(x))
@inline log2(x::Real) = log2(float(x))
@inline log10(x::Real) = log10(float(x))
@inline exp2(x::Real) = exp2(float(x))
@inline tan(x::Real) = tan(float(x))
@inline atan(x::Real) = atan(float(x))
@inline function atan(y::Real, x::Real)
    a, b = promote(float(y), float(x))
    return atan(a, b)
end

@inline float(x::T) where {T<:AbstractFloat} = x
@inline float(x::Integer) = Float64(x)

# The integer type of the same width (for bit manipulation).
inttype(::Type{Float16}) = Int16
inttype(::Type{Float32}) = Int32
inttype(::Type{Float64}) = Int64
uinttype(::Type{Float16}) = UInt16
uinttype(::Type{Float32}) = UInt32
uinttype(::Type{Float64}) = UInt64

@inline zero(::Type{Float16}) = Float16(0.0f0)
@inline one(::Type{Float16}) = Float16(1.0f0)
@inline zero(::Type{Float32}) = 0.0f0
@inline one(::Type{Float32}) = 1.0f0
@inline zero(::Type{Float64}) = 0.0
@inline one(::Type{Float64}) = 1.0

# The extreme values are the infinities.
typemin(::Type{Float16}) = bitcast(Float16, 0xfc00)
typemax(::Type{Float16}) = bitcast(Float16, 0x7c00)
typemin(::Type{Float32}) = bitcast(Float32, 0xff800000)
typemax(::Type{Float32}) = bitcast(Float32, 0x7f800000)
typemin(::Type{Float64}) = bitcast(Float64, 0xfff0000000000000)
typemax(::Type{Float64}) = bitcast(Float64, 0x7ff0000000000000)

# The largest and smallest positive normal finite values.
floatmax(::Type{Float16}) = bitcast(Float16, 0x7bff)
floatmax(::Type{Float32}) = bitcast(Float32, 0x7f7fffff)
floatmax(::Type{Float64}) = bitcast(Float64, 0x7fefffffffffffff)
floatmin(::Type{Float16}) = bitcast(Float16, 0x0400)
floatmin(::Type{Float32}) = bitcast(Float32, 0x00800000)
floatmin(::Type{Float64}) = bitcast(Float64, 0x0010000000000000)
@inline floatmax(x::T) where {T<:IEEEFloat} = floatmax(T)
@inline floatmin(x::T) where {T<:IEEEFloat} = floatmin(T)

# Julia's isequal: `==`, except that NaN is equal to NaN and -0.0 is not
# equal to 0.0 (the equality of hashing and sorting).
@inline isequal(x, y) = x == y
# An integer and a float: as `==`, but -0.0 is not 0 (Base's signequal).
@inline isequal(x::Real, y::AbstractFloat) =
    (isnan(x) & isnan(y)) | ((signbit(x) == signbit(y)) & (x == y))
@inline isequal(x::AbstractFloat, y::Real) =
    (isnan(x) & isnan(y)) | ((signbit(x) == signbit(y)) & (x == y))
@inline isequal(x::AbstractFloat, y::AbstractFloat) =
    (isnan(x) & isnan(y)) | ((signbit(x) == signbit(y)) & (x == y))

# The same bits as another type of the same size.
@inline function reinterpret(::Type{T}, x) where {T}
    sizeof(T) == sizeof(x) || throw(ArgumentError())
    return bitcast(T, x)
end

# Infinity and Julia's NaN (the positive quiet NaN), per precision.
const Inf64 = 1.0 / 0.0
const NaN64 = 0.0 / 0.0
const Inf32 = 1.0f0 / 0.0f0
const NaN32 = 0.0f0 / 0.0f0
const Inf16 = Float16(Inf64)
const NaN16 = Float16(NaN64)
const Inf = Inf64
const NaN = NaN64
