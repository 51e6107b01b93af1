# A struct holding an array cannot be built in a CALL: the message says why.
struct WithArr
    a::DeviceArray{Float32,1}
    n::Int
end
arrfield(w::WithArr) = w.n
