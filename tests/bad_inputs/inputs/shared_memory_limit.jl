# Two static shared arrays of 32 KiB and 16 KiB + 4 bytes: the second
# crosses the 48 KiB a CUDA block may declare (ptxas rejected it, and
# report printed that only as a note with exit 0). fits! is 48 KiB.
function two!(x)
    a = CuStaticSharedArray(Float32, 8192)
    b = CuStaticSharedArray(Float32, 4097)
    t = threadIdx().x
    a[t] = x[t]
    b[t] = x[t]
    sync_threads()
    x[t] = a[33 - t] + b[t]
    return nothing
end
function fits!(x)
    a = CuStaticSharedArray(Float32, 12288)
    t = threadIdx().x
    a[t] = x[t]
    sync_threads()
    x[t] = a[33 - t]
    return nothing
end
