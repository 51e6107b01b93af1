function g(x) x + 1 end
function h(x)::Int8 x * 2 end
function w(x::T) where {T} x * 3 end
function neg(x) -x end
