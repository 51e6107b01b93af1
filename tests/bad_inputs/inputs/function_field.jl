# `threadIdx.x`: the call's parentheses forgotten (CUDA C's threadIdx.x).
function k!(a::DeviceArray{Float32,1})
    i = threadIdx.x
    a[i] = 1f0
    return nothing
end
