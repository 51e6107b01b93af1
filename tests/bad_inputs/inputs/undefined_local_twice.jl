# A local assigned on one path only, in a function small enough to inline,
# called twice in a loop: the second call must throw UndefVarError rather
# than see the value the first call left behind.
function pick(c)
    if c
        v = 7
    end
    return v
end

function twice()
    s = 0
    for i in 1:2
        s += pick(i == 1)
    end
    return s
end
