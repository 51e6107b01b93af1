# Julia's operators that kernels leave out: each is named, with what to
# write instead, rather than "extra token" or a character literal.
pipe(x) = x |> abs
rat(x) = x // 2
pm(x) = x ± 1
tr(x) = x'
# `x ++ 1` parsed as x + (+1) and ran; `--` is invalid in Julia too.
inc(x) = x ++ 1
dec(x) = x -- 1
rng(x) = x .. 3
# Prefix `--x` and `++x`: Julia rejects both (they returned x).
neg2(x) = --x
