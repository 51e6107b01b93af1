function k!(out::DeviceArray{Float32,1})
    tile = CuStaticSharedArray(Float32, (4, 5))
    tile[1, 1] = 1f0
    out[1] = tile[1, 1]
    return nothing
end
