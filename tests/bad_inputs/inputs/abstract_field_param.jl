# A parametric struct applied to an abstract type: its field would not be
# concrete, in a body as in a signature.
struct W{T}
    x::T
end
g(x::Int) = W{Real}(x).x
h(x::Int) = W{Int}(x).x
