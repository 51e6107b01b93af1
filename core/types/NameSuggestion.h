/// \file
/// "Did you mean": the bound name nearest a misspelt one (a function, a
/// local, a type), and the Base Julia names the kernel language's prelude
/// does not have, for which no near miss is offered (`mod` for `mod1`
/// would change the meaning).
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace prism {

class GlobalEnv;

/// A Base Julia function the prelude does not have (`mod1`, `zeros`,
/// `map`): a user who writes one made no typo.
bool isBaseOnlyFunction(llvm::StringRef Name);

/// For a CUDA.jl device function the kernel language does not have
/// (`shfl_down_sync`, `CuDynamicSharedArray`, `atomic_cas!`): what the
/// language has instead; empty for another name.
std::string cudaOnlyAdvice(llvm::StringRef Name);

/// The function, or local in \p Locals, nearest to \p Name within two
/// edits (one for names of up to four characters, none for shorter), a
/// function on a tie; the prelude's private helpers (an underscore, but
/// for public names such as `count_ones`) and intrinsics are never
/// offered. Empty when none is near, or \p Name is Base-only.
std::string nearestFunctionName(const GlobalEnv &Env, llvm::StringRef Name,
                                llvm::ArrayRef<llvm::StringRef> Locals = {});

/// The type name nearest to \p Name (`float32` → `Float32`), by the same
/// rule; empty when none is near.
std::string nearestTypeName(const GlobalEnv &Env, llvm::StringRef Name);

/// Julia's and CUDA.jl's array types (`Vector`, `Matrix`, `Array`,
/// `CuArray`, ...), which a kernel takes as `DeviceArray{T,N}`: what to
/// write instead, or empty for another name.
std::string arrayTypeAdvice(llvm::StringRef Name);

} // namespace prism
