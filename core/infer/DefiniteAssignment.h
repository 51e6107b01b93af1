/// \file
/// Definite assignment over typed IR: per statement, the slots assigned on
/// every path that reaches it (arguments at entry). A read of any other slot
/// may find no value, which Julia reports as an UndefVarError; codegen
/// guards exactly those reads, and the typed inliner leaves functions with
/// such reads alone (inlined into a loop, their "assigned" flags would
/// survive from one call to the next).
///
/// Solved per basic block, not per statement: a kernel inlined to 50 000
/// statements over thousands of slots would otherwise hold a bit vector of
/// every slot at every statement (hundreds of megabytes, quadratic time).
/// And only over the slots some statement reads: inlining leaves many
/// slots that are written and never read (a 2000-line kernel had 100 000
/// slots, 6000 of them read), and a vector of all of them per block grew
/// with the square of the kernel's length.
#pragma once

#include "infer/CodeInstance.h"

#include "llvm/ADT/BitVector.h"

#include <optional>
#include <vector>

namespace prism {

class DefiniteAssignment {
public:
  explicit DefiniteAssignment(const TypedCode &Code);

  /// Whether Slot is assigned on every path that reaches statement PC
  /// (PC == number of statements: the end). At a statement no path
  /// reaches, every slot counts as assigned. Asked in increasing PC order
  /// each call costs the statements stepped over; going back restarts from
  /// the start of PC's block. Slot must be one that some statement reads
  /// (every caller asks about a read): any other counts as assigned.
  bool assigned(size_t PC, unsigned Slot);

private:
  /// The tracked slots assigned after S, given those before: an assignment
  /// adds its slot, a `NewVar` (a loop-local's new iteration) takes it
  /// away.
  void step(const Stmt &S, llvm::BitVector &Assigned) const {
    if (S.Slot >= Dense.size() || Dense[S.Slot] == Untracked)
      return;
    if (S.K == StmtKind::Assign)
      Assigned.set(Dense[S.Slot]);
    else if (S.K == StmtKind::NewVar)
      Assigned.reset(Dense[S.Slot]);
  }

  void seek(size_t PC);
  /// Index into Leaders of the block holding PC.
  size_t blockOf(size_t PC) const;

  static constexpr uint32_t Untracked = ~0u;
  const TypedCode &Code;
  /// Each slot's bit in the vectors below: slots no statement reads have
  /// none (Untracked).
  std::vector<uint32_t> Dense;
  std::vector<size_t> Leaders;         ///< first statement of each block, sorted
  std::vector<llvm::BitVector> BlockIn; ///< slots assigned on entry, per block
  llvm::BitVector Cur;                 ///< slots assigned before statement At
  size_t At = 0;
  size_t AtBlock = 0;
};

/// Whether some statement reads a slot that may be unassigned there.
bool readsMaybeUnassigned(const TypedCode &Code);

/// The slot statement I reads where no path has assigned it (inference
/// typed the read Union{}): the statement can only throw UndefVarError,
/// which codegen emits; none if it reads no such slot.
std::optional<unsigned> neverAssignedRead(const TypedCode &Code, size_t I);

} // namespace prism
