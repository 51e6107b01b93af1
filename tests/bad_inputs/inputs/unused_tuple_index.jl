# A tuple read out of range throws even when its value is unused (Julia's
# getfield is not removed as dead code).
function d8(x::Int)
    t = (1, 2, 3)
    t[x]
    return 6
end
mm(x::Int, y::Float64) = minmax(x, y)
