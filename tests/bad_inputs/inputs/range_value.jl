function f(n::Int)
    r = 1:2:n
    1
end
