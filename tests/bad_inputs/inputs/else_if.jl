# `else if` on one line: Julia's error, and no errors after it.
function k!(a::DeviceArray{Float32,1})
    i = threadIdx().x
    if i > 1
        a[i] = 1f0
    else if i == 1
        a[i] = 2f0
    end
    return nothing
end
