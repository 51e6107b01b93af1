# A signed remainder: the bpf target has no signed division.
rem_of(a::Int, b::Int) = a % b
