# DomainError as Julia shows it.
sq(x::Float64) = sqrt(x)
p(x::Int, n::Int) = x^n
q(x::Float64, y::Float64) = x^y
d(x::Int) = throw(DomainError(x))
