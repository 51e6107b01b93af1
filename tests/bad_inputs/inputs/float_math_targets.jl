# Transcendentals a backend cannot select: Float64 on gcn (no ROCm device
# library) is a diagnostic at the user's call; Float16 on ptx computes in
# Float32 through libdevice.
function dbl!(x::DeviceArray{Float64,1})
    i = threadIdx().x
    @inbounds x[i] = sin(x[i])
    return nothing
end
function dblpow!(x::DeviceArray{Float64,1})
    @inbounds x[1] = x[1]^x[2]
    return nothing
end
function half!(x::DeviceArray{Float16,1})
    @inbounds x[1] = exp(x[1])
    return nothing
end
