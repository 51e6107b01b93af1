function u(n::Int)
    @fastmath x = n + 1
    x
end
