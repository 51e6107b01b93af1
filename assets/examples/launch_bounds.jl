# Launch bounds: telling the compiler the block size lets it budget registers.
# Teaches: `.maxntid`, `.reqntid`, `.minnctapersm`, `.maxnreg` in PTX.
# Look at: code_ptx with --maxthreads 256, --minthreads 128, --maxthreads 256
# --blocks-per-sm 4, --maxregs 32; report (registers and spills as the
# budget shrinks).
# job: stencil!(DeviceArray{Float32,1}, DeviceArray{Float32,1})
# targets: ptx gcn native
# run: stencil!(zeros(Float32, 256), ones(Float32, 256)) --threads 256
function stencil!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    n = length(x)
    if i > 1 && i < n
        @inbounds out[i] = 0.25f0 * x[i - 1] + 0.5f0 * x[i] + 0.25f0 * x[i + 1]
    elseif i <= n
        @inbounds out[i] = x[i]
    end
    return nothing
end
