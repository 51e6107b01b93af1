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
# Base's div(x, y, RoundUp): `cld(-0.5, 1.0)` is 0.0, not -0.0.
@inline cld(x::T, y::T) where {T<:IEEEFloat} = round((x - mod(x, -y)) / y)

# Powers as Base computes them (math.jl, intfuncs.jl), so that a power
# known only at run time is the literal one (`x^n` with n == 3 is
# `x * x * x`, as `x^3` is) and agrees with Julia to the bit.
#
# Float ^ Integer keeps the float type (`2.0f0^3` is a Float32): Float64 by
# compensated squaring, Float32 by squaring in Float64, Float16 in Float32.
@inline function ^(x::Float64, n::Integer)
    n == 0 && return one(x)
    return pow_body(x, n)
end
@inline function ^(x::Float32, n::Integer)
    if n == -2
        i = inv(x)
        return i * i
    end
    n == 3 && return x * x * x
    n < 0 && return Float32(power_by_squaring(inv(Float64(x)), -n))
    return Float32(power_by_squaring(Float64(x), n))
end
@inline ^(x::Float16, n::Integer) = Float16(Float32(x)^n)
# A Bool power is x or one (the loops below would turn `n` into an Int).
# Base's pow_body for n == true is muladd(x, 1.0, +0.0): -0.0 becomes 0.0.
@inline ^(x::Float64, p::Bool) = p ? x + 0.0 : one(x)
@inline ^(x::Float32, p::Bool) = p ? x : one(x)
@inline ^(x::Float16, p::Bool) = p ? x : one(x)

# x * y and its rounding error.
@inline function two_mul(x::Float64, y::Float64)
    xy = x * y
    return xy, fma(x, y, -xy)
end
function pow_body(x::Float64, n::Integer)
    y = 1.0
    xnlo = 0.0
    ynlo = 0.0
    n == 3 && return x * x * x
    if n < 0
        rx = inv(x)
        n == -2 && return rx * rx
        if isfinite(x)
            xnlo = -fma(x, rx, -1.0) * rx
        end
        x = rx
        n = -n
    end
    while n > 1
        if (n & 1) > 0
            err = muladd(y, xnlo, x * ynlo)
            y, ynlo = two_mul(x, y)
            ynlo += err
        end
        err = x * 2 * xnlo
        x, xnlo = two_mul(x, x)
        xnlo += err
        n >>>= 1
    end
    err = muladd(y, xnlo, x * ynlo)
    return ifelse(isfinite(x) & isfinite(err), muladd(x, y, err), x * y)
end
# Base's power_by_squaring, multiplication for multiplication (any Number).
function power_by_squaring(x::Number, p::Integer)
    if p == 1
        return x
    elseif p == 0
        return one(x)
    elseif p == 2
        return x * x
    elseif p < 0
        isone(x) && return x
        isone(-x) && return iseven(p) ? one(x) : x
        throw(DomainError{typeof(p), :powbysq_float}(p))
    end
    t = trailing_zeros(p) + 1
    p >>= t
    for k in 2:t
        x *= x
    end
    y = x
    while p > 0
        t = trailing_zeros(p) + 1
        p >>= t
        for k in 1:t
            x *= x
        end
        y *= x
    end
    return y
end

# Float ^ Float: an integral exponent is the integer power (above the
# exponent where every power overflows or underflows, the largest such);
# otherwise a negative base is a DomainError, and NaN gives NaN
# (`(-2.0)^Inf` is Inf, an even power), as in Julia.
@inline pow_exponent_limit(::Type{Float64}) = 0x1.8p62
@inline pow_exponent_limit(::Type{Float32}) = Float32(0x1.Ap30)
@inline pow_exponent_limit(::Type{Float16}) = Float16(49152)
@inline pow_int_type(::Type{Float64}) = Int64
@inline pow_int_type(::Type{Float32}) = Int32
@inline pow_int_type(::Type{Float16}) = Int32
@inline function ^(x::T, y::T) where {T<:IEEEFloat}
    x == one(T) && return one(T)
    if !(abs(y) < pow_exponent_limit(T))
        isnan(y) && return y
        y = copysign(pow_exponent_limit(T), y)
    end
    yint = unsafe_trunc(pow_int_type(T), y)
    y == yint && return x^yint
    if x < zero(T)
        throw(DomainError{T, :exp}(x))
    end
    return pow_float(x, y)
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

