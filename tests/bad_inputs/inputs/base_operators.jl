import Base: +
struct V2
    x::Float32
    y::Float32
end
Base.:+(a::V2, b::V2) = V2(a.x + b.x, a.y + b.y)
function Base.:*(a::V2, s::Float32)
    return V2(a.x * s, a.y * s)
end
Base.zero(::Type{V2}) = V2(0f0, 0f0)
f(a::V2) = (a + a) * 2f0
