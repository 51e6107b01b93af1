# Base, part 8: pointers and DeviceArray.

# Loads and stores through a pointer; `i` counts elements from 1.
@inline unsafe_load(p::Ptr{T}, i::Integer) where {T} = pointerref(p, Int(i))
@inline unsafe_load(p::Ptr{T}) where {T} = pointerref(p, 1)
@inline function unsafe_store!(p::Ptr{T}, v, i::Integer) where {T}
    pointerset(p, convert(T, v), Int(i))
    return p
end
@inline function unsafe_store!(p::Ptr{T}, v) where {T}
    pointerset(p, convert(T, v), 1)
    return p
end

# Pointer arithmetic counts bytes, as in Julia.
@inline +(p::Ptr{T}, bytes::Integer) where {T} = pointeradd(p, Int(bytes))
@inline -(p::Ptr{T}, bytes::Integer) where {T} = pointeradd(p, -Int(bytes))
@inline eltype(::Type{Ptr{T}}) where {T} = T

# An array in device memory: a pointer plus the size of each dimension.
# Column-major and 1-based, as Julia's arrays.
struct DeviceArray{T,N} <: AbstractArray{T,N}
    ptr::Ptr{T}
    dims::NTuple{N,Int}
end

# CUDA.jl's name for it.
const CuDeviceArray = DeviceArray

@inline pointer(a::DeviceArray{T,N}) where {T,N} = a.ptr
# The address of element i (linear index).
@inline pointer(a::DeviceArray{T,N}, i::Integer) where {T,N} = a.ptr + (Int(i) - 1) * sizeof(T)

@inline size(a::DeviceArray{T,N}) where {T,N} = a.dims
# Dimensions past the last have size 1.
@inline function size(a::DeviceArray{T,N}, d::Integer) where {T,N}
    d < 1 && throw(BoundsError(a.dims, (d,)))
    return d <= N ? a.dims[d] : 1
end
# One and two dimensions read the dims directly, as Julia's `length` of an
# Array is one field load: the typed IR of a kernel shows that, not a loop.
@inline length(a::DeviceArray{T,1}) where {T} = a.dims[1]
@inline length(a::DeviceArray{T,2}) where {T} = a.dims[1] * a.dims[2]
# CUDA.jl's: the elements' bytes (the struct itself is a pointer and dims).
@inline sizeof(a::DeviceArray{T}) where {T} = length(a) * sizeof(T)
@inline function length(a::DeviceArray{T,N}) where {T,N}
    n = 1
    d = 1
    while d <= N
        n *= a.dims[d]
        d += 1
    end
    return n
end
@inline ndims(a::DeviceArray{T,N}) where {T,N} = N
@inline eltype(a::DeviceArray{T,N}) where {T,N} = T
@inline eltype(::Type{DeviceArray{T,N}}) where {T,N} = T
@inline firstindex(a::DeviceArray{T,N}) where {T,N} = 1
@inline lastindex(a::DeviceArray{T,N}) where {T,N} = length(a)

# Bounds checks throw BoundsError(a, (indices...)); `@inbounds` at the call
# site removes them (the `@boundscheck` blocks below). With fewer indices than
# dimensions the last index runs over the remaining ones, as in Julia
# (exact for arrays of up to three dimensions).
@inline function checkbounds(a::DeviceArray{T,N}, i::Integer) where {T,N}
    if (i < 1) | (i > length(a))
        throw(BoundsError(a, (i,)))
    end
    return nothing
end
@inline function checkbounds(a::DeviceArray{T,N}, i::Integer, j::Integer) where {T,N}
    if (i < 1) | (i > size(a, 1)) | (j < 1) | (j > size(a, 2) * size(a, 3))
        throw(BoundsError(a, (i, j)))
    end
    return nothing
end
@inline function checkbounds(a::DeviceArray{T,N}, i::Integer, j::Integer, k::Integer) where {T,N}
    if (i < 1) | (i > size(a, 1)) | (j < 1) | (j > size(a, 2)) | (k < 1) | (k > size(a, 3))
        throw(BoundsError(a, (i, j, k)))
    end
    return nothing
end

# Column-major linear index of a[i, j] and a[i, j, k].
@inline function linear_index(a::DeviceArray{T,N}, i::Integer, j::Integer) where {T,N}
    return Int(i) + (Int(j) - 1) * size(a, 1)
end
@inline function linear_index(a::DeviceArray{T,N}, i::Integer, j::Integer, k::Integer) where {T,N}
    return Int(i) + ((Int(j) - 1) + (Int(k) - 1) * size(a, 2)) * size(a, 1)
end

@inline function getindex(a::DeviceArray{T,N}, i::Integer) where {T,N}
    @boundscheck checkbounds(a, i)
    return unsafe_load(pointer(a), i)
end
@inline function getindex(a::DeviceArray{T,N}, i::Integer, j::Integer) where {T,N}
    @boundscheck checkbounds(a, i, j)
    return unsafe_load(pointer(a), linear_index(a, i, j))
end
@inline function getindex(a::DeviceArray{T,N}, i::Integer, j::Integer, k::Integer) where {T,N}
    @boundscheck checkbounds(a, i, j, k)
    return unsafe_load(pointer(a), linear_index(a, i, j, k))
end

# Stores convert the value to the element type: `a[i] = 1` into Float32s.
@inline function setindex!(a::DeviceArray{T,N}, v, i::Integer) where {T,N}
    @boundscheck checkbounds(a, i)
    unsafe_store!(pointer(a), convert(T, v), i)
    return a
