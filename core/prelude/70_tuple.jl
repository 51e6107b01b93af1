# Base, part 7: tuples.

@inline length(t::Tuple) = nfields(t)
@inline isempty(t::Tuple) = length(t) == 0
@inline getindex(t::Tuple, i::Int) = getfield(t, i)
@inline getindex(t::Tuple, i::Integer) = getfield(t, Int(i))
@inline first(t::Tuple) = getfield(t, 1)
@inline last(t::Tuple) = getfield(t, nfields(t))
@inline firstindex(t::Tuple) = 1
@inline lastindex(t::Tuple) = length(t)

