# atan(y, x): the angle of the point (x, y), promoted as Julia does.
angles() = (atan(1f0, -1f0), atan(-0.0, -1.0), atan(0.0, 0.0), atan(Float16(1), Float16(3)), atan(1, 2f0), atan(-1, 0))
function angles!(out::DeviceArray{Float32,1}, ys::DeviceArray{Float32,1}, xs::DeviceArray{Float32,1})
    i = threadIdx().x
    out[i] = atan(ys[i], xs[i])
    return nothing
end
