k1(x::T) where {T} = T <: Integer ? 1 : 2
sub() = (Int64 <: Signed, Float64 <: Signed, Signed >: Int8, Union{} <: Int)
j5(x) = (x isa AbstractVector, x isa AbstractVector{Float32}, x isa CuDeviceVector{Float64}, x isa DeviceArray{Float32})
struct W{T<:Integer}
    x::T
end
a3() = W{Float64}(1.0)
