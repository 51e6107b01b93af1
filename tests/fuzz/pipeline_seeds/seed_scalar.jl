struct P2
    x::Int32
    y::Float64
end
f(p::P2) = p.x * 2 + p.y
g(a::Int64, b::UInt8) = a >> b + div(a, Int64(b) + 1)
h(x::Float32) = x < 0 ? sqrt(-x) : Float32(x)^2
