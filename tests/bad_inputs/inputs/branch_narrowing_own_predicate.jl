# A program's own method of a predicate narrows nothing: only Base's
# `isnothing`, `!` and `!==` mean what narrowing assumes (this returned 7).
struct Maybe
    ok::Bool
    v::Int64
end
isnothing(m::Maybe) = !m.ok
function kmaybe(ok::Bool, v::Int64)
    m = Maybe(ok, v)
    if isnothing(m)
        return -1
    end
    return m.v
end
