ident(x) = x
const A = 1
const A = 1
const A = 2.0
