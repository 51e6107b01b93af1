/// \file
/// LLVM's optimisation remarks, caught in-process: what each pass decided
/// and why ("hoisting load", "load of type float not eliminated because it
/// is clobbered by call", "loop not vectorized: ...", "2 spills generated
/// in loop"), the answer to "why is this kernel slow" that clang gives
/// with -Rpass and Compiler Explorer in its remarks pane. Each remark is
/// located through its inlining chain as output lines are.
#pragma once

#include "cache/JobReport.h"
#include "infer/Inference.h"
#include "optim/AccessPatterns.h"
#include "optim/CostlyArithmetic.h"
#include "optim/Divergence.h"

#include <span>
#include <string>
#include <vector>

namespace llvm {
class DiagnosticInfo;
class DILocation;
class Module;
class StringRef;
} // namespace llvm

namespace prism {

/// Whether remarks of LLVM pass \p Pass are collected. All are, but the
/// legacy pass manager's `size-info` (one per pass that changed the
/// instruction count: noise, and counting costs time) and the frame layout
/// dump (the stack is in the resources).
bool remarkPassWanted(llvm::StringRef Pass);

/// The remark \p DI is, or false when it is not an optimisation remark.
/// \p Tags: the originals of a module tagged by tagLocations (the backend
/// sees tag lines there), empty otherwise.
bool remarkFrom(const llvm::DiagnosticInfo &DI, Stage At,
                std::span<const llvm::DILocation *const> Tags, OptRemark &Out);

/// Remarks of the typed-IR inliner (pass `typed-inline`, Julia's inlining,
/// which LLVM never sees) for the codegen set \p R after
/// InferenceEngine::optimizeForCodegen: each call not inlined, and each
/// call inlined in the user's code (the prelude's small functions are
/// inlined everywhere: noise).
void addInliningRemarks(const InferResult &R, std::vector<OptRemark> &Out);

/// Remarks on how the warps of every function in \p M that reads the
/// thread index access memory (pass `prism-access`, see
/// optim/AccessPatterns.h): missed for uncoalesced and bank-conflicted
/// accesses, analysis for the others; each placed by its instruction's
/// own inlining chain and trimmed to \p JobFunction.
void addAccessRemarks(llvm::Module &M, const WarpModel &W,
                      llvm::StringRef JobFunction, std::vector<OptRemark> &Out);

/// Remarks on the branches of every function in \p M that split a warp
/// (pass `prism-divergence`, see optim/Divergence.h): missed where every
/// warp takes both sides, analysis for the others.
void addDivergenceRemarks(llvm::Module &M, const WarpModel &W,
                          llvm::StringRef JobFunction,
                          std::vector<OptRemark> &Out);

/// Remarks on arithmetic that costs far more on a GPU than it looks (pass
/// `prism-arith`, see optim/CostlyArithmetic.h): Float64 mixed into
/// Float32 code, 64-bit integer division by a run-time value; missed, but
/// analysis for Float64 where \p Arch runs it at the Float32 rate. Code of
/// \p Library is left out.
void addArithmeticRemarks(llvm::Module &M, llvm::StringRef Target,
                          llvm::StringRef Arch, const LibraryCallSites *Library,
                          llvm::StringRef JobFunction,
                          std::vector<OptRemark> &Out);

/// One analysis remark per throw site left in the optimised code (pass
/// `prism-throw`): which exception it checks for, at the user's line, and
/// whether the check runs in a loop. `report` counts them as throw sites;
/// this says where they are. Call after retargetThrowLocations.
void addThrowSiteRemarks(llvm::Module &M, llvm::StringRef JobFunction,
                         std::vector<OptRemark> &Out);

/// The branches the `prism-divergence` remarks judged, by verdict.
struct BranchCounts {
  size_t Divergent = 0, PartlyDivergent = 0, WarpUniform = 0, Boundary = 0;
  size_t DataDependent = 0, Unknown = 0;
  size_t total() const {
    return Divergent + PartlyDivergent + WarpUniform + Boundary +
           DataDependent + Unknown;
  }
};
BranchCounts countBranchRemarks(const std::vector<OptRemark> &Remarks);

/// The accesses the `prism-access` remarks judged, by verdict.
struct AccessCounts {
  size_t Coalesced = 0, Uncoalesced = 0;     ///< global memory
  size_t ConflictFree = 0, BankConflicts = 0; ///< shared memory
  size_t Broadcast = 0, RuntimeStride = 0;
  size_t total() const {
    return Coalesced + Uncoalesced + ConflictFree + BankConflicts + Broadcast +
           RuntimeStride;
  }
};
AccessCounts countAccessRemarks(const std::vector<OptRemark> &Remarks);

/// The operations the `prism-arith` remarks reported, by kind.
struct ArithmeticCounts {
  size_t Float64 = 0;       ///< conversions into or out of Float64
  size_t WideDivisions = 0; ///< 64-bit division or remainder by a variable
  size_t total() const { return Float64 + WideDivisions; }
};
ArithmeticCounts countArithmeticRemarks(const std::vector<OptRemark> &Remarks);

/// Drops the frames outside the job's own function \p JobFunction (a
/// native launch wrapper the kernel was inlined into), so that a remark's
/// outermost frame is the job's line.
void trimToJob(OptRemark &R, llvm::StringRef JobFunction);

/// Remarks that say the same thing at the same place (LICM hoisting three
/// `icmp`s from one line), once each in first-seen order, with how often.
struct RemarkGroup {
  const OptRemark *First = nullptr;
  size_t Count = 0;
};
std::vector<RemarkGroup> groupRemarks(const std::vector<OptRemark> &Remarks);

/// The line of the open file a remark is about: its outermost frame there
/// (the kernel's line a prelude call was inlined at); 0 when none is.
uint32_t remarkLineInFile(const OptRemark &R, std::string_view OpenFile);

/// One remark as clang prints it, located at the job's own line (the
/// outermost frame), with the inlined frames after it:
/// `saxpy.jl:10:22: remark: hoisting load [-Rpass=licm]`
/// `  in unsafe_load at 80_array.jl:4, inlined into getindex at ...`.
/// \p Count > 1 (a RemarkGroup's) adds ` (xN)` after the flag.
std::string formatRemark(const OptRemark &R, size_t Count = 1);

/// `passed 12, missed 3, analysis 5` (the kinds present).
std::string summarizeRemarks(const std::vector<OptRemark> &Remarks);

} // namespace prism
