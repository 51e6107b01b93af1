pick(t, k::Int) = t[k]
