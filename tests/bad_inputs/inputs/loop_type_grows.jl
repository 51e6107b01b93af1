# A loop that nests its variable in itself: its type grows each time
# around, and inference never finished.
function m4(n::Int)
    t = (1,)
    for i in 1:n
        t = (t, i)
    end
    return t
end
