# A 2-d stencil without --threads: a warp is 32 threadIdx().x of one row,
# and with the columns taken to start sectors every offset load is placed
# (all were called aligned).
function st!(out::DeviceArray{Float32,2}, a::DeviceArray{Float32,2})
    i = threadIdx().x
    j = threadIdx().y
    @inbounds out[i, j] = a[i + 1, j + 1] + a[i, j + 1] + a[i + 2, j]
    return
end
