function h(x)
    q(y) = y + 1
    q(x)
end
