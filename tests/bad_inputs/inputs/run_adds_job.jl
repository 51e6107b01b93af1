# The file asks for a ptx job only: `gui --run 'twice(21)'` on the host
# adds the native job that ran and selects it.
# job: twice(Int) --no-kernel
# targets: ptx
twice(x::Int) = 2 * x