# More of the C library (libdevice's `__nv_` functions on ptx), as sin and
# cos: within an ulp of Julia's own implementations, not always the same
# bits. Float16 computes in Float32, as Julia's methods do.
@inline tanh(x::T) where {T<:IEEEFloat} = tanh_float(x)
@inline sinh(x::T) where {T<:IEEEFloat} = sinh_float(x)
@inline cosh(x::T) where {T<:IEEEFloat} = cosh_float(x)
# glibc's cbrt is an ulp off even for exact cubes (-3.0000000000000004 for
# -27.0): one Newton step, its residual t^3 - x computed with fma, makes it
# the correctly rounded root but for rare ties. (A Float32 one the host
# computes in Float64, rounded once: NativeTarget::emitMath.)
@inline cbrt(x::T) where {T<:Union{Float16, Float32}} = cbrt_float(x)
@inline function cbrt(x::Float64)
    t = cbrt_float(x)
    if isfinite(t) & !iszero(t)
        t2 = t * t
        r = fma(t2, t, -x) + fma(t, t, -t2) * t
        t = t - r / (3.0 * t2)
    end
    return t
end
@inline expm1(x::T) where {T<:IEEEFloat} = expm1_float(x)
@inline function asin(x::T) where {T<:IEEEFloat}
    abs(x) > one(T) && throw(DomainError{T, :asin}(x))
    return asin_float(x)
end
@inline function acos(x::T) where {T<:IEEEFloat}
    abs(x) > one(T) && throw(DomainError{T, :acos}(x))
    return acos_float(x)
end
@inline function log1p(x::T) where {T<:IEEEFloat}
    x < -one(T) && throw(DomainError{T, :log1p}(x))
    return log1p_float(x)
end
@inline asin(x::Float16) = Float16(asin(Float32(x)))
@inline acos(x::Float16) = Float16(acos(Float32(x)))
@inline log1p(x::Float16) = Float16(log1p(Float32(x)))
@inline tanh(x::Real) = tanh(float(x))
@inline sinh(x::Real) = sinh(float(x))
@inline cosh(x::Real) = cosh(float(x))
@inline cbrt(x::Real) = cbrt(float(x))
@inline expm1(x::Real) = expm1(float(x))
@inline asin(x::Real) = asin(float(x))
@inline acos(x::Real) = acos(float(x))
@inline log1p(x::Real) = log1p(float(x))

# The distance to the next float of larger magnitude (`eps(1.0)`), by
# Base's trick: toggling the last bit reaches a neighbour in x's binade.
eps(::Type{Float16}) = bitcast(Float16, 0x1400)
eps(::Type{Float32}) = bitcast(Float32, 0x34000000)
eps(::Type{Float64}) = bitcast(Float64, 0x3cb0000000000000)
eps() = eps(Float64)
@inline function eps(x::T) where {T<:IEEEFloat}
    y = bitcast(T, xor(bitcast(uinttype(T), x), one(uinttype(T))))
    return abs(x - y)
end

# The adjacent floats (one step; NaN stays, the infinities stop).
@inline function nextfloat(x::T) where {T<:IEEEFloat}
    u = bitcast(uinttype(T), x)
    if isnan(x) || x == typemax(T)
        return x
    elseif iszero(x)
        return bitcast(T, one(u))
    end
    return bitcast(T, signbit(x) ? u - one(u) : u + one(u))
end
@inline prevfloat(x::T) where {T<:IEEEFloat} = -nextfloat(-x)

# Base's hypot: scaled away from overflow and underflow, then corrected
# with fma (correctly rounded); Float32 and Float16 in the next precision.
@inline function hypot(x::Float64, y::Float64)
    if isinf(x) || isinf(y)
        return Inf64
    end
    ax, ay = abs(x), abs(y)
    if ay > ax
        ax, ay = ay, ax
    end
    if ay <= ax * sqrt(eps(Float64) / 2) # also ay == 0
        return ax
    end
    scale = eps(Float64) * sqrt(floatmin(Float64))
    if ax > sqrt(floatmax(Float64) / 2)
        ax = ax * scale
        ay = ay * scale
        scale = inv(scale)
    elseif ay < sqrt(floatmin(Float64))
        ax = ax / scale
        ay = ay / scale
    else
        scale = 1.0
    end
    h = sqrt(muladd(ax, ax, ay * ay))
    hsquared = h * h
    axsquared = ax * ax
    h -= (fma(-ay, ay, hsquared - axsquared) + fma(h, h, -hsquared) -
          fma(ax, ax, -axsquared)) / (2 * h)
    return h * scale
end
@inline function hypot(x::T, y::T) where {T<:Union{Float16, Float32}}
    if isinf(x) || isinf(y)
        return typemax(T)
    end
    W = wider_float(T)
    a, b = W(x), W(y)
    return T(sqrt(muladd(a, a, b * b)))
end
wider_float(::Type{Float16}) = Float32
wider_float(::Type{Float32}) = Float64
@inline function hypot(x::Real, y::Real)
    a, b = promote(float(x), y)
    return hypot(a, b)
end
@inline hypot(x::Real) = abs(float(x))
