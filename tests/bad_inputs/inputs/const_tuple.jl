const W = (0.25f0, 0.5f0, 0.25f0)
f(i) = W[i]
