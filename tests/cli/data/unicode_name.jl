# A function named with a non-ASCII letter (LLVM quotes and escapes it).
σ(x::Float32) = x * x
