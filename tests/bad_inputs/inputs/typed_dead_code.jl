function thr(x::Int)
    if x < 0
        throw(DomainError(x))
    end
    return x
end
const N = 4
function cbr(x::Int)
    if N > 2
        y = x + 1
    else
        y = x - 1
    end
    return y * 2
end
