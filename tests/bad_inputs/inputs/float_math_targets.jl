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
# exp2, log2 and log10 are LLVM intrinsics (gcn: Float32 and Float16 only);
# tan and atan exist only in a C library or libdevice, so never on gcn.
function dblexp2!(x::DeviceArray{Float64,1})
    @inbounds x[1] = exp2(x[1]) + log10(x[2])
    return nothing
end
function tan32!(x::DeviceArray{Float32,1})
    @inbounds x[1] = atan(x[1]) + tan(x[2]) + exp2(x[3]) + log2(x[4])
    return nothing
end
function halfmore!(x::DeviceArray{Float16,1})
    @inbounds x[1] = tan(x[1]) + atan(x[2]) + exp2(x[3]) + log10(x[4])
    return nothing
end
mixed(x::Float32) = tan(x) + atan(x) + exp2(x) + log2(x) + log10(x)
