# Base, part 9: the device API, with CUDA.jl's names. The builtins count
# threads and blocks from 0; these functions count from 1, as CUDA.jl does.
# `sync_threads()` is the builtin itself.

# The x, y and z components of a launch index or dimension.
struct Dim3
    x::Int32
    y::Int32
    z::Int32
end

@inline threadIdx() = Dim3(thread_idx_x() + Int32(1), thread_idx_y() + Int32(1), thread_idx_z() + Int32(1))
@inline blockIdx() = Dim3(block_idx_x() + Int32(1), block_idx_y() + Int32(1), block_idx_z() + Int32(1))
@inline blockDim() = Dim3(block_dim_x(), block_dim_y(), block_dim_z())
@inline gridDim() = Dim3(grid_dim_x(), grid_dim_y(), grid_dim_z())

# A 1-d (or 2-d) array in shared memory; the size must be a compile-time constant.
@inline function CuStaticSharedArray(::Type{T}, n::Int) where {T}
    return DeviceArray(shared_array(T, n), (n,))
end
@inline function CuStaticSharedArray(::Type{T}, dims::Tuple{Int,Int}) where {T}
    return DeviceArray(shared_array(T, dims[1] * dims[2]), dims)
end

# Atomically adds v to the value at p (or at a[i]); returns the old value.
# The types a GPU adds atomically (CUDA.jl's atomic_add!); a Bool or a
# struct is no method, not IR LLVM rejects.
const AtomicAddable = Union{Int32, Int64, UInt32, UInt64, Float16, Float32, Float64}
@inline atomic_add!(p::Ptr{T}, v::T) where {T<:AtomicAddable} = atomic_add(p, v)
@inline function atomic_add!(a::DeviceArray{T,N}, i::Integer, v) where {T<:AtomicAddable,N}
    @boundscheck checkbounds(a, i)
    return atomic_add(pointer(a, i), convert(T, v))
end

# Any integer size and a dims tuple of one to three integers, as CUDA.jl
# takes them (`const N = Int32(32)`, `(Int32(4), Int32(2))`, `(8, 4, 2)`):
# the dims become Ints, still compile-time constants.
@inline function CuStaticSharedArray(::Type{T}, n::Integer) where {T}
    m = Int(n)
    return DeviceArray(shared_array(T, m), (m,))
end
@inline function CuStaticSharedArray(::Type{T}, dims::Tuple{Integer}) where {T}
    m = Int(dims[1])
    return DeviceArray(shared_array(T, m), (m,))
end
@inline function CuStaticSharedArray(::Type{T}, dims::Tuple{Integer,Integer}) where {T}
    d = (Int(dims[1]), Int(dims[2]))
    return DeviceArray(shared_array(T, d[1] * d[2]), d)
end
@inline function CuStaticSharedArray(::Type{T}, dims::Tuple{Integer,Integer,Integer}) where {T}
    d = (Int(dims[1]), Int(dims[2]), Int(dims[3]))
    return DeviceArray(shared_array(T, d[1] * d[2] * d[3]), d)
end
