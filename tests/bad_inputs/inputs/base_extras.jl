# Base functions beyond LANGUAGE.md's prelude.
m3(a::Int, b::Float64, c::Int32) = (min(a, b, c), max(a, b, c), min(4, 3, 2, 1), max(1f0, 2f0, NaN32, 0f0))
a2(x::Float32, n::Int) = (abs2(x), abs2(n))
fm() = (floatmax(Float32), floatmin(Float64), floatmax(1.0), floatmax(Float16))
ie(x::Float64) = (isequal(x, x), isequal(0.0, -0.0), isequal(1, 1.0), isequal(NaN32, NaN))
ri(x::Float32) = (reinterpret(UInt32, x), reinterpret(Float64, 0x3ff0000000000000), reinterpret(Int8, 0xff))
