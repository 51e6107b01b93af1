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
# An integer power of a number type of one's own multiplies by squaring
# (Base's power_by_squaring, which needs its * and unary -); two of them
# meet Base's ^ catch-all, and Bool promotes to any number type.
struct Mod7 <: Number
    v::Int64
end
*(a::Mod7, b::Mod7) = Mod7(mod(a.v * b.v, 7))
-(a::Mod7) = Mod7(mod(-a.v, 7))
pow_mod7(x, n) = (Mod7(x)^n).v
one_mod7() = one(Mod7).v
same_pow(a, b) = MyNum(a)^MyNum(b)
bool_pow(a) = true^MyNum(a)
struct MyI <: Integer
    v::Int64
end
int_fma(a, b, c) = fma(MyI(a), MyI(b), MyI(c))
# A Bool power is x or one (power_by_squaring's loop needs trailing_zeros).
bool_powers() = (π^true, π^false, (Mod7(3)^true).v)
