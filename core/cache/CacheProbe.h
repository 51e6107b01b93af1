/// \file
/// Puts a job through a CompileCache and measures what a launch would pay:
/// the figures behind `prism report`'s cache section and the GUI's Cache
/// tab. The first lookup compiles (or hits the disk cache); then `Probes`
/// lookups are timed and their allocations counted on this thread.
#pragma once

#include "cache/CompileCache.h"
#include "cache/JobReport.h"
#include "infer/CodeInstance.h"

namespace prism {

/// Fills Out from the entry of (Config, Spec); errors are the compile's,
/// or "cancelled" when `Cancel` was raised during it (Out is then as it
/// was).
llvm::Error probeCache(CompileCache &Cache, const CompilerConfig &Config,
                       const FunctionSpec &Spec, unsigned Probes,
                       CacheFigures &Out,
                       const std::atomic<bool> *Cancel = nullptr);

} // namespace prism
