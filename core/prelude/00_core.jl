# Base for the kernel language, part 0: the names everything else builds on.
#
# The prelude is ordinary kernel-language source, loaded before user code in
# file-name order. Like Julia's Base it is written over builtins (Julia's
# Core.Intrinsics): `add_int`, `slt_int`, `fptrunc`, `pointerref`, ...
# Methods may call functions defined in later files; types and constants used
# in signatures must be defined in an earlier file or above.

# The empty union: `promote_rule` answers it when it knows no rule.
const Bottom = Union{}

# The primitive number types, grouped as Julia's Base groups them.
const BitSigned = Union{Int8, Int16, Int32, Int64}
const BitUnsigned = Union{UInt8, UInt16, UInt32, UInt64}
const BitInteger = Union{Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64}
const IEEEFloat = Union{Float16, Float32, Float64}

# Exceptions. They cannot be caught: a throw reports the exception's type,
# its fields and the source location, then stops the kernel.
abstract type Exception end

# An index or indices `i` (a tuple) out of the bounds of `a`.
struct BoundsError{A,I} <: Exception
    a::A
    i::I
end

# A value `val` that a conversion to `To` cannot represent exactly. `F`
# names the conversion as Julia's showerror does: `trunc(Int8, 300)`
# (F = :trunc), `check_top_bit(UInt64, -1)`, or `Int32(2.5)` (F = :call).
struct InexactError{F, To, T} <: Exception
    val::T
end
# A kernel's own `throw(InexactError(x))` names no conversion: shown as
# `InexactError(11)`.
InexactError(x::T) where {T} = InexactError{:none, Nothing, T}(x)

# Integer division (`div`, `÷`, `rem`, `%`, `mod`, ...) by zero, or `typemin ÷ -1`.
struct DivideError <: Exception end

# A bad argument. Kernels have no strings, so it holds no message: the only
# one the prelude throws is a loop range's zero step (`for i in a:0:b`),
# whose message, "step cannot be zero", the device's report adds.
struct ArgumentError <: Exception end

# An argument `val` outside a function's domain (`sqrt(-1.0)`, `2^n` with
# n < 0). `M` names Julia's message for it (:sqrt, :log, :log2, :log10,
# :exp for a float power, :powbysq for an integer one), so the message
# costs nothing at run time; a kernel's own `DomainError(x)` has :none.
struct DomainError{T, M} <: Exception
    val::T
end
DomainError(x::T) where {T} = DomainError{T, :none}(x)

# Generic fallbacks, as in Julia's Base.
@inline identity(x) = x
@inline ifelse(c::Bool, x, y) = c ? x : y

@inline ==(x, y) = x === y
@inline !=(x, y) = !(x == y)
@inline !==(x, y) = !(x === y)
@inline >(x, y) = y < x
@inline >=(x, y) = y <= x
@inline ÷(x, y) = div(x, y)
@inline %(x, y) = rem(x, y)
@inline ⊻(x, y) = xor(x, y)

# Sizes in bytes of the primitive types.
sizeof(::Type{Bool}) = 1
sizeof(::Type{Int8}) = 1
sizeof(::Type{UInt8}) = 1
sizeof(::Type{Int16}) = 2
sizeof(::Type{UInt16}) = 2
sizeof(::Type{Float16}) = 2
sizeof(::Type{Int32}) = 4
sizeof(::Type{UInt32}) = 4
sizeof(::Type{Float32}) = 4
sizeof(::Type{Int64}) = 8
sizeof(::Type{UInt64}) = 8
sizeof(::Type{Float64}) = 8
sizeof(::Type{Ptr{T}}) where {T} = 8
# A struct or tuple type: its fields as Julia lays them out (Core.sizeof).
@inline sizeof(::Type{T}) where {T} = sizeof_type(T)
@inline sizeof(x) = sizeof(typeof(x))

# Julia's `error(msg)`. Kernels have no strings, so `M` names the message
# and `A` (a tuple type) holds the types it mentions: ErrorException{
# :promotion, Tuple{MyNum, Int64}} is "promotion of types MyNum and Int64
# failed to change any arguments".
struct ErrorException{M, A} <: Exception end

@inline isnothing(x) = x === nothing

# Checked arithmetic that overflows (`gcd(typemin(Int8), 0)`): M names
# Julia's message (:checked_abs, :gcd) and `a`, `b` hold its values.
struct OverflowError{M, T} <: Exception
    a::T
    b::T
end

# Base's order for every type: `<` is `isless` (a struct that defines
# isless compares with `<`, `<=`, `>` and `>=`), and `<=` is `<` or `==`.
@inline <(x, y) = isless(x, y)
@inline <=(x, y) = (x < y) | (x == y)

# Subtyping of types as a value (`T <: Integer` in a `where` method folds to
# a constant), through dispatch: Julia's <: is a builtin.
@inline <:(::Type{A}, ::Type{B}) where {B, A<:B} = true
@inline <:(::Type, ::Type) = false
@inline >:(a::Type, b::Type) = b <: a
