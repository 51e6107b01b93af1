# A Number type that promotes to itself: the prelude's fma converts its
# arguments and calls fma again, forever. The recursion is all prelude code;
# the error is placed at the user's call, which the outermost frames hold.
struct N2 <: Number
    v::Float64
end
f(a::N2) = fma(a, a, a)
