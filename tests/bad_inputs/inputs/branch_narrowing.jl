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
# Through `&&` and `||` in a condition, as Julia lowers them (jumps).
function andcond(x::Union{Int64,Nothing})
    if x isa Int64 && x > 0
        return x + 1
    end
    return 0
end
orcond(x::Union{Int64,Nothing}) = x === nothing || x < 0 ? 0 : x + 1
function wh(n)
    s = 0
    i = 0
    while i < n && (s < 100 || i < 2)
        i += 1
        s += i
    end
    return s
end
