# Two structs that name each other: the first names one not yet defined;
# the second's error follows from the first and is not repeated.
struct A
    b::B
end
struct B
    a::A
end
k(x::Int) = x
