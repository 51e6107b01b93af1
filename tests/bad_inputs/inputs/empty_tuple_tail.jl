# Base.tail of the empty tuple throws ArgumentError (it was a compile
# error: no method matching tail(::Tuple{})).
h(t) = Base.tail(t)
k() = length(Base.tail(()))
