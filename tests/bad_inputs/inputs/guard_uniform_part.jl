# `n > 0` is the same in every lane: the lanes `t <= 16` lets through
# read 16 different banks. Under `t > 16` only warp 0 is partial; the
# others run whole, at a 2-way conflict.
function d2!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1}, n::Int)
    tmp = CuStaticSharedArray(Float32, 64)
    t = threadIdx().x
    @inbounds tmp[t] = x[t]
    sync_threads()
    if n > 0 && t <= 16
        @inbounds y[t] = tmp[2t]
    end
    return nothing
end
function h1!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    tmp = CuStaticSharedArray(Float32, 2048)
    t = threadIdx().x
    @inbounds tmp[t] = x[t]
    sync_threads()
    if t > 16
        @inbounds y[t] = tmp[2t]
    end
    return nothing
end
