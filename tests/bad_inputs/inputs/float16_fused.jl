# Float16 muladd and fma: the host has no half-precision FMA, so muladd is a
# rounded multiply and a rounded add; fma is Base's, through Float32.
ff(a::Float16, b::Float16, c::Float16) = (fma(a, b, c), muladd(a, b, c), a * b + c)
