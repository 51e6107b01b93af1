function f(x)
    y = let a = x, b = a + 1
        a * b
    end
    return y
end
function g(x)
    s = 0
    for i in 1:3
        local t = i * x
        s += t
    end
    return s
end
function h(x)
    let x = x + 1
        x *= 2
    end
    return x
end
function k(n)
    acc = 0
    for i in 1:n
        let j
            if i > 1
                j = i
            else
                j = 0
            end
            acc += j
        end
    end
    return acc
end
function sh(x)
    t = 10
    for i in 1:2
        local t = i
    end
    return t
end
function k8(t::Tuple{Int,Int})
    local a, b = t
    return b
end
const b = 100
function cb(x::Int)
    let a = b = x
        return a + b
    end
end
function sp1(x::T) where T
    local y
    let T = 3
        T = 2
        y = T
    end
    return y
end
function y4(a::DeviceArray{Int,1}, i::Int)
    return a[let j = i
        j
    end]
end
function s4(n::Int)
    x = 1
    local x += 1
    return x
end
