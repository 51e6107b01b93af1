# A user's number type with no promote_rule: Julia's typejoin fallback and
# the error Base's promote gives when nothing converts.
struct MyNum <: Number
    v::Int64
end
plus_one(x) = MyNum(1) + x
fused(x) = fma(MyNum(1), x, 2.0)
# At an abstract signature promotion joins to the abstract type and the
# result is Any, as in Julia (it stopped with a callable-Bottom error).
minus_one(x::Signed) = x - 1
is_zero(x::Signed) = x == 0
# Two of the same: Base's catch-alls (they called each other until the
# stack overflowed).
same_eq(a, b) = MyNum(a) == MyNum(b)
same_add(a, b) = MyNum(a) + MyNum(b)
pipi() = π^π
