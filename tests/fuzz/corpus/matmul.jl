# Tiled matrix multiply C = A*B with 16x16 tiles in shared memory (square matrices, n % 16 == 0).
# Teaches: tiling with shared memory, registers and spills at different `--maxregs`.
# Look at: code_ptx (`ld.shared`, `bar.sync`), report (registers; try --maxregs 16).
# job: matmul!(DeviceArray{Float32,2}, DeviceArray{Float32,2}, DeviceArray{Float32,2})
# targets: ptx gcn native
# run: matmul!(zeros(Float32, 32, 32), ones(Float32, 32, 32), ones(Float32, 32, 32)) --blocks 2,2 --threads 16,16
function matmul!(C::DeviceArray{Float32,2}, A::DeviceArray{Float32,2}, B::DeviceArray{Float32,2})
    TILE = 16
    As = CuStaticSharedArray(Float32, 256)
    Bs = CuStaticSharedArray(Float32, 256)
    tx = threadIdx().x
    ty = threadIdx().y
    row = (blockIdx().y - 1) * TILE + ty
    col = (blockIdx().x - 1) * TILE + tx
    n = size(A, 1)
    acc = 0.0f0
    for t in 0:(n ÷ TILE - 1)
        @inbounds As[(tx - 1) * TILE + ty] = A[row, t * TILE + tx]
        @inbounds Bs[(tx - 1) * TILE + ty] = B[t * TILE + ty, col]
        sync_threads()
        for k in 1:TILE
            @inbounds acc += As[(k - 1) * TILE + ty] * Bs[(tx - 1) * TILE + k]
        end
        sync_threads()
    end
    @inbounds C[row, col] = acc
    return nothing
end
