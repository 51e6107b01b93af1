# Base, part 7½: step ranges, as `for i in a:s:b` iterates them.
#
# Lowering turns the loop into
#     r = steprange(a, s, b); st = range_start(r)
#     while !range_done(r, st); i = range_value(r, st); body; st = range_next(r, st); end
# (Julia's `iterate` protocol, without a Union{Nothing, Tuple} result).
# Integer ranges are Julia's StepRange: the loop stops at the last element
# instead of testing `i <= b`, which would wrap around at typemax. Float
# ranges are Julia's StepRangeLen: the length is computed once and each
# element from its index, so that `0.1:0.1:0.3` has 3 elements, the last
# exactly 0.3, instead of summing a rounded step.

# Julia's StepRange{T,S}: `stop` is the last element the range reaches.
struct StepRange{T,S}
    start::T
    step::S
    stop::T
end

# `a:s:b`: the ends promote to one type and an integer step keeps its own,
# so `UInt(5):-1:0` counts down in UInt64; a float anywhere makes every
# part a float (Julia's `(:)` methods).
@inline function steprange(a::Real, s::Real, b::Real)
    start, stop = promote(a, b)
    return steprange_same(start, s, stop)
end
@inline steprange_same(a::T, s::Integer, b::T) where {T<:Integer} =
    StepRange{T,typeof(s)}(a, s, steprange_last(a, s, b))
@inline steprange_same(a::T, s::AbstractFloat, b::T) where {T<:Real} = promoted_floatrange(promote(a, s, b))
@inline steprange_same(a::T, s::Real, b::T) where {T<:AbstractFloat} = promoted_floatrange(promote(a, s, b))
@inline steprange_same(a::T, s::AbstractFloat, b::T) where {T<:AbstractFloat} = promoted_floatrange(promote(a, s, b))
@inline promoted_floatrange(p) = floatrange(getfield(p, 1), getfield(p, 2), getfield(p, 3))

# Julia's steprange_last: b moved back onto the grid start + k*step, or
# a value before start when the range is empty.
@inline function steprange_last(start::T, step, stop::T) where {T}
    z = zero(step)
    step == z && throw(ArgumentError())
    if stop == start
        return stop
    end
    if (step > z) != (stop > start)
        # Empty: one step before start (Julia's steprange_last_empty).
        return step > z ? oftype(stop, start - oneunit(step)) : oftype(stop, start + oneunit(step))
    end
    if stop > start
        absdiff = stop - start
        absstep = step
    else
        absdiff = start - stop
        absstep = -step
    end
    # `stop - start` wraps for a signed range wider than half the type.
    if absdiff < zero(absdiff)
        remain = (unsigned(absdiff) % absstep) % typeof(absdiff)
    else
        remain = oftype(absdiff, absdiff % absstep)
    end
    return stop > start ? stop - remain : stop + remain
end

@inline range_isempty(r::StepRange) =
    (r.start != r.stop) & ((r.step > zero(r.step)) != (r.stop > r.start))
# The state is the current element and whether the loop has ended.
@inline range_start(r::StepRange) = (r.start, range_isempty(r))
@inline range_done(r::StepRange, st) = getfield(st, 2)
@inline range_value(r::StepRange, st) = getfield(st, 1)
@inline function range_next(r::StepRange{T}, st) where {T}
    i = getfield(st, 1)
    i == r.stop && return (i, true)
    return (oftype(i, i + r.step), false)
end

# Julia's StepRangeLen: element k is T(ref + (k - offset) * step),
# computed in Float64 (Julia's StepRangeLen{T, Float64, Float64} for
# Float32). A Float64 range of ratios of small integers (`0.1:0.1:0.3`) has
# den > 0 instead: element k is (start_n + (k-1)*step_n) / den rounded once.
# Julia computes that in twice precision, which rounds to the same value
# (it differs only in ties closer than any such range meets).
struct StepRangeLen{T}
    ref::Float64
    step::Float64
    len::Int
    offset::Int
    start_n::Int
    step_n::Int
    den::Int
end

# The state is the element's index, from 1.
@inline range_start(r::StepRangeLen) = 1
@inline range_done(r::StepRangeLen, k) = k > r.len
@inline range_next(r::StepRangeLen, k) = k + 1
@inline function range_value(r::StepRangeLen{T}, k) where {T}
    r.den > 0 && return T(Float64(r.start_n + (k - 1) * r.step_n) / Float64(r.den))
    return T(r.ref + (k - r.offset) * r.step)
end

