function a!(out::DeviceArray{Float32,1})
    s = CuStaticSharedArray(Float32, Int32(32))
    out[1] = s[1]
    return nothing
end
const M = Int32(32)
function b!(out::DeviceArray{Float32,1})
    s = CuStaticSharedArray(Float32, M)
    out[1] = s[1]
    return nothing
end
function c!(out::DeviceArray{Float32,1})
    s = CuStaticSharedArray(Float32, (M,))
    out[1] = s[1]
    return nothing
end
