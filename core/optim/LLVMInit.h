/// \file
/// One-time registration of every LLVM target built into the linked LLVM
/// (target info, target machines, MC layer, asm printers and parsers). The
/// target registry is global and its initialisers are not idempotent under
/// concurrency, so every part of Prism that looks up a target calls this
/// first instead of calling LLVM's InitializeAll* functions itself.
#pragma once

namespace prism {

/// Initialises all LLVM targets, asm printers and asm parsers exactly once;
/// safe to call from any thread, any number of times.
void initializeLLVMTargets();

} // namespace prism
