# Base's float constants in a kernel: Inf, NaN and their 32- and 16-bit
# forms, as Julia prints them.
clampinf(x::Float32) = ifelse(x > 0.0f0, Inf32, NaN32)
specials() = (Inf, -Inf32, NaN16, Inf16, isnan(NaN))
