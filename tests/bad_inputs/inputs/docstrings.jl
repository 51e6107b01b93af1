"""
    area(r)

The area of a circle of radius `r`. A docstring, as copied Julia code has
them: it documents nothing in a kernel, so Prism skips it.
"""
area(r::Float64) = π * r^2

"A one-line docstring."
function perimeter(r::Float64)
    return 2 * π * r
end
