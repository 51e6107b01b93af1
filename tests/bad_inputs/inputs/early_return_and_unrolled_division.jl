# An early return splits a warp into threads that leave and threads that
# run the rest; a division in a loop that LLVM unrolls keeps a copy in the
# epilogue, outside the loop, which is the loop's division still.
function k4!(out::DeviceArray{Float32,1}, a::DeviceArray{Float32,1})
    i = threadIdx().x
    if i % 2 == 0
        return
    end
    @inbounds out[i] = sin(a[i])
    return
end
function k3!(out::DeviceArray{Float32,1}, a::DeviceArray{Float32,1}, i::Int)
    s = 0.0f0
    for k in 1:length(a)
        @inbounds s += a[k] * Float32(k ÷ i)
    end
    out[1] = s
    return
end
