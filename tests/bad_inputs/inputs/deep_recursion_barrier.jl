@noinline down2(n::Int) = n == 0 ? 0 : 1 + down2(n - 1)
function k(a::DeviceArray{Int,1}, n::Int)
    sync_threads()
    a[threadIdx().x] = down2(n)
    return nothing
end
