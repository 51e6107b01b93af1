function f(x)
    @assert x > 0 "positive"
    return x
end
function g(x)
    @cuprintf("x=%d\n", x)
    return x
end
function h(x)
    error("bad")
end
function k(x)
    println("hi ", x)
end
