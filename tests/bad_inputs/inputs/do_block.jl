function h(a::DeviceArray{Float32,1})
    map(a) do x
        x + 1
    end
    return nothing
end
function k(a::DeviceArray{Float32,1})
    return nothing
end
