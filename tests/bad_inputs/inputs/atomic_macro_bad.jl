function f!(a::DeviceArray{Int32,1})
    @atomic a[1] *= Int32(2)
    return nothing
end
