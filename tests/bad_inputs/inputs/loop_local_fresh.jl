# A loop body's own local is new in each iteration, as in Julia: the
# second iteration reads `x` before assigning it (UndefVarError), it does
# not see the first iteration's 10.
function f(n)
    s = 0
    for i in 1:n
        if i == 1
            x = 10
        end
        s += x
    end
    return s
end

# Assigned first in every iteration: no NewvarNode, no check.
function g(n)
    s = 0
    for i in 1:n
        y = i * 2
        s += y
    end
    return s
end
