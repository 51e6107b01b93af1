# `for i in a:s:b` as Julia's StepRange (integers) and StepRangeLen (floats).

# How many elements a loop over the range visits, and the last one.
function walk(a, s, b)
    c = 0
    last = zero(a + s + b)
    for x in a:s:b
        c += 1
        last = x
    end
    (c, last)
end

# The next step would pass typemax/typemin: Julia stops at the last element.
integer_ends() = (walk(0x00, 0x10, 0xff), walk(Int8(120), Int8(3), Int8(127)),
                  walk(Int8(-120), Int8(-3), Int8(-128)),
                  walk(9223372036854775800, 5, typemax(Int)))

# The ends promote, an integer step keeps its type: UInt64 counting down.
unsigned_down(n::UInt) = walk(n, -1, 0)

# Each element from its index, not a sum of rounded steps.
float_ranges() = (walk(0.1, 0.1, 0.3), walk(0.0, 0.1, 1.0), walk(1.0, -0.1, 0.0),
                  walk(0f0, 0.1f0, 1f0), walk(0.0, 3.141592653589793, 100.0),
                  walk(1, 0.5, 3))

empty_and_zero(s::Int) = (walk(5, 1, 3), walk(1, s, 10))

# Squares summed, so every element counts. A negative start or step makes
# Julia's common denominator negative; such ranges read back as all zeros.
function sumsq(a, s, b)
    q = 0.0
    for x in a:s:b
        q += x * x
    end
    q
end
signed_ranges() = (sumsq(-0.5, 0.25, 0.5), sumsq(1.0, -0.25, 0.0),
                   sumsq(0.3, -0.1, 0.1), sumsq(1.0, -0.1, 0.0),
                   walk(-0.5, 0.25, 0.0))
