function bad(x)
    local x = 1
    return x
end
