# A zero-width space after `x` (U+200B): Julia rejects it; in a name it
# would make two names that look alike differ.
f(x) = x​ + 1
