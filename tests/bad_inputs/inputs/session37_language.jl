# An optional argument before a required one (the rest of the language is
# in session37_language_ok.jl).
f(a, b = 1) = a
g(x, y = 2, z) = x
