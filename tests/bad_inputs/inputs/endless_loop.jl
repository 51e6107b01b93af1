# Never ends for n > 0: run --timeout reports it (the host cannot stop a thread).
function spin(n::Int)
    while n > 0
        n = n + 1 - 1
    end
    return n
end
