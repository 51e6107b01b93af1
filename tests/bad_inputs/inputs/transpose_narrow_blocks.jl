# A naive transpose under blocks narrower than a warp: a 3-wide block's
# warp holds 11 rows, the last partial (it said 10).
function transpose_naive!(out::DeviceArray{Float32,2}, inp::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    j = (blockIdx().y - 1) * blockDim().y + threadIdx().y
    @inbounds out[j, i] = inp[i, j]
    return nothing
end
