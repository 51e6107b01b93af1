# Base, part 3: the fixed-width integers Int8..Int64, UInt8..UInt64.
# Arithmetic wraps around, as in Julia.

@inline -(x::T) where {T<:BitInteger} = neg_int(x)
@inline +(x::T) where {T<:Number} = x
@inline +(x::T, y::T) where {T<:BitInteger} = add_int(x, y)
@inline -(x::T, y::T) where {T<:BitInteger} = sub_int(x, y)
@inline *(x::T, y::T) where {T<:BitInteger} = mul_int(x, y)

# `/` on integers divides as floats: `7 / 2 == 3.5`, also for Int32.
@inline /(x::Integer, y::Integer) = float(x) / float(y)

@inline ~(x::T) where {T<:BitInteger} = not_int(x)
@inline &(x::T, y::T) where {T<:BitInteger} = and_int(x, y)
@inline |(x::T, y::T) where {T<:BitInteger} = or_int(x, y)
@inline xor(x::T, y::T) where {T<:BitInteger} = xor_int(x, y)

# Mixed-type integer arithmetic wraps, as Julia's does: both operands are
# taken to the promoted type with `%`, not with a checked convert
# (`Int8(-1) + 0x01 == 0x00`, not an InexactError).
@inline function +(x::BitInteger, y::BitInteger)
    T = promote_type(typeof(x), typeof(y))
    return (x % T) + (y % T)
end
@inline function -(x::BitInteger, y::BitInteger)
    T = promote_type(typeof(x), typeof(y))
    return (x % T) - (y % T)
end
@inline function *(x::BitInteger, y::BitInteger)
    T = promote_type(typeof(x), typeof(y))
    return (x % T) * (y % T)
end
@inline function &(x::BitInteger, y::BitInteger)
    T = promote_type(typeof(x), typeof(y))
    return (x % T) & (y % T)
end
@inline function |(x::BitInteger, y::BitInteger)
    T = promote_type(typeof(x), typeof(y))
    return (x % T) | (y % T)
end
@inline function xor(x::BitInteger, y::BitInteger)
    T = promote_type(typeof(x), typeof(y))
    return xor(x % T, y % T)
end

@inline ==(x::T, y::T) where {T<:BitInteger} = eq_int(x, y)
@inline !=(x::T, y::T) where {T<:BitInteger} = ne_int(x, y)
@inline <(x::T, y::T) where {T<:BitSigned} = slt_int(x, y)
@inline <=(x::T, y::T) where {T<:BitSigned} = sle_int(x, y)
@inline <(x::T, y::T) where {T<:BitUnsigned} = ult_int(x, y)
@inline <=(x::T, y::T) where {T<:BitUnsigned} = ule_int(x, y)

# Signed against unsigned compares the mathematical values (no promotion
# to unsigned: `-1 < 0x01` is true).
@inline ==(x::Signed, y::Unsigned) = (x >= zero(x)) & (unsigned(x) == y)
@inline ==(x::Unsigned, y::Signed) = (y >= zero(y)) & (x == unsigned(y))
@inline <(x::Signed, y::Unsigned) = (x < zero(x)) | (unsigned(x) < y)
@inline <(x::Unsigned, y::Signed) = (y >= zero(y)) & (x < unsigned(y))
@inline <=(x::Signed, y::Unsigned) = (x < zero(x)) | (unsigned(x) <= y)
@inline <=(x::Unsigned, y::Signed) = (y >= zero(y)) & (x <= unsigned(y))

# Division truncates toward zero; the remainder has the sign of the dividend.
@inline function div(x::T, y::T) where {T<:BitSigned}
    if iszero(y) || (y == -one(T) && x == typemin(T))
        throw(DivideError())
    end
    return sdiv_int(x, y)
end
@inline function div(x::T, y::T) where {T<:BitUnsigned}
    iszero(y) && throw(DivideError())
    return udiv_int(x, y)
end
@inline function rem(x::T, y::T) where {T<:BitSigned}
    iszero(y) && throw(DivideError())
    # x % -1 is 0; computing it would overflow for x == typemin(T).
    if y == -one(T)
        return zero(T)
    end
    return srem_int(x, y)
end
@inline function rem(x::T, y::T) where {T<:BitUnsigned}
    iszero(y) && throw(DivideError())
    return urem_int(x, y)
end

