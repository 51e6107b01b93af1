# Base, part 5: conversions between number types.
#
#   x % T        (T an integer type) keeps the low bits: never throws.
#   T(x)         converts exactly or throws InexactError: `Int32(x)`, `UInt8(x)`.
#   Float32(x)   rounds to the nearest float.
#   trunc(T, x), floor(T, x), ceil(T, x), round(T, x): a float to an integer type.

# x % T for integer types, by the widths of source and target: narrowing keeps
# the low bits, widening sign-extends a signed source and zero-extends an
# unsigned one, equal widths reinterpret the bits.
@inline rem(x::Union{Int8, UInt8}, ::Type{T}) where {T<:Union{Int8, UInt8}} = bitcast(T, x)
@inline rem(x::Union{Int16, UInt16}, ::Type{T}) where {T<:Union{Int16, UInt16}} = bitcast(T, x)
@inline rem(x::Union{Int32, UInt32}, ::Type{T}) where {T<:Union{Int32, UInt32}} = bitcast(T, x)
@inline rem(x::Union{Int64, UInt64}, ::Type{T}) where {T<:Union{Int64, UInt64}} = bitcast(T, x)

@inline rem(x::Union{Int16, UInt16}, ::Type{T}) where {T<:Union{Int8, UInt8}} = trunc_int(T, x)
@inline rem(x::Union{Int32, UInt32}, ::Type{T}) where {T<:Union{Int8, UInt8, Int16, UInt16}} = trunc_int(T, x)
@inline rem(x::Union{Int64, UInt64}, ::Type{T}) where {T<:Union{Int8, UInt8, Int16, UInt16, Int32, UInt32}} = trunc_int(T, x)

@inline rem(x::Int8, ::Type{T}) where {T<:Union{Int16, UInt16, Int32, UInt32, Int64, UInt64}} = sext_int(T, x)
@inline rem(x::Int16, ::Type{T}) where {T<:Union{Int32, UInt32, Int64, UInt64}} = sext_int(T, x)
@inline rem(x::Int32, ::Type{T}) where {T<:Union{Int64, UInt64}} = sext_int(T, x)
@inline rem(x::UInt8, ::Type{T}) where {T<:Union{Int16, UInt16, Int32, UInt32, Int64, UInt64}} = zext_int(T, x)
@inline rem(x::UInt16, ::Type{T}) where {T<:Union{Int32, UInt32, Int64, UInt64}} = zext_int(T, x)
@inline rem(x::UInt32, ::Type{T}) where {T<:Union{Int64, UInt64}} = zext_int(T, x)

@inline rem(x::Bool, ::Type{T}) where {T<:BitInteger} = zext_int(T, x)
@inline rem(x::Bool, ::Type{Bool}) = x
@inline rem(x::T, ::Type{Bool}) where {T<:BitInteger} = !iszero(x & one(T))

# The same-width integer type of the other signedness.
signed(::Type{Int8}) = Int8
signed(::Type{Int16}) = Int16
signed(::Type{Int32}) = Int32
signed(::Type{Int64}) = Int64
signed(::Type{UInt8}) = Int8
signed(::Type{UInt16}) = Int16
signed(::Type{UInt32}) = Int32
signed(::Type{UInt64}) = Int64
unsigned(::Type{Int8}) = UInt8
unsigned(::Type{Int16}) = UInt16
unsigned(::Type{Int32}) = UInt32
unsigned(::Type{Int64}) = UInt64
unsigned(::Type{UInt8}) = UInt8
unsigned(::Type{UInt16}) = UInt16
unsigned(::Type{UInt32}) = UInt32
unsigned(::Type{UInt64}) = UInt64
# Reinterpret the bits: `unsigned(-1) == 0xffffffffffffffff`.
@inline signed(x::T) where {T<:BitInteger} = x % signed(T)
@inline unsigned(x::T) where {T<:BitInteger} = x % unsigned(T)
@inline unsigned(x::Bool) = x % UInt64
@inline signed(x::Bool) = x % Int64

# Exact integer-to-integer conversion: x fits in T when converting back gives
# x again and the sign did not change.
@inline function checked_convert(::Type{T}, x::S) where {T<:BitInteger, S<:BitInteger}
    y = x % T
    if (y % S != x) | (signbit(y) != signbit(x))
        # Julia's names: narrowing truncates, else only the sign is wrong.
        if sizeof(T) < sizeof(S)
            throw(InexactError{:trunc, T, S}(x))
        end
        throw(InexactError{:check_top_bit, T, S}(x))
    end
    return y
