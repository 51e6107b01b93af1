# job: saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})
function saxpy!(a, x, y)
  i = threadIdx().x
  @inbounds y[i] = a * x[i] + y[i]
  return
end
