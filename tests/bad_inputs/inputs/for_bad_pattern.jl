function f(n::Int)
    for (1, x) in n
    end
end
