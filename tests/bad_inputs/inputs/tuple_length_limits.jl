struct Vec{N,T}
    d::NTuple{N,T}
end
v1() = Vec{3,Float32}((1, 2))
cnt(t::Tuple{}) = 0
cnt(t::Tuple) = 1 + cnt(Base.tail(t))
r2() = cnt((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17))
