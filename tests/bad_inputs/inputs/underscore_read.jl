# `_` is write-only, as in Julia.
function h(x)
    _ = x
    return _
end
