ok() = 1
bad(t) = (t..., )
function bad2(x)
    @assert x > 0 "positive"
    return x
end
uses(x) = bad2(x) + 1
