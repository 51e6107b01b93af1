function k(o::DeviceArray{Int,1})
  s = CuStaticSharedArray(Int, typemax(Int))
  o[1] = length(s)
  return nothing
end
function kn(o::DeviceArray{Int,1})
  s = CuStaticSharedArray(Int, -1)
  o[1] = length(s)
  return nothing
end
function kt(o::DeviceArray{Int,1})
  s = CuStaticSharedArray(Int, (typemax(UInt32), typemax(UInt32)))
  o[1] = length(s)
  return nothing
end
