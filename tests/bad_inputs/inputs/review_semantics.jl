# From the review: a struct whose fields do not decide its parameter has
# no Tg(n) constructor (Julia: MethodError), a Bool power, and an -O0
# throw placed at the user's line.
struct Tg{T}
    x::Int64
end
f(n::Int64) = Tg(n).x
g(n::Int64) = Tg{Float32}(n).x
p1(x::Int64, b::Bool) = x^b
p2(x::Float32, b::Bool) = x^b
function h(x::Int64)
    y = x + 1
    return UInt8(y)
end
w(x) = x[1] * 0.25
