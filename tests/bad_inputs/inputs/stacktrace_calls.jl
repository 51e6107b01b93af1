# A throw two @noinline calls deep: the error names `inner`, and the
# stacktrace lists inner, middle and outer at their lines.
@noinline function inner(x::Float64)
    return Int32(x)
end
@noinline function middle(x::Float64)
    return inner(x) + Int32(1)
end
function outer(x::Float64)
    return middle(x * 2.0)
end
