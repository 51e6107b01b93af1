# Julia's sizeof: fields laid out at multiples of their alignment.
struct Pt{T}
    x::T
    y::T
end
struct Mixed
    a::Int8
    b::Float64
    c::Int16
end
s3(x::Int) = sizeof((x, x))
s4(x::Int) = sizeof(Pt{Int32})
s5(x::Int) = (sizeof(Mixed), sizeof((Int8(1), 2.0, true)), sizeof(()), sizeof(nothing), sizeof(Pt(1f0, 2f0)), sizeof(x))
s6(a::DeviceArray{Float32,1}) = sizeof(a)
s7(x::Int) = sizeof(Real)
