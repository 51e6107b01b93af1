asint(x::Float64) = (x::Int64) + 1
tget(t::NTuple{3,Int64}, i::Int64) = t[i]
