@noinline function r(n::Int)
    s = CuStaticSharedArray(Int32, 2)
    s[1] = Int32(n)
    n == 0 && return s[1]
    return r(n - 1)
end
function k2!(a::DeviceArray{Int32,1})
    a[1] = r(3) + r(2)
    return nothing
end
