# getfield at a run-time index of fields that hold nothing (a fieldless
# struct, zero-size values): Julia's BoundsError still comes first (the host
# faulted, or returned a value).
struct E end
g1(i::Int) = getfield(E(), i)
g3(i::Int) = (E(), E())[i]
h1(i::Int) = (nothing, nothing)[i]
h3(i::Int) = ((), ())[i]
