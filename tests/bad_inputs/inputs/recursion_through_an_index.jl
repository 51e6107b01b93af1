function rec(a::DeviceArray{Int,1}, n::Int)
    if n == 0
        return 0
    end
    y = rec(a, n + a[1])
    return y * n + a[2]
end
