# Misspelt names: each is named, at its own place, with the nearest
# function or variable the program has.
function k!(a::DeviceArray{Float32,1})
    i = threadIdx().x
    if i <= lenght(a)
        a[i] = sqrtt(a[i])
    end
    return nothing
end

function set!(a::DeviceArray{Float32,1})
    a[1] = q
    return nothing
end
