/// \file
/// A fingerprint of LLVM IR: a 64-bit hash of everything the IR printer
/// shows for a function or a module, computed by walking the IR instead of
/// printing it (tens of times cheaper). The pipeline's snapshots use it to
/// avoid printing a function again after a pass that left it alone.
///
/// Values are hashed by identity (their address) plus their names; constants
/// and types are uniqued and immutable in LLVM, so their address stands for
/// their text. What a function's text owes to the rest of the module (the
/// numbers of attribute groups, metadata and unnamed globals) is not in a
/// function's fingerprint: fingerprintModuleNumbering and the module's
/// fingerprint cover it.
#pragma once

#include <cstdint>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace prism {

/// Equal fingerprints mean the same printed text, barring a hash collision
/// and the module-wide numbering above. A function deleted and another
/// allocated at its address with the same content hash the same, and print
/// the same too.
uint64_t fingerprintFunction(const llvm::Function &F);

/// The module's globals, aliases, named metadata and every function.
uint64_t fingerprintModule(const llvm::Module &M);

/// What every function's text shares with the module: the numbering of
/// attribute groups (`#N`, numbered over the functions' attributes in
/// module order, then the call sites') and of unnamed globals. Cheap: one
/// step per function, no instructions.
uint64_t fingerprintModuleNumbering(const llvm::Module &M);

} // namespace prism
