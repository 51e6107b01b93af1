function f(x::Int)
    a = foo(x)
    b = bar(x)
    return a + b + baz
end
