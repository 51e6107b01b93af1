# Loops and recursion on scalars: ordinary functions, callable with `prism run`.
# Teaches: loop lowering (`goto #N if not %c` in code_lowered), recursion in
# inference (fib converges to Int64), and loop optimisation in the pipeline view.
# Look at: code_lowered, pipeline (LoopRotate, IndVarSimplify, LoopUnroll).
# job: fib(Int)
# job: sum_to(Int)
# targets: native
# run: fib(20)
fib(n::Int) = n < 2 ? n : fib(n - 1) + fib(n - 2)

function sum_to(n::Int)
    s = 0
    for k in 1:n
        if k % 3 == 0
            continue
        end
        s += k
    end
    return s
end
