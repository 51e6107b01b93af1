# Base functions the prelude lacks are named as such; internal helpers are
# never suggested; a function wins a tie with a local.
f1(x::Int) = mod1(x, 3)
f2(x::Int) = add_in(x, x)
function f3(x::Float64)
    sqr = 2.0
    return sqt(x) + sqr
end
