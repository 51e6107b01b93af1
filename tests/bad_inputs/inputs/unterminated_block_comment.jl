f(x::Int) = x
#= open comment
#= nested =#
