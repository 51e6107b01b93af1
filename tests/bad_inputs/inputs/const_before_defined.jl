ident(x) = x
const A = B + 1
const B = 2
