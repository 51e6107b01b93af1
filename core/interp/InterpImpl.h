/// \file
/// The interpreter's internals (Interpreter.h is the interface): run-time
/// values, the memory the program may touch, and the builtin semantics.
#pragma once

#include "infer/CodeInstance.h"
#include "lang/IR.h"
#include "types/Type.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace prism::interp {

/// A run-time value: its concrete type plus either the bits of a primitive
/// (integers, Bool as 0/1, IEEE floats at their width, pointers as
/// Memory's device addresses) or the fields of a struct or tuple. Singletons
/// (`nothing`, `Type{T}`, functions) are their type alone.
struct Value {
  Type *T = nullptr;
  uint64_t Bits = 0;
  std::vector<Value> Fields;

  static Value prim(Type *T, uint64_t Bits) {
    Value V;
    V.T = T;
    V.Bits = Bits;
    return V;
  }
  static Value singleton(Type *T) { return prim(T, 0); }
};

/// `===`: same type and same bits, field by field (floats compare bits).
bool egal(const Value &A, const Value &B);

/// A Julia exception on its way out of the launch.
struct Thrown {
  std::string TypeName; ///< `BoundsError`
  std::string File;
  unsigned Line = 0;
  std::string Detail; ///< the exception's showerror text, when it has one
};

/// Something no compiled code would survive: an invalid address, a poison
/// value, an interpreter limit. Reported as a fault, not an exception.
struct Fault {
  std::string Message;
  std::string File;
  unsigned Line = 0;
};

/// The result of a builtin: a value, or an exception (type name only; the
/// caller adds the location).
using BuiltinOutcome = std::variant<Value, Thrown, Fault>;

/// The memory a launch may touch: the arrays it was passed and the blocks'
/// shared arrays. Each gets its own device address range, 2^36 bytes apart,
/// so that an access past one array's end can never land in another
/// (adjacent host allocations would hide it), and every access is checked
/// against these ranges and translated to the host buffer.
class Memory {
public:
  /// What a fault says about a region: `argument 2 `b``, its element size
  /// and its dims (empty for a flat byte range).
  struct Label {
    std::string Name;
    uint64_t ElemBytes = 0;
    std::vector<int64_t> Dims;
  };
  /// Gives the host bytes [Host, Host + Size) a device address range and
  /// returns its base.
  uint64_t map(uint8_t *Host, uint64_t Size, Label L);
  void unmap(uint64_t Base) { Regions.erase(Base); }
  /// The host address of [Addr, Addr + Size) if it lies in one region,
  /// else null.
  uint8_t *check(uint64_t Addr, uint64_t Size) const;
  /// Where a failed access of Size bytes at Addr went, for the fault:
  /// `out-of-bounds access to index 5 of argument 2 `b`, which has 4
  /// elements`.
  std::string describe(uint64_t Addr, uint64_t Size) const;

private:
  struct Region {
    uint8_t *Host;
    uint64_t Size;
    Label L;
  };
  std::map<uint64_t, Region> Regions; ///< by device base address
  uint64_t Next = uint64_t(1) << 40;
};
/// What a builtin may ask of the thread running it.
struct BuiltinContext {
  Memory *Mem = nullptr;
  uint32_t ThreadIdx[3] = {0, 0, 0}, BlockIdx[3] = {0, 0, 0};
  uint32_t BlockDim[3] = {1, 1, 1}, GridDim[3] = {1, 1, 1};
  /// The device address of the shared array that the running thread's
  /// call path allocates (ElemBytes per element) in the current block,
  /// zero-filled on first use.
  std::function<uint64_t(uint64_t Bytes, uint64_t ElemBytes)> SharedArray;
};

/// Evaluates a builtin call (statement I of Code) on evaluated arguments
/// (Args[0] is the first argument after the callee). `ConstArgs[k]` is
/// inference's constant for argument k where it has one (a field name, a
/// target type).
BuiltinOutcome evalBuiltin(Builtin B, const TypedCode &Code, unsigned I,
                           const std::vector<Value> &Args,
                           BuiltinContext &Ctx);

/// A constant of the IR as a value (Sym constants have no value: null T).
Value constantValue(const ConstValue &C);

} // namespace prism::interp
