# Multiple dispatch and specialisation: one generic `area`, three methods; each
# call site is resolved at compile time from the argument types.
# Teaches: how dispatch picks the most specific method, and that every
# MethodInstance is compiled separately for its concrete argument types.
# Look at: code_typed (`invoke area(::Square)`), code_llvm (one function per
# specialisation of `total`), and try `total(Circle, Int32)` vs `total(Square, Float64)`.
# job: total(Square, Float64) --no-kernel
# job: total(Circle, Float32) --no-kernel
# targets: ptx gcn native
abstract type Shape end

struct Square <: Shape
    side::Float64
end

struct Circle <: Shape
    radius::Float32
end

area(s::Square) = s.side * s.side
area(c::Circle) = 3.14159f0 * c.radius * c.radius
area(s::Shape) = 0.0

scaled(x::Real, k::Real) = x * k

function total(s::Shape, k::Real)
    return scaled(area(s), k)
end
