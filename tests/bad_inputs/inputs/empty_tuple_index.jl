# Indexing the empty tuple throws for every index (inference says
# Union{}; the host skipped the throw and ran on, or crashed).
f4(t::Tuple{}, x::Int) = x > 0 ? t[x] : -1
