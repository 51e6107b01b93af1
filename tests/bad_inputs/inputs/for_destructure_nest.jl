function en(a::DeviceArray{Float32,1})
    t = 0f0
    for (i, x) in enumerate(a)
        t += i * x
    end
    return t
end
function zz(a::DeviceArray{Float32,1}, b::DeviceArray{Float32,1})
    t = 0f0
    for (x, y) in zip(a, b)
        t += x * y
    end
    return t
end
function nest(n::Int)
    c = 0
    for i in 1:n, j in 1:i
        c += j
    end
    return c
end
function brk(n::Int)
    c = 0
    for i in 1:n, j in 1:n
        if i * j > 6
            break
        end
        c += 1
    end
    return c
end
function cont(n::Int)
    c = 0
    for i in 1:n, j in 1:n
        j == 2 && continue
        c += 10i + j
    end
    return c
end
