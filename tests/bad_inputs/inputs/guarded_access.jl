# Only two lanes run the shared load: 2-way, not 32-way. A reversed walk
# is as coalesced as a forward one.
function guard!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    s = CuStaticSharedArray(Float32, 1024)
    @inbounds s[t] = 1.0f0
    sync_threads()
    if t <= 2
        @inbounds y[t] = s[(t - 1) * 32 + 1]
    end
    @inbounds y[t] = x[length(x) - t + 1]
    return nothing
end
