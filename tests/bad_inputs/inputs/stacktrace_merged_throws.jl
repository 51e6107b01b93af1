# Two throws of one inlined callee merge under optimisation: the error
# still names `ld` at its line, put back as the innermost user frame.
ld(a, i) = a[i]
function top(a::DeviceArray{Float32,1}, i::Int)
    x = ld(a, i)
    y = ld(a, i + 1)
    return x + y
end
