/// \file
/// `prism run`'s CALL argument (CLI.md): a call in the kernel language whose
/// arguments are literals or host-side array constructors, evaluated on the
/// host into `HostValue`s:
///
///   literals   `1` Int64, `2.0f0` Float32, `0x08` UInt8, `true`, `nothing`,
///              a function of the program by name (`square`), a constant
///              of the program or of Base (`N`, `Inf32`, `π`), tuples
///              `(1, 2.0)`, conversions `UInt32(60)`, `Float32(0.5)`,
///              `Float32(π)` (the exact value rounded once),
///              instances of the program's structs `Vec2(1.0f0, 2)` (each
///              field converted to its declared type, as the default
///              constructor does)
///   arrays     `zeros(T, dims...)`, `ones(T, dims...)`, `fill(v, dims...)`,
///              `rand(T, dims...)` (seeded), `collect(T, a:b)`,
///              `collect(a:s:b)`, `reshape(A, dims...)`, `T[v1, v2, ...]`
///
/// Dims are integers or one tuple of integers. `T[...]`, `fill`, `collect`
/// and conversions convert as Julia's `convert` does: a value that does not
/// fit is an error (`InexactError: UInt8(256)`). `rand` draws from
/// std::mt19937_64 seeded with `--seed`, in argument order; floats are
/// uniform in [0, 1), integers uniform over the type.
///
/// Errors are diagnostics located in the CALL string (file name "CALL").
#pragma once

#include "devices/HostValue.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace prism {

namespace ast {
struct Node;
}

struct ParsedCall {
  std::string Function;        ///< `saxpy!`
  DiagLoc FunctionLoc;         ///< where the CALL names it
  std::vector<HostValue> Args; ///< evaluated arguments, in order
};

/// Says whether a name is a function of the program (so that `map!(square,
/// ...)` passes the function); without it every unknown name is an error.
using IsFunctionFn = llvm::function_ref<bool(llvm::StringRef)>;

/// What a CALL needs to know of one of the program's struct types to build
/// an instance: its fields' names and declared types (Julia's printing).
struct StructShape {
  std::string TypeName;
  std::vector<std::string> FieldNames, FieldTypes;
  /// Not empty: the struct cannot be built in a CALL, and why.
  std::string Why;
};
/// The shape of the program's struct of that name; none if the name is
/// not a struct that a CALL may build.
using StructOfFn =
    llvm::function_ref<std::optional<StructShape>(llvm::StringRef)>;

/// A constant a CALL names: a value (the program's `const N = 1024`, Base's
/// `π`, `Inf32`, a fieldless struct's instance), or a number type (`const T
/// = Float32`, for `zeros(T, 4)` and `T(1)`).
struct CallConstant {
  HostValue Value;
  std::optional<ScalarKind> Type; ///< set: a type constant
};
/// The constant of that name; none if the name is no constant a CALL can
/// pass.
using ConstOfFn =
    llvm::function_ref<std::optional<CallConstant>(llvm::StringRef)>;

/// Parses and evaluates a CALL string.
llvm::Expected<ParsedCall> parseCall(llvm::StringRef Call, uint64_t Seed = 0,
                                     IsFunctionFn IsFunction = nullptr,
                                     StructOfFn StructOf = nullptr,
                                     ConstOfFn ConstOf = nullptr);

/// Evaluates an already parsed call expression (File is the text its
/// ranges refer to, for diagnostics).
llvm::Expected<ParsedCall>
evaluateCall(const ast::Node &Call, const SourceFileRef &File,
             uint64_t Seed = 0, IsFunctionFn IsFunction = nullptr,
             StructOfFn StructOf = nullptr, ConstOfFn ConstOf = nullptr);

} // namespace prism
