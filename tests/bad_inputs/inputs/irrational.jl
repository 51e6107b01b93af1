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
# Constants promote as the same code does at run time.
const TWO_PI = 2 * π
const HALF_PI32 = π / 2f0
const NEG_PI = -π
const THIRD32 = 1.0f0 / 3
consts() = (TWO_PI, HALF_PI32, NEG_PI, Float32(π), THIRD32, 2 * π == TWO_PI)
# A float compares with the exact value and never equals it.
near(x::Float32, y::Float64, h::Float16) = (x < π, π < x, y == π, y < π, h < π, y != π)
epow(x::Float64) = ℯ^x
rounding() = (round(π), floor(π), ceil(π), trunc(Int, π), zero(π), one(π))
# A CALL names constants, the program's and Base's: `scaled(Float64(π), SCALE)`.
const SCALE = 3
scaled(x::Float64, k::Int) = k * x
which(::Irrational{:π}) = 1
which(::Irrational{:ℯ}) = 2
const ELT = Float32
function sum_of(a::DeviceArray{Float32,1}, x::Float32)
    s = x
    for i in 1:length(a)
        s += a[i]
    end
    return s
end
