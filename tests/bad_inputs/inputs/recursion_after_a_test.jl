function deep(a, n)
    if n == 0
        return 0
    end
    x = deep(a, n - 1)
    return x + a[1]
end
