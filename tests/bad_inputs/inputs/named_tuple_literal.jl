function nt1()
    x = 10
    t = (x = 1, y = 2)
    x
end
