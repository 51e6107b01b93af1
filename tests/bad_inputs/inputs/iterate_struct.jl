struct P
    x::Int
end
function st(n::Int)
    c = 0
    for v in P(n)
        c += 1
    end
    return c
end
