const BAD = Int8(300)
bad() = BAD
