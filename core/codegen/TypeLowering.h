/// \file
/// Kernel-language types → LLVM types, as Julia's codegen lays them out:
/// Bool is `i1` in registers and `i8` in memory (and inside aggregates),
/// integers/floats map to `iN`/`half`/`float`/`double`, `Ptr{T}` to an
/// opaque `ptr` in the target's generic address space, homogeneous tuples
/// (`NTuple{N,T}`) to `[N x T]`, other tuples and structs to literal LLVM
/// structs of their fields' memory types. Zero-size values — `nothing`,
/// functions (`typeof(f)`), types (`Type{T}`), fieldless structs and
/// aggregates made only of those — are "ghosts": they carry no value and are
/// dropped from signatures and aggregates.
#pragma once

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace llvm {
class LLVMContext;
class Type;
} // namespace llvm

namespace prism {

class Type;

class TypeLowering {
public:
  TypeLowering(llvm::LLVMContext &Ctx, unsigned GenericAddrSpace)
      : Ctx(Ctx), GenericAS(GenericAddrSpace) {}

  /// Zero-size: no LLVM value.
  bool isGhost(Type *T);
  /// The type of a value in an SSA register (null for ghosts).
  llvm::Type *regType(Type *T);
  /// The type of a value in memory and inside aggregates (null for ghosts).
  llvm::Type *memType(Type *T);
  /// The LLVM element index of a struct/tuple field (0-based Julia index),
  /// or -1 when the field is a ghost.
  int fieldIndex(Type *Aggregate, unsigned Field);
  /// NTuple{N,T} with a non-ghost T, lowered to `[N x T]`.
  bool isArrayTuple(Type *T);

  llvm::LLVMContext &context() const { return Ctx; }

private:
  struct Layout {
    llvm::Type *Mem = nullptr; ///< null for ghosts
    std::vector<int> FieldMap; ///< aggregates: Julia field → LLVM index / -1
    bool Ghost = false;
    bool ArrayTuple = false;
  };
  const Layout &layout(Type *T);

  llvm::LLVMContext &Ctx;
  unsigned GenericAS;
  llvm::DenseMap<Type *, Layout> Cache;
};

} // namespace prism
