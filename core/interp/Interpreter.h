/// \file
/// The reference interpreter: runs typed IR directly, statement by
/// statement, with Julia's integer and float semantics. It is the oracle of
/// differential testing (tests/diff/), so it is written to be obviously
/// correct rather than fast: no LLVM, no inlining, no optimisation — the
/// unoptimised typed IR that inference produced, one builtin at a time
/// (IEEE arithmetic through llvm::APFloat, the libm functions the host
/// calls for exp/log/sin/cos/pow).
///
/// Kernels run one thread at a time. Every thread owns an explicit frame
/// stack (no recursion on the C++ stack, so deep recursion in the program
/// is a StackOverflowError, never a crash), which is what lets
/// `sync_threads()` work: a thread that reaches the barrier is paused, the
/// block's other threads are resumed round-robin, and a round ends when
/// every live thread has arrived or finished — the host runtime's rule.
/// Blocks run one after another.
///
/// Memory is only what the call passed (its arrays) and the blocks' shared
/// arrays; every pointer access is checked against them, so an `@inbounds`
/// access out of range — undefined behaviour in compiled code — is a fault
/// here, located on its source line.
///
/// `prism run --device interp` runs it (CallRunner).
#pragma once

#include "devices/Device.h"
#include "infer/CodeInstance.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace prism {

struct InterpOptions {
  /// Statements executed over the whole launch before giving up (a
  /// program that does not terminate is a fault, not a hang).
  uint64_t MaxSteps = 200'000'000;
  /// Frames on one thread's stack; deeper is a StackOverflowError.
  /// Ordinary recursion 10 000 deep runs, as in Julia and on the host.
  unsigned MaxDepth = 100'000;
};

/// Runs `Root` (inferred in world W) over Grid × Block on the given
/// arguments. Arrays are copied in and read back into LaunchResult::Args;
/// the return value is thread (1,1,1) of block (1,1,1)'s. A Julia exception
/// (`throw`, a failed typeassert, an undefined local, too deep a
/// recursion) is a "launch" diagnostic naming the exception, its source
/// line and the throwing thread, as the host device reports it; a fault of
/// the program the compiled code would not survive either (invalid memory
/// access, a poison value, the step limit) is a "launch" diagnostic saying
/// so.
llvm::Expected<LaunchResult> interpret(CodeInstance &Root, World W,
                                       llvm::ArrayRef<HostValue> Args,
                                       Dim3 Grid, Dim3 Block,
                                       const InterpOptions &Opts = {});

} // namespace prism
