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
/// (integers, Bool as 0/1, IEEE floats at their width, pointers as host
/// addresses) or the fields of a struct or tuple. Singletons (`nothing`,
/// `Type{T}`, functions) are their type alone.
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
/// shared arrays. Every access is checked against these ranges.
class Memory {
public:
  /// Registers [Base, Base + Size) as addressable.
  void add(uint8_t *Base, uint64_t Size) { Regions[Base] = Size; }
  void remove(uint8_t *Base) { Regions.erase(Base); }
  /// The address if [Addr, Addr + Size) lies in one region, else null.
  uint8_t *check(uint64_t Addr, uint64_t Size) const;

private:
  std::map<uint8_t *, uint64_t> Regions;
};

/// What a builtin may ask of the thread running it.
struct BuiltinContext {
  Memory *Mem = nullptr;
  uint32_t ThreadIdx[3] = {0, 0, 0}, BlockIdx[3] = {0, 0, 0};
  uint32_t BlockDim[3] = {1, 1, 1}, GridDim[3] = {1, 1, 1};
  /// Shared memory of statement `Stmt` of `Code` in the current block
  /// (zero-filled on first use).
  std::function<uint8_t *(const TypedCode *Code, unsigned Stmt, uint64_t Bytes)>
      SharedArray;
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