# Floored and ceiling division, and the floored remainder `mod` (sign of the divisor).
@inline function fld(x::T, y::T) where {T<:BitSigned}
    d = div(x, y)
    return d - (signbit(x ⊻ y) & (d * y != x))
end
@inline function cld(x::T, y::T) where {T<:BitSigned}
    d = div(x, y)
    return d + (((x > zero(T)) == (y > zero(T))) & (d * y != x))
end
@inline fld(x::T, y::T) where {T<:BitUnsigned} = div(x, y)
@inline function cld(x::T, y::T) where {T<:BitUnsigned}
    d = div(x, y)
    return d + (d * y != x)
end
@inline function mod(x::T, y::T) where {T<:BitSigned}
    # avoids the overflow of fld(typemin(T), -1)
    if y == -one(T)
        return zero(T)
    end
    return x - fld(x, y) * y
end
@inline mod(x::T, y::T) where {T<:BitUnsigned} = rem(x, y)

# Shifts. A count at least the bit width shifts everything out (`>>` of a
# negative number gives -1); a negative count shifts the other way.
@inline function <<(x::T, n::BitUnsigned) where {T<:BitInteger}
    return n < 8 * sizeof(T) ? shl_int(x, n % T) : zero(T)
end
@inline function >>>(x::T, n::BitUnsigned) where {T<:BitInteger}
    return n < 8 * sizeof(T) ? lshr_int(x, n % T) : zero(T)
end
@inline function >>(x::T, n::BitUnsigned) where {T<:BitSigned}
    return n < 8 * sizeof(T) ? ashr_int(x, n % T) : ashr_int(x, (8 * sizeof(T) - 1) % T)
end
@inline >>(x::T, n::BitUnsigned) where {T<:BitUnsigned} = x >>> n
@inline <<(x::BitInteger, n::BitSigned) = n >= zero(n) ? x << unsigned(n) : x >> unsigned(-n)
@inline >>(x::BitInteger, n::BitSigned) = n >= zero(n) ? x >> unsigned(n) : x << unsigned(-n)
@inline >>>(x::BitInteger, n::BitSigned) = n >= zero(n) ? x >>> unsigned(n) : x << unsigned(-n)
# Bools shift as the Int they are (`true << 1 == 2`), and shift by 0 or 1.
@inline <<(x::Bool, n::Integer) = Int(x) << n
@inline >>(x::Bool, n::Integer) = Int(x) >> n
@inline >>>(x::Bool, n::Integer) = Int(x) >>> n
@inline <<(x::BitInteger, n::Bool) = x << UInt(n)
@inline >>(x::BitInteger, n::Bool) = x >> UInt(n)
@inline >>>(x::BitInteger, n::Bool) = x >>> UInt(n)

# Powers by repeated squaring; a negative exponent only works for x = ±1.
@inline function power_by_squaring(x::T, p::Integer) where {T<:BitInteger}
    if p < zero(p)
        if isone(x)
            return x
        elseif x == -one(T)
            return iseven(p) ? one(T) : x
        end
        throw(DomainError{typeof(p), :powbysq}(p))
    end
    result = one(T)
    while p > zero(p)
        if isodd(p)
            result *= x
        end
        x *= x
        p >>>= 1
    end
    return result
end

# A Bool power is x or one (the loop above would turn `p` into an Int).
@inline ^(x::T, p::Bool) where {T<:BitInteger} = p ? x : one(T)

@inline abs(x::T) where {T<:BitSigned} = ifelse(x < zero(T), -x, x)
@inline abs(x::T) where {T<:BitUnsigned} = x
@inline signbit(x::T) where {T<:BitSigned} = x < zero(T)
@inline signbit(x::T) where {T<:BitUnsigned} = false
@inline copysign(x::T, y::Real) where {T<:BitSigned} = ifelse(signbit(x) != signbit(y), -x, x)
@inline flipsign(x::T, y::Real) where {T<:BitSigned} = ifelse(signbit(y), -x, x)
# Base's generic ones (number.jl): an unsigned x wraps (`copysign(0x05, -1)`
# is 0xfb) and a Bool becomes an Int.
@inline copysign(x::Real, y::Real) = ifelse(signbit(x) != signbit(y), -x, +x)
@inline flipsign(x::Real, y::Real) = ifelse(signbit(y), -x, +x)

@inline iseven(n::Integer) = iszero(n & one(n))
@inline isodd(n::Integer) = !iseven(n)
@inline isinteger(x::Integer) = true

