g(a, b) = gcd(a, b)
