/// \file
/// The small runtime interface compiled code calls, shared with the device
/// runtimes (devices/): only declarations are emitted; each runtime defines
/// them (the host runtime in C++, GPU targets may replace them by traps).
///
///   void prism_throw(i32 kind, ptr type_name, ptr file, i32 line)
///     An exception was thrown: `kind` is a ThrowKind, `type_name` the
///     exception's type as a NUL-terminated string (`BoundsError`), `file`
///     and `line` the source position of the throw: the innermost *user*
///     frame of the inlining chain (so a BoundsError inside the prelude's
///     getindex reports `saxpy.jl:5`) — from the typed inliner's stack at
///     code generation, and for code LLVM inlined from debug info after
///     optimisation. Never returns on targets that have no trap (native).
///   void prism_throw_detail(ptr template, i32 col, i32 n, i64 ...)
///     (native only) Just before a prism_throw: the column of that place
///     (0 when unknown), the exception's showerror text as a
///     ShowErrorTemplate (types/ShowError.h; null when it has none) and its
///     n scalars, each the zero-extended bits of its type. The column is an
///     operand, not a line-table row, because optimisation merges the throw
///     calls of one line (`a[t] = b[t]`) into one call. GPU targets pass
///     nothing.
///   void prism_sync_threads(ptr state)   (native only, see NativeTarget.h)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

namespace llvm {
class CallBase;
} // namespace llvm

namespace prism {

inline constexpr const char *ThrowHookName = "prism_throw";
inline constexpr const char *ThrowDetailHookName = "prism_throw_detail";
inline constexpr const char *SyncThreadsHookName = "prism_sync_threads";

/// Exception kinds the runtime knows by number (stable: part of the ABI).
enum class ThrowKind : int32_t {
  Other = 0, ///< any other exception type; see type_name
  BoundsError = 1,
  InexactError = 2,
  DivideError = 3,
  OverflowError = 4,
  DomainError = 5,
  ArgumentError = 6,
  ErrorException = 7,
  TypeError = 8,
  UndefVarError = 9,
  StackOverflowError = 10,
};

/// The kind for an exception type name (`BoundsError` → BoundsError).
ThrowKind throwKindForTypeName(std::string_view Name);
const char *throwKindName(ThrowKind K);

/// What one `prism_throw` call says, read from its operands (constants
/// after optimisation; one that is not reads as 0 or empty, and a missing
/// type name as the kind's).
struct ThrowCallInfo {
  int32_t Kind = 0;
  std::string TypeName, File;
  int32_t Line = 0;
  /// Calls with equal keys are the same source place.
  auto key() const { return std::tie(Kind, TypeName, File, Line); }
};
ThrowCallInfo readThrowCall(const llvm::CallBase &Call);

} // namespace prism