end
@inline checked_convert(::Type{T}, x::Bool) where {T<:BitInteger} = x % T
# A conversion to a type that holds every value of x's needs no check: as in
# Julia's Base, `Int64(x::Int32)` is a bare `sext_int` in the typed IR.
@inline checked_convert(::Type{T}, x::T) where {T<:BitInteger} = x
@inline checked_convert(::Type{Int16}, x::Union{Int8, UInt8}) = x % Int16
@inline checked_convert(::Type{Int32}, x::Union{Int8, Int16, UInt8, UInt16}) = x % Int32
@inline checked_convert(::Type{Int64}, x::Union{Int8, Int16, Int32, UInt8, UInt16, UInt32}) = x % Int64
@inline checked_convert(::Type{UInt16}, x::UInt8) = x % UInt16
@inline checked_convert(::Type{UInt32}, x::Union{UInt8, UInt16}) = x % UInt32
@inline checked_convert(::Type{UInt64}, x::Union{UInt8, UInt16, UInt32}) = x % UInt64
# Float to integer: x must be integral and in range (Julia names either
# failure `Int32(2.5)`, where `trunc(Int32, x)` names its own).
@inline function checked_convert(::Type{T}, x::S) where {T<:BitInteger, S<:IEEEFloat}
    if isinteger(x) & truncates_into(T, x)
        return unsafe_trunc(T, x)
    end
    throw(InexactError{:call, T, S}(x))
end

Int8(x::Real) = checked_convert(Int8, x)
Int16(x::Real) = checked_convert(Int16, x)
Int32(x::Real) = checked_convert(Int32, x)
Int64(x::Real) = checked_convert(Int64, x)
UInt8(x::Real) = checked_convert(UInt8, x)
UInt16(x::Real) = checked_convert(UInt16, x)
UInt32(x::Real) = checked_convert(UInt32, x)
UInt64(x::Real) = checked_convert(UInt64, x)

# Only 0 and 1 convert to Bool.
@inline function Bool(x::S) where {S<:Real}
    if iszero(x)
        return false
    elseif isone(x)
        return true
    end
    throw(InexactError{:call, Bool, S}(x))
end
Bool(x::Bool) = x

# Integers to floats round to nearest.
Float16(x::BitSigned) = sitofp(Float16, x)
Float32(x::BitSigned) = sitofp(Float32, x)
Float64(x::BitSigned) = sitofp(Float64, x)
Float16(x::Union{Bool, BitUnsigned}) = uitofp(Float16, x)
Float32(x::Union{Bool, BitUnsigned}) = uitofp(Float32, x)
Float64(x::Union{Bool, BitUnsigned}) = uitofp(Float64, x)

# Between floats: widening is exact, narrowing rounds to nearest.
Float16(x::Float16) = x
Float16(x::Union{Float32, Float64}) = fptrunc(Float16, x)
Float32(x::Float16) = fpext(Float32, x)
Float32(x::Float32) = x
Float32(x::Float64) = fptrunc(Float32, x)
Float64(x::Union{Float16, Float32}) = fpext(Float64, x)
Float64(x::Float64) = x

# Float to integer without any check (the result is unspecified out of range).
@inline unsafe_trunc(::Type{T}, x::IEEEFloat) where {T<:BitSigned} = fptosi(T, x)
@inline unsafe_trunc(::Type{T}, x::IEEEFloat) where {T<:BitUnsigned} = fptoui(T, x)

# Int64/UInt64 against Float32/Float64 compare exactly, as in Julia (not
# after rounding the integer to the float): 2^53 + 1 != 2.0^53. The float
# of typemax(Ti) is 2^63 (or 2^64), one past the integer range, and
# unsafe_trunc runs only on a float inside it (`&&`, not `&`: out of range
# it is poison, which `&` would not mask).
@inline function ==(x::Tf, y::Ti) where {Tf<:Union{Float32, Float64}, Ti<:Union{Int64, UInt64}}
    fy = Tf(y)
    return x == fy && fy != Tf(typemax(Ti)) && y == unsafe_trunc(Ti, fy)
end
@inline ==(y::Ti, x::Tf) where {Tf<:Union{Float32, Float64}, Ti<:Union{Int64, UInt64}} = x == y
@inline function <(x::Ti, y::Tf) where {Tf<:Union{Float32, Float64}, Ti<:Union{Int64, UInt64}}
    fx = Tf(x)
    return fx < y || (fx == y && (fx == Tf(typemax(Ti)) || x < unsafe_trunc(Ti, fx)))
end
@inline function <=(x::Ti, y::Tf) where {Tf<:Union{Float32, Float64}, Ti<:Union{Int64, UInt64}}
    fx = Tf(x)
    return fx < y || (fx == y && (fx == Tf(typemax(Ti)) || x <= unsafe_trunc(Ti, fx)))
