# A shared array sized by a function that returns a constant tuple: the
# callee's PartialStruct return reaches the caller's constant propagation
# (it was "the size of a shared array must be a compile-time constant").
tile() = (4, 4)
function s2!(out::DeviceArray{Float32,1})
    a = CuStaticSharedArray(Float32, tile())
    out[1] = length(a)
    return nothing
end
function s3!(out::DeviceArray{Float32,1})
    t = tile()
    a = CuStaticSharedArray(Float32, (t[1], t[2]))
    out[1] = length(a)
    return nothing
end
