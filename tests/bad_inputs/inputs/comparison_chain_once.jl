# A comparison chain evaluates its middle operand once (it ran twice).
function cnt!(a)
    a[1] += 1
    return a[1]
end
function cw(a, x)
    c = 0
    while 0 < cnt!(a) < x
        c += 1
    end
    return c
end
function cval(a, x)
    r = 0 < cnt!(a) <= cnt!(a) < 50
    return r
end
epi() = ℯ^π
