# Habits from Python, Fortran and Julia's typed locals: each gets one error
# that says what to write.
f(x) = x ** 2
function g(n)
    acc::Float32 = 0
    for i in 1:n
        acc += i
    end
    return acc
end
