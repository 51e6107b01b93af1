# Numeric literal coefficients, as in Julia: `2x^2` is `2 * x^2` and
# `1/2x` is `1/(2x)`.
circumference(r::Float64) = 2π * r
g(x::Float64) = 2x^2 + 3(x + 1) - 1/2x
