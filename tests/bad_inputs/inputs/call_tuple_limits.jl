sumt(t) = t[1]
