# Teaching example: `acc` starts as an Int and becomes a Float32, so its type is
# Union{Int64, Float32}. code_warntype highlights it and compiling for a GPU fails
# with an error that names `acc` and this line. Change `0` to `0.0f0` to fix it.
# Teaches: type instability and how to fix it (code_warntype).
# job: sum_row(DeviceArray{Float32,2}, Int)
# fails: native ptx gcn
function sum_row(x::DeviceArray{Float32,2}, row::Int)
    acc = 0
    for j in 1:size(x, 2)
        acc += x[row, j]
    end
    return acc
end
