# A Real type with no `rem` of its own: the prelude's rem promotes its
# arguments and calls rem again, forever (as Julia's does). The recursion is
# all prelude code; the error is placed at the user's call, which the
# outermost frames hold.
struct N2 <: Real
    v::Float64
end
f(a::N2) = rem(a, a)