end
@inline function <(x::Tf, y::Ti) where {Tf<:Union{Float32, Float64}, Ti<:Union{Int64, UInt64}}
    fy = Tf(y)
    return x < fy || (x == fy && fy < Tf(typemax(Ti)) && unsafe_trunc(Ti, fy) < y)
end
@inline function <=(x::Tf, y::Ti) where {Tf<:Union{Float32, Float64}, Ti<:Union{Int64, UInt64}}
    fy = Tf(y)
    return x < fy || (x == fy && fy < Tf(typemax(Ti)) && unsafe_trunc(Ti, fy) <= y)
end

# Narrower integers against a float too narrow to hold them all compare
# through a wider float that holds both exactly, as Base's float.jl does:
# Int32(16777217) != 16777216f0, although Float32 rounds one to the other.
@inline ==(x::Union{Float16, Float32}, y::Union{Int32, UInt32}) = Float64(x) == Float64(y)
@inline ==(x::Union{Int32, UInt32}, y::Union{Float16, Float32}) = Float64(x) == Float64(y)
@inline <(x::Union{Float16, Float32}, y::Union{Int32, UInt32}) = Float64(x) < Float64(y)
@inline <(x::Union{Int32, UInt32}, y::Union{Float16, Float32}) = Float64(x) < Float64(y)
@inline <=(x::Union{Float16, Float32}, y::Union{Int32, UInt32}) = Float64(x) <= Float64(y)
@inline <=(x::Union{Int32, UInt32}, y::Union{Float16, Float32}) = Float64(x) <= Float64(y)
@inline ==(x::Float16, y::Union{Int16, UInt16}) = Float32(x) == Float32(y)
@inline ==(x::Union{Int16, UInt16}, y::Float16) = Float32(x) == Float32(y)
@inline <(x::Float16, y::Union{Int16, UInt16}) = Float32(x) < Float32(y)
@inline <(x::Union{Int16, UInt16}, y::Float16) = Float32(x) < Float32(y)
@inline <=(x::Float16, y::Union{Int16, UInt16}) = Float32(x) <= Float32(y)
@inline <=(x::Union{Int16, UInt16}, y::Float16) = Float32(x) <= Float32(y)
@inline ==(x::Float16, y::Union{Int64, UInt64}) = Float64(x) == y
@inline ==(x::Union{Int64, UInt64}, y::Float16) = x == Float64(y)
@inline <(x::Float16, y::Union{Int64, UInt64}) = Float64(x) < y
@inline <(x::Union{Int64, UInt64}, y::Float16) = x < Float64(y)
@inline <=(x::Float16, y::Union{Int64, UInt64}) = Float64(x) <= y
@inline <=(x::Union{Int64, UInt64}, y::Float16) = x <= Float64(y)

# Float to integer, rounding toward zero; InexactError when out of range
# (NaN and the infinities are out of every range). The bounds are powers of
# two, exact in every float type (or infinite).
@inline function truncates_into(::Type{T}, x::S) where {T<:BitSigned, S<:IEEEFloat}
    lo = S(typemin(T))
    # typemin(Int32) is -Inf16: every finite Float16 fits.
    isinf(lo) && return isfinite(x)
    # As Julia's: where typemin - 1 is exact in S, anything above it
    # truncates to typemin or more (trunc(Int8, -128.9) == -128).
    if sizeof(T) < sizeof(S)
        return (x > lo - one(S)) & (x < -lo)
    end
    return (x >= lo) & (x < -lo)
end
@inline function truncates_into(::Type{T}, x::S) where {T<:BitUnsigned, S<:IEEEFloat}
    hi = -S(typemin(signed(T))) * S(2)
    return (x > -one(S)) & (x < hi)
end
@inline function trunc(::Type{T}, x::S) where {T<:BitInteger, S<:IEEEFloat}
    if truncates_into(T, x)
        return unsafe_trunc(T, x)
    end
    throw(InexactError{:trunc, T, S}(x))
end
@inline floor(::Type{T}, x::IEEEFloat) where {T<:Integer} = trunc(T, floor(x))
@inline ceil(::Type{T}, x::IEEEFloat) where {T<:Integer} = trunc(T, ceil(x))
@inline round(::Type{T}, x::IEEEFloat) where {T<:Integer} = trunc(T, round(x))
@inline trunc(::Type{T}, x::Integer) where {T<:Integer} = convert(T, x)
@inline floor(::Type{T}, x::Integer) where {T<:Integer} = convert(T, x)
@inline ceil(::Type{T}, x::Integer) where {T<:Integer} = convert(T, x)
@inline round(::Type{T}, x::Integer) where {T<:Integer} = convert(T, x)
