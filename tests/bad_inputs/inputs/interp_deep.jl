deep(n::Int) = n == 0 ? 0 : 1 + deep(n - 1)
