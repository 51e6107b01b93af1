app(f, x) = f(x)
g1() = app(2) do x
  x + 1
end
function g2()
  app(2) do x
    x + 1
  end
end
