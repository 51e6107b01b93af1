# A symbol is only a type parameter in a kernel.
sym() = :x
