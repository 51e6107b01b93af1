# Inlining: `@inline` helpers disappear into their caller, `@noinline` ones stay
# separate functions (a `call` in LLVM IR, `call.uni` in PTX).
# Teaches: what inlining does to the code and to the line tables (hover a line of
# the inlined `clamp01` in the asm: its source line and the call site both light up).
# Look at: code_llvm (`julia_kept_...` is still called), remarks --pass typed-inline (Julia's inliner).
# job: inline_demo(DeviceArray{Float32,1})
# targets: ptx gcn native
# run: inline_demo(collect(Float32, 1:8)) --threads 8
@inline clamp01(x::Float32) = x < 0.0f0 ? 0.0f0 : (x > 1.0f0 ? 1.0f0 : x)

@noinline function kept(x::Float32)
    return x * 0.5f0 + 0.25f0
end

function inline_demo(a::DeviceArray{Float32,1})
    i = threadIdx().x
    if i <= length(a)
        @inbounds a[i] = kept(clamp01(a[i] / 8.0f0))
    end
    return nothing
end
