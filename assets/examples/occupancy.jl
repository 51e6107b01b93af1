# Occupancy: how many blocks an SM keeps resident, and what stops more.
# Teaches: a block's shared memory against the SM's (33 KiB a block: 4 blocks on an A100, 6 on an H100).
# Look at: report --target ptx (the occupancy table) with --arch sm_80, sm_86, sm_90; report --target gcn (one workgroup in an AMD CU's 64 KiB of LDS); the GUI's Stats ▸ Resources.
# job: chunk_sums!(DeviceArray{Float32,1}, DeviceArray{Float32,1})
# targets: ptx gcn native
# run: chunk_sums!(zeros(Float32, 512), collect(Float32, 1:16384)) --blocks 2 --threads 256
# Each thread sums 32 consecutive elements. Reading them straight from global
# memory would make each warp touch 32 cache lines per step; instead the block
# loads its 8192 elements coalesced (neighbouring threads, neighbouring
# elements) into shared memory, then each thread reads its own 32 from there.
# Rows are padded to 33 so that a warp's 32 threads hit 32 different banks.
function chunk_sums!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    tile = CuStaticSharedArray(Float32, 8448)   # 256 rows of 33: 33 KiB
    t = threadIdx().x
    base = (blockIdx().x - 1) * 8192
    for k in 0:31
        j = k * 256 + t - 1                     # 0-based element of the block's chunk
        v = base + j < length(x) ? x[base + j + 1] : 0.0f0
        tile[(j ÷ 32) * 33 + j % 32 + 1] = v
    end
    sync_threads()
    s = 0.0f0
    for k in 1:32
        s += tile[(t - 1) * 33 + k]
    end
    out[(blockIdx().x - 1) * 256 + t] = s
    return
end
