# A loop range with a zero step: Julia's StepRange throws ArgumentError.
function every(s::Int)
    t = 0
    for i in 1:s:10
        t += i
    end
    return t
end
