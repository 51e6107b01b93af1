f(a::DeviceArray, b::DeviceArray) = 1
struct P{T}
  x::T
end
g(a::P, b::P) = 2
h(a::Int) = g(P(a), P(1.0))
