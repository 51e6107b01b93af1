x31() = throw(3)
x5() = throw(3.5)
x6(b) = b ? throw(true) : 1
x7() = throw(Int8(-3))
