# A write just outside an array, under @inbounds (it crashed the host).
function w(a::DeviceArray{Int8,1}, j::Int64)
    @inbounds a[j] = Int8(-2)
    return nothing
end
