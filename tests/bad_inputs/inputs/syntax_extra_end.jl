f(x::Int) = x
end
