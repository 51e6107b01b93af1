# A function that returns a struct (RunCliTest): `prism run` shows it as
# Julia would, `Tagged{Tuple{Int64, Bool}}(Vec2(1.5f0, -1.5f0), (3, true))`.
struct Vec2
    x::Float32
    y::Float32
end

struct Tagged{T}
    v::Vec2
    tag::T
end

tag(a::Float32, n::Int) = Tagged(Vec2(a, -a), (n, n > 0))
