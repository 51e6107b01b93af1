function f()
    i = 0
    for outer i in 1:3
    end
    return i
end
