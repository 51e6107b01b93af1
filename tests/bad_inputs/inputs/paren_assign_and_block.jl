# `(y = 2x)` is an assignment (it was taken for a keyword argument), and
# `(a; b)` a block whose value is b (it was "not supported").
f(x) = (y = 2x; y + 1)
g(x) = (z = (y = x) + 1; z * y)
h(x) = x > 0 && (y = x + 1) > 3
function c7(x)
    if (y = 2x) > 0 && y < 10
        return y
    end
    return -1
end
