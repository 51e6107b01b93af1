# Block-wide sum in shared memory; one partial sum per block.
# Teaches: shared memory and `sync_threads` (a block-wide tree reduction).
# Look at: code_llvm (the `addrspace(3)` global), code_ptx (`bar.sync 0`).
# job: block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})
# targets: ptx gcn native
# run: block_sum!(zeros(Float32, 4), ones(Float32, 1000)) --blocks 4 --threads 256
function block_sum!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    tmp = CuStaticSharedArray(Float32, 256)
    t = threadIdx().x
    i = (blockIdx().x - 1) * blockDim().x + t
    tmp[t] = i <= length(x) ? x[i] : 0.0f0
    sync_threads()
    s = blockDim().x ÷ 2
    while s > 0
        if t <= s
            tmp[t] += tmp[t + s]
        end
        sync_threads()
        s ÷= 2
    end
    if t == 1
        out[blockIdx().x] = tmp[1]
    end
    return
end
