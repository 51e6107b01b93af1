# A generic kernel: the function to apply is an argument, resolved at compile time.
# Teaches: a function argument resolved at compile time (specialisation on typeof(f)).
# Look at: code_typed (`f(x[i])` becomes `invoke square(::Float32)`), code_llvm (no call left).
# job: map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})
# job: map!(typeof(halve), DeviceArray{Int32,1}, DeviceArray{Int32,1})
# targets: ptx gcn native
# run: map!(square, zeros(Float32, 8), collect(Float32, 1:8)) --threads 8
square(x) = x * x
halve(x::AbstractFloat) = x / 2
halve(x::Integer) = x ÷ 2

function map!(f, out::DeviceArray{T,1}, x::DeviceArray{T,1}) where {T}
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i <= length(out)
        out[i] = f(x[i])
    end
    return nothing
end
