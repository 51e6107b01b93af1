struct V2
    x::Float32
    y::Float32
end
firstx(a::DeviceArray{V2,1}) = a[1].x
norm1(v::V2) = abs(v.x) + abs(v.y)
