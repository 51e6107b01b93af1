# Shared arrays of tuples and of a padded struct: the interpreter (the
# reference) faulted with "shared_array of a non-primitive element type".
struct Padded
    tag::Int8
    v::Float64
end
function tk!(out::DeviceArray{Float32,1})
    s = CuStaticSharedArray(Tuple{Int32,Float32}, 4)
    t = threadIdx().x
    s[t] = (t, 1.5f0 * t)
    sync_threads()
    v = s[5 - t]
    out[t] = v[1] + v[2]
    return nothing
end
function pk!(out::DeviceArray{Float64,1})
    s = CuStaticSharedArray(Padded, 4)
    t = threadIdx().x
    s[t] = Padded(Int8(t), 0.25 * t)
    sync_threads()
    p = s[5 - t]
    out[t] = p.tag + p.v
    return nothing
end
