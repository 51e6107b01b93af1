function f(x::Int)
    @foo x
end
