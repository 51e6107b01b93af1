# A local assigned a constant on one path only. Inference knows its value
# where it is defined; the optimiser must still keep the read that throws
# UndefVarError on the other path, whether the value is stored, passed to
# an inlined call or returned.
function stored(x::Int)
    if x > 0
        y = 1
    end
    z = y
    return z
end

function added(x::Int)
    if x > 0
        y = 1
    end
    return y + x
end
