module M
f(x::Int) = x
end
