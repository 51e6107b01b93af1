const N = 3
struct S
    t::NTuple{N,Int}
end
f(x::Int) = S((x, x, x)).t[2]
