# Invalidation and world age: `kernel` depends on `child` through an edge.
# Teaches: redefining `child` (edit it in the GUI) bumps the world, invalidates
# exactly the CodeInstances that depend on it (kernel's), and recompiles that job;
# editing `unrelated` invalidates nothing that kernel uses.
# Look at: the Invalidations panel after an edit; code_typed before and after.
# job: kernel(Int) --no-kernel
# job: unrelated(Int) --no-kernel
# targets: ptx gcn native
# run: kernel(41)
child(i::Int) = i * 2
unrelated(i::Int) = i - 1
kernel(i::Int) = child(i) +
