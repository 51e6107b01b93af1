struct Box{T}
    x::T
end
w(x::Box{<:Real}) = 1
