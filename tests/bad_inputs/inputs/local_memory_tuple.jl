function bigtuple!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    t = (x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15], x[16],
         x[17], x[18], x[19], x[20], x[21], x[22], x[23], x[24], x[25], x[26], x[27], x[28], x[29], x[30], x[31], x[32])
    k = (i - 1) % 32 + 1
    @inbounds y[i] = t[k]
    return nothing
end

function manyacc!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1}, n::Int)
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    a1 = 0.0f0; a2 = 0.0f0; a3 = 0.0f0; a4 = 0.0f0; a5 = 0.0f0; a6 = 0.0f0; a7 = 0.0f0; a8 = 0.0f0
    b1 = 0.0f0; b2 = 0.0f0; b3 = 0.0f0; b4 = 0.0f0; b5 = 0.0f0; b6 = 0.0f0; b7 = 0.0f0; b8 = 0.0f0
    for k in 1:n
        @inbounds v = x[k]
        a1 += v * 1.1f0; a2 += v * 1.2f0; a3 += v * 1.3f0; a4 += v * 1.4f0
        a5 += v * 1.5f0; a6 += v * 1.6f0; a7 += v * 1.7f0; a8 += v * 1.8f0
        b1 += a1 * v; b2 += a2 * v; b3 += a3 * v; b4 += a4 * v
        b5 += a5 * v; b6 += a6 * v; b7 += a7 * v; b8 += a8 * v
    end
    @inbounds y[i] = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + b1 + b2 + b3 + b4 + b5 + b6 + b7 + b8
    return nothing
end
