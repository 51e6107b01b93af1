# π and ℯ take the precision of the float they meet, as in Julia.
area(r::Float32) = π * r * r
each(x::Float16) = (area(2f0), 2 * pi * 1.0, x * π, exp(1f0) - ℯ, pi * pi, 3.5f0 < π)
angle(x::Float64) = sin(pi / 2) + x
itself() = (π, ℯ)
function shadowed(x::Float64)
    pi = 3.0
    return x * pi
end
function turn!(a::DeviceArray{Float32,1})
    i = threadIdx().x
    a[i] = 2f0 * π * a[i]
    return nothing
end
built(x::Float32) = x * Irrational{:ℯ}()
