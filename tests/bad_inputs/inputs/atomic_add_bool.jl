# atomic_add! of a Bool: no method (a GPU adds Int32/Int64/UInt32/UInt64
# and floats atomically); it was IR the LLVM verifier rejected at <signature>.
function ak!(a::DeviceArray{Bool,1})
    atomic_add!(a, 1, true)
    return nothing
end
function ok!(a::DeviceArray{Float32,1})
    atomic_add!(a, 1, 2)
    return nothing
end
