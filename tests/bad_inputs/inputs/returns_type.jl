# A type is a value: passed (`zero_of(Float32)`) or returned (`eltype_of`),
# as in Julia.
const T = Int16
float_type() = Float32
zero_of(::Type{S}) where {S} = zero(S)
type_of(x) = typeof(x)
pair() = (Float32, 1)
