function f()
    a = Int[]
    return 1
end
function g()
    a = Float32[1, 2]
    return a[1]
end
