function f(a::DeviceArray{Float32,1})
    for outer x in a
    end
end
