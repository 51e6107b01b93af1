# Reflection at abstract signatures: what inference may claim when the
# argument types are only known to be within an abstract type.
k(x::T, y::T) where {T} = 1
k(x, y) = 2.0
ck(x::Int64, y::Real) = k(x, y)
m(x::T) where {T<:Integer} = 1
m(x) = 2.0
cm(x::Real) = m(x)
isI(x::T) where {T<:Real} = T === Int64
callI(x::Real) = isI(x)
struct W{T}
    x::T
end
struct R{T<:Real}
    v::T
end
w2(x::W) = x.x
r1(x::R) = x.v
b(x::T, y::T) where {T} = 1
b(x::Int64, y) = 2