@inline maxintfloat(::Type{Float64}) = 9007199254740992
@inline maxintfloat(::Type{Float32}) = 16777216
@inline maxintfloat(::Type{Float16}) = 2048
@inline narrow(::Type{Float64}) = Float32
@inline narrow(::Type{Float32}) = Float16
@inline narrow(::Type{Float16}) = Float16
@inline isbetween(a, x, b) = (a <= x && x <= b) || (b <= x && x <= a)

# Base's gcd for every hardware integer: Euclid's on the magnitudes, as
# unsigned so that |typemin| fits (the value is Base's binary gcd's), and
# Base's OverflowError where the gcd does not fit T.
@inline function gcd(a::T, b::T) where {T<:BitInteger}
    a == zero(T) && return checked_abs(b)
    b == zero(T) && return checked_abs(a)
    x = unsigned(abs(a))
    y = unsigned(abs(b))
    while y != zero(y)
        x, y = y, rem(x, y)
    end
    r = x % T
    signbit(r) && throw(OverflowError{:gcd, T}(a, b))
    return r
end
@inline checked_abs(x::T) where {T<:BitSigned} =
    x == typemin(T) ? throw(OverflowError{:checked_abs, T}(x, x)) : abs(x)
@inline checked_abs(x::T) where {T<:BitUnsigned} = x
@inline gcd(a::Bool, b::Bool) = a | b
@inline function gcd(x::Integer, y::Integer)
    a, b = promote(x, y)
    return gcd(a, b)
end
@inline lcm_unchecked(a::Int, b::Int) = a == 0 ? a : a * div(b, gcd(a, b))

# Julia's rat: a continued-fraction approximation n/d of x with small
# numerator and denominator (d == 0 when there is none).
@inline function rat(x::T) where {T<:AbstractFloat}
    y = x
    a = 1
    d = 1
    b = 0
    c = 0
    m = maxintfloat(narrow(T))
    while abs(y) <= m
        f = trunc(Int, y)
        y -= f
        a, c = f * a + c, a
        b, d = f * b + d, b
        max(abs(a), abs(b)) <= m || return (c, d)
        T(a) / T(b) == x && break
        y = inv(y)
    end
    return (a, b)
end

# Julia's `(:)(start::T, step::T, stop::T) where T<:IEEEFloat`.
@inline function floatrange(start::T, step::T, stop::T) where {T<:AbstractFloat}
    step == zero(T) && throw(ArgumentError())
    step_n, step_d = rat(step)
    if step_d != 0 && T(step_n / step_d) == step
        start_n, start_d = rat(start)
        stop_n, stop_d = rat(stop)
        if start_d != 0 && stop_d != 0 &&
                T(start_n / start_d) == start && T(stop_n / stop_d) == stop
            # Julia's den is negative when start or step is; element k is
            # the same with every sign flipped, except that a zero element
            # is -0.0 (0 / -den), where Julia's twice-precision sum gives 0.0.
            den = abs(lcm_unchecked(start_d, step_d))
            m = maxintfloat(T)
            if den != 0 && abs(start * den) <= m && abs(step * den) <= m &&
                    rem(den, start_d) == 0 && rem(den, step_d) == 0
                start_n = round(Int, start * den)
                step_n = round(Int, step * den)
                len = max(0, div(den * stop_n - stop_d * start_n + step_n * stop_d, step_n * stop_d))
                if isbetween(start, start + (len - 1) * step, stop + step / 2) &&
                        !isbetween(start, start + len * step, stop)
                    return ratiorange(T, start_n, step_n, len, den)
                end
            end
        end
    end
    # Start and step taken literally.
    lf = (stop - start) / step
    if lf < zero(T)
        len = 0
    elseif lf == zero(T)
        len = 1
    else
        len = round(Int, lf) + 1
        stop1 = start + (len - 1) * step
        len -= Int((start < stop && stop < stop1) + (start > stop && stop > stop1))
    end
    return StepRangeLen{T}(Float64(start), Float64(step), len, 1, 0, 0, 0)
end

@inline ratiorange(::Type{Float64}, start_n, step_n, len, den) =
    StepRangeLen{Float64}(0.0, 0.0, len, 1, start_n, step_n, den)
# Julia's floatrange for Float32 (and Float16): Float64 reference at the
# element of least magnitude.
@inline function ratiorange(::Type{T}, start_n, step_n, len, den) where {T}
    if len < 2 || step_n == 0
        return StepRangeLen{T}(start_n / den, step_n / den, len, 1, 0, 0, 0)
    end
    imin = clamp(round(Int, -start_n / step_n + 1), 1, len)
    ref_n = start_n + (imin - 1) * step_n
    return StepRangeLen{T}(ref_n / den, step_n / den, len, imin, 0, 0, 0)
end
