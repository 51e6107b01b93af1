# A linked structure: Julia stores `next` by reference; kernel structs are
# values. The error was dropped as a use of the broken type itself.
struct Node
    next::Node
    v::Int
end
k(x::Int) = x
