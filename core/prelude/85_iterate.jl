# Base, part 8½: what `for x in it` walks besides ranges.
#
# Lowering turns `for x in it` into the protocol of 75_range.jl:
#     st = range_start(it)
#     while !range_done(it, st); x = range_value(it, st); body; st = range_next(it, st); end
# (Julia's `iterate`, without its Union{Nothing, Tuple} result).

# Julia's Base.OneTo: 1, 2, ..., stop, what eachindex and axes give.
struct OneTo{T<:Integer}
    stop::T
end
@inline range_start(r::OneTo) = one(r.stop)
@inline range_done(r::OneTo, i) = i > r.stop
@inline range_value(r::OneTo, i) = i
@inline range_next(r::OneTo, i) = i + one(i)
@inline length(r::OneTo) = r.stop
@inline first(r::OneTo) = one(r.stop)
@inline last(r::OneTo) = r.stop

@inline eachindex(a::DeviceArray) = OneTo(length(a))
@inline eachindex(t::Tuple) = OneTo(length(t))
@inline axes(a::DeviceArray, d::Integer) = OneTo(size(a, d))

# An array's elements in memory order, as Julia's iterate (unchecked: the
# index never leaves the array).
@inline range_start(a::DeviceArray) = 1
@inline range_done(a::DeviceArray, i) = i > length(a)
@inline range_value(a::DeviceArray, i) = @inbounds a[i]
@inline range_next(a::DeviceArray, i) = i + 1

# A tuple's elements; they must share one type (a loop variable has one).
@inline range_start(t::Tuple) = 1
@inline range_done(t::Tuple, i) = i > length(t)
@inline range_value(t::Tuple, i) = t[i]
@inline range_next(t::Tuple, i) = i + 1

# A number is a collection of one element, as in Julia (`for x in 5`).
@inline range_start(x::Number) = false
@inline range_done(x::Number, st) = st
@inline range_value(x::Number, st) = x
@inline range_next(x::Number, st) = true

# Julia's enumerate and zip (of two): tuples of what their iterables give,
# taken apart by `for (i, x) in enumerate(a)`. zip stops at the shorter.
struct Enumerate{I}
    itr::I
end
@inline enumerate(itr) = Enumerate(itr)
@inline range_start(e::Enumerate) = (1, range_start(e.itr))
@inline range_done(e::Enumerate, st) = range_done(e.itr, st[2])
@inline range_value(e::Enumerate, st) = (st[1], range_value(e.itr, st[2]))
@inline range_next(e::Enumerate, st) = (st[1] + 1, range_next(e.itr, st[2]))

struct Zip2{A,B}
    a::A
    b::B
end
@inline zip(a, b) = Zip2(a, b)
@inline range_start(z::Zip2) = (range_start(z.a), range_start(z.b))
@inline range_done(z::Zip2, st) = range_done(z.a, st[1]) || range_done(z.b, st[2])
@inline range_value(z::Zip2, st) = (range_value(z.a, st[1]), range_value(z.b, st[2]))
@inline range_next(z::Zip2, st) = (range_next(z.a, st[1]), range_next(z.b, st[2]))

# Julia's `in` of an array or a tuple of one element type, of any length
# (`==` against each element, stopping at the first match; a mixed tuple
# goes element by element through `tail`, up to 16), and `∉`, its negation.
@inline function any_equal(x, itr)
    for y in itr
        if y == x
            return true
        end
    end
    return false
end
@inline in(x, a::DeviceArray) = any_equal(x, a)
@inline in(x, t::NTuple{N,T}) where {N,T} = any_equal(x, t)
@inline ∉(x, itr) = !in(x, itr)
