# A read of a local that no path has assigned at that point throws
# UndefVarError when it runs, as in Julia; code that never runs it works.
function dead_branch(n)
    s = 0
    for i in 1:n
        if i > 100
            s += x      # x is this iteration's, not yet assigned
        end
        x = i
    end
    return s
end
function early(c)
    if c
        return z
    end
    z = 1
    return z
end
trunc8(x) = trunc(Int8, x)
