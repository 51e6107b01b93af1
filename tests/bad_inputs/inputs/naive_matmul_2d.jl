# naive vs tiled matmul (column-major, coalesced tiled)
function mm_naive!(C::DeviceArray{Float32,2}, A::DeviceArray{Float32,2}, B::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    j = (blockIdx().y - 1) * blockDim().y + threadIdx().y
    n = size(A, 1)
    if i <= n && j <= n
        acc = 0.0f0
        for k in 1:n
            @inbounds acc += A[i, k] * B[k, j]
        end
        @inbounds C[i, j] = acc
    end
    return nothing
end

function mm_tiled!(C::DeviceArray{Float32,2}, A::DeviceArray{Float32,2}, B::DeviceArray{Float32,2})
    TILE = 16
    As = CuStaticSharedArray(Float32, 256)
    Bs = CuStaticSharedArray(Float32, 256)
    tx = threadIdx().x
    ty = threadIdx().y
    row = (blockIdx().x - 1) * TILE + tx
    col = (blockIdx().y - 1) * TILE + ty
    n = size(A, 1)
    acc = 0.0f0
    for t in 0:(n ÷ TILE - 1)
        @inbounds As[(ty - 1) * TILE + tx] = A[row, t * TILE + ty]
        @inbounds Bs[(ty - 1) * TILE + tx] = B[t * TILE + tx, col]
        sync_threads()
        for k in 1:TILE
            @inbounds acc += As[(k - 1) * TILE + tx] * Bs[(ty - 1) * TILE + k]
        end
        sync_threads()
    end
    @inbounds C[row, col] = acc
    return nothing
end
