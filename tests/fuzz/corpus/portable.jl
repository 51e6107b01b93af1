# One kernel, three machines: the same source compiled for NVIDIA (PTX), AMD
# (GCN) and the host CPU.
# Teaches: what a target decides — address spaces (PTX `ld.global` vs GCN
# `global_load_dword`), thread indices (`%tid.x` vs `v0`), kernel calling conventions.
# Look at: the Compare panel with this job on ptx vs gcn; code_native per target.
# job: axpby!(Float32, DeviceArray{Float32,1}, Float32, DeviceArray{Float32,1})
# targets: ptx gcn native
# run: axpby!(2.0f0, ones(Float32, 64), 3.0f0, ones(Float32, 64)) --threads 64
function axpby!(a::Float32, x::DeviceArray{Float32,1}, b::Float32, y::DeviceArray{Float32,1})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i <= length(y)
        @inbounds y[i] = muladd(a, x[i], b * y[i])
    end
    return nothing
end
