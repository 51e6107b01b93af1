root(x::Float64) = Base.Math.sqrt(Core.Intrinsics.abs_float(x))
