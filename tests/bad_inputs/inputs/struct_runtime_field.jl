# A struct's field at a run-time index: every field is Int64, so
# getfield(p, i) is one (codegen stopped with an internal error).
struct P2
    a::Int64
    b::Int64
end
field_at(i) = getfield(P2(10, 20), i)
