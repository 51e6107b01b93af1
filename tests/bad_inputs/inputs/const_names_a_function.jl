# A name cannot be both a function and a constant, as in Julia.
g() = 1
const g = 2
f() = g
