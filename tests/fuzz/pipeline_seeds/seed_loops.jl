function s(n::Int64)
    t = 0
    for i in 1:n
        i == 3 && continue
        i > 7 && break
        t += i
    end
    while t > 100
        t -= 7
    end
    return t
end
k(t::Tuple{Int64,Float32}) = t[1] + t[2]
