function f(x::Int)
    try
        return x
    catch
        return 0
    end
end
