function six(a::UInt64, b::UInt64, c::UInt64,
 d::UInt64, e::UInt64, f::UInt64)
 return a + b + c + d + e + f
end
