# Exceptions: an out-of-bounds access throws `BoundsError`; a failed conversion
# throws `InexactError`. On a device the throw reports its kind and source line,
# then traps; on the host it fails the launch. The process survives either way.
# Teaches: where bounds checks and throw paths come from, and what they cost.
# Look at: code_llvm (the branch to the throw block and `prism_throw`), code_ptx (`trap`).
# job: shift!(DeviceArray{Float32,1})
# job: narrow(Int) --no-kernel
# targets: ptx gcn native
# run-fails: shift!(ones(Float32, 8)) --threads 8 => BoundsError
# run-fails: narrow(100000) => InexactError
function shift!(a::DeviceArray{Float32,1})
    i = threadIdx().x
    a[i] = a[i + 1]      # no @inbounds: the last thread reads a[9]
    return nothing
end

narrow(x::Int) = Int16(x)
