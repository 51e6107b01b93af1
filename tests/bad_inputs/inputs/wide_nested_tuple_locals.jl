function f(x::Int)
    a0 = x
    a1 = (a0, a0, a0, a0, a0, a0, a0, a0)
    a2 = (a1, a1, a1, a1, a1, a1, a1, a1)
    a3 = (a2, a2, a2, a2, a2, a2, a2, a2)
    a4 = (a3, a3, a3, a3, a3, a3, a3, a3)
    a5 = (a4, a4, a4, a4, a4, a4, a4, a4)
    a6 = (a5, a5, a5, a5, a5, a5, a5, a5)
    a7 = (a6, a6, a6, a6, a6, a6, a6, a6)
    a8 = (a7, a7, a7, a7, a7, a7, a7, a7)
    a9 = (a8, a8, a8, a8, a8, a8, a8, a8)
    a10 = (a9, a9, a9, a9, a9, a9, a9, a9)
    a11 = (a10, a10, a10, a10, a10, a10, a10, a10)
    return a11[1][1][1][1][1][1][1][1][1][1][1]
end
