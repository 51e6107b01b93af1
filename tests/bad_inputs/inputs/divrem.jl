# divrem and fldmod: truncated and floored quotient with their remainders,
# promoted as Julia promotes (Int32 and Int64 give Int64s).
both(a::Int32, b::Int) = (divrem(a, b), fldmod(a, b))
