# Structs are immutable: assigning a field is an error of the function
# that does it; the rest of the file still runs.
struct Particle
    x::Float64
    v::Float64
end

function step!(p::Particle, dt::Float64)
    p.x += p.v * dt
    return p
end

step(p::Particle, dt::Float64) = Particle(p.x + p.v * dt, p.v)

lowest() = -9223372036854775808
