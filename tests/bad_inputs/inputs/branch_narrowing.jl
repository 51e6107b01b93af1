# A branch on `isa`, `===`/`!==` a singleton, or `isnothing` narrows the
# variable tested on each side, as Julia's Conditional does.
f(x::Integer) = x isa Int64 ? x + 1 : 0
h(x::Union{Int64,Nothing}) = x === nothing ? 0 : x + 1
k(x::Union{Int64,Nothing}) = x !== nothing ? x * 2 : -1
function v(n)
    y = n > 0 ? nothing : n
    if !isnothing(y)
        return y * 2
    end
    return -1
end
