# A function is a value: returned, it shows by name, as in Julia.
const g = sin
square(x) = x * x
ident(f) = f
pair() = (square, 1)
