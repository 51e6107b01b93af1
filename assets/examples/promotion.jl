# Promotion: mixing Float32 with an Int gives Float32, Int32 with Int gives Int,
# Int / Int gives Float64 — Julia's rules, written in the prelude in the language
# itself (promote_rule / promote_type), not special-cased in the compiler.
# Teaches: where conversions come from.
# Look at: code_typed (`invoke *(::Float32, ::Int64)` and the `sitofp` inside it),
# code_llvm (`sitofp i64 ... to float`).
# job: scale(Float32, Int) --no-kernel
# job: ratio(Int, Int) --no-kernel
# job: widen_add(Int32, Int) --no-kernel
# targets: ptx gcn native
# run: scale(1.5f0, 4)
scale(x::Float32, n::Int) = x * n
ratio(a::Int, b::Int) = a / b
widen_add(a::Int32, b::Int) = a + b
