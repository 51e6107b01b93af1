# Julia's scopes: a loop body is a scope, so names first assigned in it, and
# the loop variable, do not exist after the loop.
function after(n::Int)
    for i in 1:n
        lst = i * 2
    end
    return lst
end
function index_after(n::Int)
    for i in 1:n
    end
    return i
end
# The loop's `i` is new: the function's `i` keeps its value.
function shadowed(n::Int)
    i = 100
    s = 0
    for i in 1:n
        s += i
    end
    return i
end