@inline count_ones(x::T) where {T<:BitInteger} = Int(ctpop_int(x))
@inline count_zeros(x::T) where {T<:BitInteger} = count_ones(~x)
@inline leading_zeros(x::T) where {T<:BitInteger} = Int(ctlz_int(x))
@inline trailing_zeros(x::T) where {T<:BitInteger} = Int(cttz_int(x))

# Rounding an integer does nothing.
@inline floor(x::Integer) = x
@inline ceil(x::Integer) = x
@inline trunc(x::Integer) = x
@inline round(x::Integer) = x

@inline zero(::Type{T}) where {T<:BitInteger} = 0 % T
@inline one(::Type{T}) where {T<:BitInteger} = 1 % T

typemin(::Type{Int8}) = -128 % Int8
typemax(::Type{Int8}) = 127 % Int8
typemin(::Type{Int16}) = -32768 % Int16
typemax(::Type{Int16}) = 32767 % Int16
typemin(::Type{Int32}) = -2147483648 % Int32
typemax(::Type{Int32}) = 2147483647 % Int32
typemin(::Type{Int64}) = -9223372036854775807 - 1
typemax(::Type{Int64}) = 9223372036854775807
typemin(::Type{UInt8}) = 0x00
typemax(::Type{UInt8}) = 0xff
typemin(::Type{UInt16}) = 0x0000
typemax(::Type{UInt16}) = 0xffff
typemin(::Type{UInt32}) = 0x00000000
typemax(::Type{UInt32}) = 0xffffffff
typemin(::Type{UInt64}) = 0x0000000000000000
typemax(::Type{UInt64}) = 0xffffffffffffffff

# Base's mixed-sign division: on magnitudes, then the sign put back, so
# `div(-7, UInt(3))` is the Int64 -2 (promoting both to UInt64 would throw
# an InexactError). The result has the signed operand's signedness for div,
# rem and fld, and rem's (promoted) type for mod (`mod(-7, 0x03)` is the
# UInt64 2), as in Julia.
@inline div(x::Signed, y::Unsigned) = flipsign(signed(div(unsigned(abs(x)), y)), x)
@inline div(x::Unsigned, y::Signed) = unsigned(flipsign(signed(div(x, unsigned(abs(y)))), y))
@inline rem(x::Signed, y::Unsigned) = flipsign(signed(rem(unsigned(abs(x)), y)), x)
@inline rem(x::Unsigned, y::Signed) = rem(x, unsigned(abs(y)))
@inline fld(x::Signed, y::Unsigned) = div(x, y) - (signbit(x) & (rem(x, y) != 0))
@inline fld(x::Unsigned, y::Signed) = div(x, y) - (signbit(y) & (rem(x, y) != 0))
@inline cld(x::Signed, y::Unsigned) = div(x, y) + (!signbit(x) & (rem(x, y) != 0))
@inline cld(x::Unsigned, y::Signed) = div(x, y) + (!signbit(y) & (rem(x, y) != 0))
@inline mod(x::Signed, y::Unsigned) = rem(y + unsigned(rem(x, y)), y)
@inline mod(x::Unsigned, y::Signed) = rem(y + signed(rem(x, y)), y)

# Base's integer fma: exact, so a multiply and an add (`fma(3, 2, 3)` is 9).
@inline fma(x::T, y::T, z::T) where {T<:Union{Bool, BitInteger}} = x * y + z

# Byte and bit order (LLVM's bswap and bitreverse, as Julia's). Every
# device here is little-endian, so network order (`ntoh`, `hton`: a BPF
# filter reading a packet's big-endian fields) is a byte swap.
@inline bswap(x::Union{Int8, UInt8, Bool}) = x
@inline bswap(x::Union{Int16, UInt16, Int32, UInt32, Int64, UInt64}) = bswap_int(x)
@inline bitreverse(x::T) where {T<:BitInteger} = bitreverse_int(x)
@inline ntoh(x::Union{Bool, BitInteger}) = bswap(x)
@inline hton(x::Union{Bool, BitInteger}) = bswap(x)
@inline ltoh(x) = x
@inline htol(x) = x
@inline leading_ones(x::T) where {T<:BitInteger} = leading_zeros(~x)
@inline trailing_ones(x::T) where {T<:BitInteger} = trailing_zeros(~x)
