# Recursion 100 calls deep that throws at the bottom: the stacktrace is cut
# at the innermost 64 calls and the outermost 16, the calls between counted.
@noinline function down(n::Int)
    if n == 0
        return Int8(n + 1000)
    end
    return down(n - 1) - down(n - 2 * n)
end
