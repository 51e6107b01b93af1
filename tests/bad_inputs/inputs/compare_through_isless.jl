struct Pt
    x::Int
    y::Int
end
Base.isless(a::Pt, b::Pt) = isless(a.y, b.y)
lt() = (Pt(1, 5) < Pt(2, 3), Pt(1, 5) > Pt(2, 3), Pt(1, 2) >= Pt(0, 3), Pt(1, 2) <= Pt(1, 2))
struct K
    v::Int
end
Base.:<(a::K, b::K) = a.v < b.v
kk() = (K(1) <= K(1), K(3) >= K(1))
struct F
    v::Int
end
none() = F(1) < F(2)
