# Julia operators the kernel language reads as Julia does.
root(x::Float64) = √x + √4.0^2
not_identical(a, b) = a ≢ b
function total(a::DeviceArray{Float32,1})
    t = 0f0
    @simd for i in 1:length(a)
        @inbounds t += a[i]
    end
    t
end
