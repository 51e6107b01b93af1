# Structs and tuples: immutable values live in registers; scalar replacement of
# aggregates (SROA) takes them apart, so no memory is left for them.
# Teaches: zero-cost abstractions, and what `(a, b) = t` compiles to.
# Look at: code_llvm raw (`insertvalue`/`extractvalue` and allocas) vs optimised
# (plain float arithmetic), pipeline (SROAPass).
# job: rotate!(DeviceArray{Float32,1}, DeviceArray{Float32,1}, Float32, Float32)
# targets: ptx gcn native
# run: rotate!(Float32[1.0, 0.0], Float32[0.0, 1.0], 0.0f0, 1.0f0) --threads 2
struct Vec2
    x::Float32
    y::Float32
end

plus(a::Vec2, b::Vec2) = Vec2(a.x + b.x, a.y + b.y)
times(a::Vec2, k::Float32) = Vec2(a.x * k, a.y * k)

function rotate(v::Vec2, c::Float32, s::Float32)
    x, y = (v.x * c - v.y * s, v.x * s + v.y * c)
    return Vec2(x, y)
end

function rotate!(xs::DeviceArray{Float32,1}, ys::DeviceArray{Float32,1}, c::Float32, s::Float32)
    i = threadIdx().x
    if i <= length(xs)
        v = rotate(plus(Vec2(xs[i], ys[i]), times(Vec2(0.0f0, 0.0f0), 2.0f0)), c, s)
        xs[i] = v.x
        ys[i] = v.y
    end
    return nothing
end
