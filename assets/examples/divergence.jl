# Branch divergence: the same block-wide sum written two ways.
# Teaches: a warp's 32 threads share one instruction stream; a branch they
# disagree on runs both sides, one after the other, with the others idle.
# Look at: remarks --pass prism-divergence --threads 256 (interleaved: every warp
# diverges on rounds 1-5, the even ones on some of 6-8; sequential: warp 0, last 5).
# job: sum_interleaved!(DeviceArray{Float32,1}, DeviceArray{Float32,1})
# job: sum_sequential!(DeviceArray{Float32,1}, DeviceArray{Float32,1})
# targets: ptx gcn native
# run: sum_interleaved!(zeros(Float32, 4), ones(Float32, 1000)) --blocks 4 --threads 256
# run: sum_sequential!(zeros(Float32, 4), ones(Float32, 1000)) --blocks 4 --threads 256

# Round r adds neighbours 2^(r-1) apart; the threads that work are every
# 2^r-th: some threads of every warp, until the stride passes 32.
function sum_interleaved!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    tmp = CuStaticSharedArray(Float32, 256)
    t = threadIdx().x
    i = (blockIdx().x - 1) * blockDim().x + t
    tmp[t] = i <= length(x) ? x[i] : 0.0f0
    sync_threads()
    s = 1
    while s < blockDim().x
        if (t - 1) % (2 * s) == 0
            tmp[t] += tmp[t + s]
        end
        sync_threads()
        s *= 2
    end
    if t == 1
        out[blockIdx().x] = tmp[1]
    end
    return
end

# The same sum with the working threads packed at the front: whole warps
# work or idle together until fewer than 32 threads are left.
function sum_sequential!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
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
