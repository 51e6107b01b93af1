# `x^p` with an integer literal p is Julia's literal_pow: `x^3` multiplies
# (1.1^3 is 1.3310000000000004, two roundings, as in Julia), `x^-1` is
# inv(x) (0.5 for 2, where `2^n` with n = -1 is a DomainError), and `x^-3`
# of an integer Float64(x)^-3.
cube(x) = x^3
half(x) = x^-1
quarter(x) = x^-2
pow_n(x, n) = x^n
eighth(x) = x^-3
