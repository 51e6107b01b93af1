# A Float64 literal with an exponent in Float32 code: the remark quotes it
# as Julia prints it and suggests the Float32 literal Julia reads.
function w!(y, x)
    i = threadIdx().x
    @inbounds y[i] = x[i] * 2.5e-7 + x[i]
    return nothing
end