end
@inline function setindex!(a::DeviceArray{T,N}, v, i::Integer, j::Integer) where {T,N}
    @boundscheck checkbounds(a, i, j)
    unsafe_store!(pointer(a), convert(T, v), linear_index(a, i, j))
    return a
end
@inline function setindex!(a::DeviceArray{T,N}, v, i::Integer, j::Integer, k::Integer) where {T,N}
    @boundscheck checkbounds(a, i, j, k)
    unsafe_store!(pointer(a), convert(T, v), linear_index(a, i, j, k))
    return a
end

# Pointer conversions as Julia's pointer.jl has them: another element type
# (a packet's `Ptr{UInt16}(pkt)`), and an address.
@inline Ptr{T}(p::Union{Int64, UInt64, Ptr}) where {T} = bitcast(Ptr{T}, p)
@inline convert(::Type{Ptr{T}}, p::Ptr) where {T} = bitcast(Ptr{T}, p)
@inline convert(::Type{Ptr{T}}, p::Ptr{T}) where {T} = p
@inline UInt64(p::Ptr) = bitcast(UInt64, p)

# Arrays of four dimensions and more: with fewer indices than dimensions,
# the last index runs over the rest (the methods above are exact up to
# three dimensions), and four indices address a 4-d array.
@inline function trailing_length(a::DeviceArray{T,N}, d::Int) where {T,N}
    n = 1
    k = d
    while k <= N
        n *= a.dims[k]
        k += 1
    end
    return n
end
@inline function checkbounds_collapsed(a::DeviceArray{T,N}, i::Integer, j::Integer) where {T,N}
    if (i < 1) | (i > size(a, 1)) | (j < 1) | (j > trailing_length(a, 2))
        throw(BoundsError(a, (i, j)))
    end
    return nothing
end
@inline function checkbounds_collapsed(a::DeviceArray{T,N}, i::Integer, j::Integer, k::Integer) where {T,N}
    if (i < 1) | (i > size(a, 1)) | (j < 1) | (j > size(a, 2)) | (k < 1) | (k > trailing_length(a, 3))
        throw(BoundsError(a, (i, j, k)))
    end
    return nothing
end
@inline checkbounds(a::DeviceArray{T,4}, i::Integer, j::Integer) where {T} = checkbounds_collapsed(a, i, j)
@inline checkbounds(a::DeviceArray{T,5}, i::Integer, j::Integer) where {T} = checkbounds_collapsed(a, i, j)
@inline checkbounds(a::DeviceArray{T,6}, i::Integer, j::Integer) where {T} = checkbounds_collapsed(a, i, j)
@inline checkbounds(a::DeviceArray{T,7}, i::Integer, j::Integer) where {T} = checkbounds_collapsed(a, i, j)
@inline checkbounds(a::DeviceArray{T,8}, i::Integer, j::Integer) where {T} = checkbounds_collapsed(a, i, j)
@inline checkbounds(a::DeviceArray{T,4}, i::Integer, j::Integer, k::Integer) where {T} = checkbounds_collapsed(a, i, j, k)
@inline checkbounds(a::DeviceArray{T,5}, i::Integer, j::Integer, k::Integer) where {T} = checkbounds_collapsed(a, i, j, k)
@inline checkbounds(a::DeviceArray{T,6}, i::Integer, j::Integer, k::Integer) where {T} = checkbounds_collapsed(a, i, j, k)
@inline checkbounds(a::DeviceArray{T,7}, i::Integer, j::Integer, k::Integer) where {T} = checkbounds_collapsed(a, i, j, k)
@inline checkbounds(a::DeviceArray{T,8}, i::Integer, j::Integer, k::Integer) where {T} = checkbounds_collapsed(a, i, j, k)
@inline function checkbounds(a::DeviceArray{T,N}, i::Integer, j::Integer, k::Integer, l::Integer) where {T,N}
    if (i < 1) | (i > size(a, 1)) | (j < 1) | (j > size(a, 2)) | (k < 1) | (k > size(a, 3)) |
       (l < 1) | (l > trailing_length(a, 4))
        throw(BoundsError(a, (i, j, k, l)))
    end
    return nothing
end
@inline function linear_index(a::DeviceArray{T,N}, i::Integer, j::Integer, k::Integer, l::Integer) where {T,N}
    return Int(i) + ((Int(j) - 1) + ((Int(k) - 1) + (Int(l) - 1) * size(a, 3)) * size(a, 2)) * size(a, 1)
end
@inline function getindex(a::DeviceArray{T,N}, i::Integer, j::Integer, k::Integer, l::Integer) where {T,N}
    @boundscheck checkbounds(a, i, j, k, l)
    return unsafe_load(pointer(a), linear_index(a, i, j, k, l))
end
@inline function setindex!(a::DeviceArray{T,N}, v, i::Integer, j::Integer, k::Integer, l::Integer) where {T,N}
    @boundscheck checkbounds(a, i, j, k, l)
    unsafe_store!(pointer(a), convert(T, v), linear_index(a, i, j, k, l))
    return a
end

# Pointer order and distance, as Julia's pointer.jl (`while p < pend` in a
# packet filter).
@inline <(x::Ptr, y::Ptr) = UInt64(x) < UInt64(y)
@inline isless(x::Ptr{T}, y::Ptr{T}) where {T} = x < y
@inline -(x::Ptr, y::Ptr) = UInt64(x) - UInt64(y)
