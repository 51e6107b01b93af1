#include "optim/AccessPatterns.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <set>

namespace prism {

namespace {

int64_t floorDiv(int64_t A, int64_t B) {
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}

/// Whether a lane's address still holds a thread-dependent value SCEV kept
/// opaque: equal opaque terms would cancel as if every lane had one value.
bool keepsOpaqueThreadValue(
    const llvm::SCEV *At,
    const llvm::SmallPtrSetImpl<const llvm::Value *> &Dep) {
  return llvm::SCEVExprContains(At, [&](const llvm::SCEV *X) {
    const auto *U = llvm::dyn_cast<llvm::SCEVUnknown>(X);
    return U && Dep.count(U->getValue());
  });
}

/// Each lane's address relative to lane 0 of the block's first warp, with
/// the values in Fixed as given; none when an offset is not a constant
/// (then *Stride, when asked, is lane 1's expression), or when a
/// thread-dependent operation stayed opaque in a lane's address (a
/// division of a loop counter the lanes cannot fold): equal opaque terms
/// would cancel as if every lane had the same value.
std::optional<std::vector<int64_t>>
laneOffsets(const llvm::SCEV *Addr, const WarpLanes &Lanes,
            const llvm::SmallPtrSetImpl<const llvm::Value *> &Dep,
            const llvm::ValueToSCEVMapTy &Fixed, llvm::ScalarEvolution &SE,
            const llvm::SCEV **Stride) {
  std::vector<int64_t> Off;
  const llvm::SCEV *Lane0 = nullptr;
  for (unsigned Lane = 0; Lane < Lanes.lanes(); ++Lane) {
    const llvm::SCEV *At = Lanes.at(Addr, 0, Lane, SE, Fixed);
    if (keepsOpaqueThreadValue(At, Dep))
      return std::nullopt;
    if (!Lane0) {
      Lane0 = At;
      Off.push_back(0);
      continue;
    }
    const llvm::SCEV *D = SE.getMinusSCEV(At, Lane0);
    const auto *C = llvm::dyn_cast<llvm::SCEVConstant>(D);
    if (!C) {
      if (Stride && Lane == 1 && !llvm::isa<llvm::SCEVCouldNotCompute>(D))
        *Stride = D;
      return std::nullopt;
    }
    Off.push_back(C->getAPInt().getSExtValue());
  }
  return Off;
}

/// Rows of a warp whose starts differ by a run-time amount are placed this
/// many bytes apart: beyond any row's own span, and a multiple of every
/// sector, so that each row starts one (the stated assumption).
constexpr int64_t FarApart = int64_t(1) << 40;

/// In a warp of several rows of threadIdx().x (a 2-d block), each lane's
/// offset when the rows' starts are a run-time amount apart (the column
/// stride of a column-major array, `4 × size(A, 1)`): within a row the
/// offsets must be constant; rows a constant apart share a cluster, and
/// clusters are FarApart. *RowStride is row 1's start minus row 0's.
std::optional<std::vector<int64_t>>
rowOffsets(const llvm::SCEV *Addr, const WarpLanes &Lanes, unsigned RowLen,
           const llvm::SmallPtrSetImpl<const llvm::Value *> &Dep,
           llvm::ScalarEvolution &SE, const llvm::SCEV *&RowStride) {
  if (!RowLen || RowLen >= Lanes.lanes())
    return std::nullopt;
  std::vector<int64_t> Off;
  std::vector<const llvm::SCEV *> Clusters;
  const llvm::SCEV *RowStart = nullptr;
  std::optional<int64_t> RowBase;
  for (unsigned Lane = 0; Lane < Lanes.lanes(); ++Lane) {
    const llvm::SCEV *At = Lanes.at(Addr, 0, Lane, SE);
    if (llvm::isa<llvm::SCEVCouldNotCompute>(At) ||
        keepsOpaqueThreadValue(At, Dep))
      return std::nullopt;
    if (Lane % RowLen == 0) {
      if (Lane == RowLen)
        RowStride = SE.getMinusSCEV(At, RowStart);
      RowStart = At;
      RowBase.reset();
      for (size_t C = 0; C < Clusters.size() && !RowBase; ++C)
        if (const auto *K = llvm::dyn_cast<llvm::SCEVConstant>(
                SE.getMinusSCEV(At, Clusters[C])))
          RowBase = int64_t(C) * FarApart + K->getAPInt().getSExtValue();
      if (!RowBase) {
        RowBase = int64_t(Clusters.size()) * FarApart;
        Clusters.push_back(At);
      }
    }
    const auto *K =
        llvm::dyn_cast<llvm::SCEVConstant>(SE.getMinusSCEV(At, RowStart));
    if (!K)
      return std::nullopt;
    Off.push_back(*RowBase + K->getAPInt().getSExtValue());
  }
  if (Clusters.size() < 2)
    return std::nullopt;
  return Off;
}

/// `size(A, 2)` for a load of a DeviceArray argument's dimension (field 1
/// of `{ptr, [N x i64]}`); empty for anything else.
std::string nameOf(const llvm::Value *V) {
  const auto *L = llvm::dyn_cast<llvm::LoadInst>(V);
  if (!L)
    return "";
  const auto *G = llvm::dyn_cast<llvm::GEPOperator>(L->getPointerOperand());
  const auto *Arg = llvm::dyn_cast<llvm::Argument>(G ? G->getPointerOperand()
                                                     : L->getPointerOperand());
  if (!G || !Arg || !Arg->hasName() || G->getNumIndices() < 2)
    return "";
  llvm::SmallVector<uint64_t, 3> Idx;
  for (const llvm::Use &U : G->indices()) {
    const auto *C = llvm::dyn_cast<llvm::ConstantInt>(U.get());
    if (!C)
      return "";
    Idx.push_back(C->getZExtValue());
  }
  if (Idx[0] != 0 || Idx[1] != 1 || Idx.size() > 3)
    return "";
  uint64_t Dim = Idx.size() == 3 ? Idx[2] + 1 : 1;
  return llvm::formatv("size({0}, {1})", Arg->getName(), Dim);
}

/// `C * size(A, k)` with C > 0: a column-major array's column stride.
std::optional<std::pair<int64_t, std::string>>
columnStride(const llvm::SCEV *S) {
  const auto *Mul = llvm::dyn_cast_or_null<llvm::SCEVMulExpr>(S);
  if (!Mul || Mul->getNumOperands() != 2 ||
      !llvm::isa<llvm::SCEVConstant>(Mul->getOperand(0)) ||
      !llvm::isa<llvm::SCEVUnknown>(Mul->getOperand(1)))
    return std::nullopt;
  int64_t C = llvm::cast<llvm::SCEVConstant>(Mul->getOperand(0))
                  ->getAPInt()
                  .getSExtValue();
  std::string Name =
      nameOf(llvm::cast<llvm::SCEVUnknown>(Mul->getOperand(1))->getValue());
  if (Name.empty() || C <= 0)
    return std::nullopt;
  return std::make_pair(C, Name);
}

const char *kindOf(const MemoryAccess &A) { return A.Store ? "store" : "load"; }

/// Rows of a warp a run-time amount apart (rowOffsets): that amount, and
/// what it takes for each row to start a sector.
struct RuntimeRows {
  std::string Stride, Assumption;
};

/// The lanes of a warp that run an access under a branch on the thread
/// index (`if t <= 2`): bit L for lane L.
struct ActiveLanes {
  uint64_t Bits = 0;
  unsigned Count = 0;
  unsigned Line = 0; ///< the branch's line, when it has one
  /// Every lane decided: exactly these run it (else at most these).
  bool Exact = true;
};

/// A block one thread wide in x, and at least a warp tall: a warp's lanes
/// are consecutive threadIdx().y.
bool alongY(const WarpModel &M, size_t Lanes) {
  return M.blockKnown() && M.Block[0] == 1 && M.Block[1] >= Lanes;
}

void judge(MemoryAccess &A, llvm::ArrayRef<int64_t> AllOff, const WarpModel &M,
           const std::string &Shape, const RuntimeRows *Rows = nullptr,
           const ActiveLanes *Active = nullptr,
           std::optional<int64_t> Lane0FromBase = std::nullopt) {
  // The first lane of the warp's second row of threadIdx().x, if it has one.
  // A block one thread wide lays the warp along threadIdx().y.
  const bool AlongY = alongY(M, AllOff.size());
  unsigned RowLane =
      M.blockKnown() && M.Block[0] < AllOff.size() && !AlongY ? M.Block[0] : 0;
  // Only the lanes that run the access touch memory; each keeps its place
  // (a wave64's halves are served apart).
  auto Runs = [&](size_t Lane) {
    return !Active || (Lane < 64 && (Active->Bits >> Lane & 1));
  };
  std::vector<int64_t> Off;
  for (size_t L = 0; L < AllOff.size(); ++L)
    if (Runs(L))
      Off.push_back(AllOff[L]);
  std::string Branch =
      Active && Active->Line
          ? llvm::formatv(" (the branch at line {0})", Active->Line).str()
          : std::string();
  std::string Who =
      Active ? llvm::formatv("; {0} {1} of a {2}'s {3} lanes run it{4}",
                             Active->Exact ? "only" : "at most", Active->Count,
                             M.Warp, AllOff.size(), Branch)
                   .str()
             : std::string();
  bool Uniform =
      std::all_of(Off.begin(), Off.end(), [](int64_t O) { return O == 0; });
  // A stride only where the lanes of a row of threadIdx().x are evenly
  // spaced (`x[(i + 1) ÷ 2]` reads pairs: 0, 0, 4, 4, ... is no stride).
  if (AllOff.size() > 1) {
    size_t Row = RowLane ? RowLane : AllOff.size();
    bool Even = true;
    for (size_t L = 0; L < Row && Even; ++L)
      Even = AllOff[L] == int64_t(L) * AllOff[1];
    if (Even)
      A.StrideBytes = AllOff[1];
  }
  const char *Space =
      A.Where == MemoryAccess::Space::Global ? "global" : "shared";
  std::string What = llvm::formatv("{0} {1} of {2}-byte values", Space,
                                   kindOf(A), A.ElementBytes);
  std::string Apart =
      A.StrideBytes ? llvm::formatv("consecutive threadIdx().{0} are {1} "
                                    "{2} apart",
                                    AlongY ? "y" : "x", *A.StrideBytes,
                                    *A.StrideBytes == 1 ? "byte" : "bytes")
                          .str()
                    : std::string("the lanes' addresses are not evenly spaced");
  if (RowLane && A.StrideBytes)
    Apart +=
        llvm::formatv(", consecutive threadIdx().y {0} bytes",
                      Rows ? Rows->Stride : std::to_string(AllOff[RowLane]));
  if (!Shape.empty())
    Apart += " (" + Shape + ")";
  if (Uniform) {
    A.Judged = MemoryAccess::Verdict::Uniform;
    A.Message = Active && Active->Count == 1
                    ? What + ": " + (Active->Exact ? "one" : "at most one") +
                          " lane of a " + M.warps() + " runs it" + Branch
                    : What + ": one address for the whole " + M.warps() +
                          " (a broadcast)" + Who;
    return;
  }
  std::set<int64_t> Distinct(Off.begin(), Off.end());
  if (A.Where == MemoryAccess::Space::Global) {
    // An array starts a sector (cudaMalloc aligns to 256 bytes): where lane
    // 0's offset from the array's start is a constant (`x[i + 1]`: 4
    // bytes), the warp lies where it says. Else the warp's lowest address
    // starts a sector, whichever lane has it: a reversed walk (`x[n - i +
    // 1]`) is as coalesced as a forward one.
    const int64_t Low = *std::min_element(AllOff.begin(), AllOff.end());
    const int64_t Shift = Lane0FromBase ? *Lane0FromBase : -Low;
    const int64_t Into =
        Shift + Low - floorDiv(Shift + Low, M.SectorBytes) * M.SectorBytes;
    std::set<int64_t> Sectors;
    for (int64_t O : Off) {
      Sectors.insert(floorDiv(O + Shift, M.SectorBytes));
      Sectors.insert(
          floorDiv(O + Shift + int64_t(A.ElementBytes) - 1, M.SectorBytes));
    }
    A.Sectors = unsigned(Sectors.size());
    A.IdealSectors = unsigned(
        (Distinct.size() * A.ElementBytes + M.SectorBytes - 1) / M.SectorBytes);
    // A misaligned start costs one more sector (per row of threadIdx().x
    // in a 2-d warp), not an uncoalesced access: said, not missed (a
    // stencil's x[i + 1] beside x[i]).
    const unsigned RowsInWarp =
        RowLane ? unsigned((AllOff.size() + RowLane - 1) / RowLane) : 1;
    const bool Misaligned = Into && A.Sectors > A.IdealSectors &&
                            A.Sectors <= A.IdealSectors + RowsInWarp;
    bool Good = A.Sectors <= A.IdealSectors || Misaligned;
    // Lanes that share a few addresses far apart (a 16×16 block's
    // `B[k, j]`, one word per threadIdx().y row) take a sector each, no
    // more than a coalesced access of the same lanes: a broadcast per
    // address, not an uncoalesced access.
    const unsigned FullSectors = unsigned(
        (Off.size() * A.ElementBytes + M.SectorBytes - 1) / M.SectorBytes);
    if (!Good && Distinct.size() < Off.size() && A.Sectors <= FullSectors) {
      A.Judged = MemoryAccess::Verdict::Uniform;
      A.Message = llvm::formatv(
          "{0}: {1}: {2} addresses for the {3}'s {4} lanes, each a broadcast "
          "to the lanes that share it, {5} {6}s of {7} bytes per {3}, no "
          "more than a coalesced access of {4} lanes takes",
          What, Apart, Distinct.size(), M.Warp, Off.size(), A.Sectors, M.Sector,
          M.SectorBytes);
      if (Rows)
        A.Message += " (assuming " + Rows->Assumption + ")";
      A.Message += Who;
      return;
    }
    A.Judged = Good ? MemoryAccess::Verdict::Good : MemoryAccess::Verdict::Poor;
    A.Message =
        Good ? llvm::formatv("coalesced {0}: {1}, {2} {5}{4} of {3} bytes "
                             "per {6}",
                             What, Apart, A.Sectors, M.SectorBytes,
                             A.Sectors == 1 ? "" : "s", M.Sector, M.Warp)
                   .str()
             : llvm::formatv("uncoalesced {0}: {1}, {2} {5}s of {3} bytes "
                             "per {6} where {4} would do",
                             What, Apart, A.Sectors, M.SectorBytes,
                             A.IdealSectors, M.Sector, M.Warp)
                   .str();
    if (Misaligned && RowsInWarp > 1)
      A.Message += llvm::formatv(": each row of threadIdx().x starts {0} "
                                 "{2} into a {1}, one {1} more per row than "
                                 "aligned starts take",
                                 Into, M.Sector, Into == 1 ? "byte" : "bytes");
    else if (Misaligned)
      A.Message +=
          llvm::formatv(": the {0} starts {1} {3} into a {2}, "
                        "one {2} more than an aligned start takes",
                        M.Warp, Into, M.Sector, Into == 1 ? "byte" : "bytes");
    // Rows of threadIdx().x too narrow to fill a sector each: the block's
    // shape, not the indexing, wastes the rest.
    uint64_t RowBytes = uint64_t(RowLane) * A.ElementBytes;
    if (!Good && RowLane && A.StrideBytes == int64_t(A.ElementBytes) &&
        RowBytes < M.SectorBytes)
      A.Message += llvm::formatv(
          ": a row of {0} threadIdx().x covers {1} bytes of a {2}-byte {3} "
          "(a block wider in x fills them)",
          RowLane, RowBytes, M.SectorBytes, M.Sector);
    // A misaligned row does not start a sector: only the multiple is assumed.
    if (Rows)
      A.Message +=
          " (assuming " +
          (Misaligned
               ? Rows->Assumption.substr(0, Rows->Assumption.find(", so that"))
               : Rows->Assumption) +
          ")";
    A.Message += Who;
    return;
  }
  // Shared memory: different words in one bank are served one after the
  // other; the same word is broadcast. Only the lanes served together
  // (a wave64's halves) can conflict. Values wider than a bank take one
  // bank per word, and the lanes are served in groups whose values fill
  // the banks once (a warp's 8-byte values in two halves of 16 lanes): those
  // passes are the access's minimum, not a conflict.
  size_t Group = M.BankLanes ? M.BankLanes : AllOff.size();
  const unsigned WordsPerValue =
      std::max(1u, unsigned((A.ElementBytes + M.BankBytes - 1) / M.BankBytes));
  if (WordsPerValue > 1)
    Group = std::min(Group, size_t(std::max(1u, M.Banks / WordsPerValue)));
  unsigned Ways = 1;
  for (size_t First = 0; First < AllOff.size(); First += Group) {
    std::map<int64_t, std::set<int64_t>> WordsPerBank;
    for (size_t L = First; L < std::min(First + Group, AllOff.size()); ++L)
      for (unsigned K = 0; Runs(L) && K < WordsPerValue; ++K) {
        int64_t Word = floorDiv(AllOff[L], M.BankBytes) + K;
        WordsPerBank[((Word % M.Banks) + M.Banks) % M.Banks].insert(Word);
      }
    for (const auto &[Bank, Words] : WordsPerBank)
      Ways = std::max(Ways, unsigned(Words.size()));
  }
  A.ConflictWays = Ways;
  if (Ways == 1) {
    A.Judged = MemoryAccess::Verdict::Good;
    A.Message = What + " without bank conflicts: " + Apart + Who;
    return;
  }
  A.Judged = MemoryAccess::Verdict::Poor;
  // N different words of one bank take N passes (N - 1 replays); lanes
  // asking for one word share it.
  std::string Served = Group < AllOff.size()
                           ? llvm::formatv("the {0} lanes served together "
                                           "(part of a {1})",
                                           Group, M.Warp)
                                 .str()
                           : "a " + M.warps() + "'s threads";
  A.Message = llvm::formatv("{0}-way bank conflict in a {1}: {2}, so {4} "
                            "ask one of the {3} banks for {0} different "
                            "words, served one per pass: {0} passes where 1 "
                            "would do{5}",
                            Ways, What, Apart, M.Banks, Served, Who);
}

/// Whether every path from BB ends in a throw (a bounds check's error
/// block): a lane that goes there stops the kernel.
bool throwsOnly(const llvm::BasicBlock *BB) {
  for (unsigned Steps = 0; BB && Steps < 8; ++Steps) {
    if (llvm::isa<llvm::UnreachableInst>(BB->getTerminator()))
      return true;
    BB = BB->getSingleSuccessor();
  }
  return false;
}

/// Warps whose lanes a guard is decided in when the block is not known
/// (Divergence judges as many).
constexpr unsigned GuardWarpsWithoutBlock = 8;
/// Lane decisions of guards per function: beyond it, accesses are judged
/// over whole warps, as without guards.
constexpr size_t MaxGuardEvaluations = size_t(1) << 16;

/// The lanes that reach \p I in the warp where most do: each branch on the
/// thread index that I is reached through one side of (`if t <= 2` around
/// it) decided per lane, in each warp of the block (the first 8 without
/// it), with the loop counters in \p Fixed. A lane the branch sends the
/// other way is out; one it cannot decide (`n > 0 && t <= 16` where
/// `t <= 16` holds) stays, and the count is then at most. Branches to a
/// throw are left out. None when a whole warp runs it. \p Budget counts
/// lane decisions.
std::optional<ActiveLanes>
activeLanes(const llvm::Instruction &I, const WarpLanes &Lanes,
            const WarpModel &M, const llvm::DominatorTree &DT,
            llvm::ScalarEvolution &SE,
            const llvm::SmallPtrSetImpl<const llvm::Value *> &Dep,
            llvm::ValueToSCEVMapTy &SamePhis,
            const llvm::ValueToSCEVMapTy &Fixed, size_t &Budget) {
  // The guards, each with the side that leads to I.
  llvm::SmallVector<std::pair<const llvm::BranchInst *, bool>, 4> Guards;
  const llvm::BasicBlock *At = I.getParent();
  for (const llvm::DomTreeNode *Node = DT.getNode(At); Node && Node->getIDom();
       Node = Node->getIDom()) {
    const llvm::BasicBlock *D = Node->getIDom()->getBlock();
    const auto *Br = llvm::dyn_cast<llvm::BranchInst>(D->getTerminator());
    if (!Br || !Br->isConditional() || !Dep.count(Br->getCondition()) ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    std::optional<bool> Side;
    for (unsigned K = 0; K < 2 && !Side; ++K)
      if (DT.dominates(llvm::BasicBlockEdge(D, Br->getSuccessor(K)), At))
        Side = K == 0;
    if (Side && !throwsOnly(Br->getSuccessor(*Side ? 1 : 0)))
      Guards.push_back({Br, *Side});
  }
  if (Guards.empty())
    return std::nullopt;
  const unsigned Warps =
      Lanes.warpsPerBlock() ? Lanes.warpsPerBlock() : GuardWarpsWithoutBlock;
  std::optional<ActiveLanes> Most;
  for (unsigned W = 0; W < Warps; ++W) {
    unsigned N = std::min(Lanes.lanes(), 64u);
    if (M.blockKnown())
      N = std::min(N, M.blockThreads() - W * M.WarpSize);
    const uint64_t All = N == 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
    ActiveLanes Out;
    Out.Bits = All;
    for (auto [Br, Side] : Guards) {
      for (unsigned L = 0; L < N; ++L) {
        if (!(Out.Bits >> L & 1))
          continue;
        if (Budget++ >= MaxGuardEvaluations)
          return std::nullopt;
        std::optional<bool> V = decideCondition(
            Br->getCondition(),
            [&](const llvm::ICmpInst &C) -> std::optional<bool> {
              if (!SE.isSCEVable(C.getOperand(0)->getType()))
                return std::nullopt;
              auto Lane = [&](llvm::Value *X) {
                return Lanes.at(llvm::SCEVParameterRewriter::rewrite(
                                    SE.getSCEV(X), SE, SamePhis),
                                W, L, SE, Fixed);
              };
              return SE.evaluatePredicate(C.getPredicate(),
                                          Lane(C.getOperand(0)),
                                          Lane(C.getOperand(1)));
            });
        if (!V) {
          Out.Exact = false;
        } else if (*V != Side) {
          Out.Bits &= ~(uint64_t(1) << L);
          if (!Out.Line)
            if (const llvm::DILocation *DL = Br->getDebugLoc().get())
              Out.Line = DL->getLine();
        }
      }
    }
    // A whole warp runs it: judged as the whole warp.
    if (Out.Bits == All)
      return std::nullopt;
    Out.Count = unsigned(std::popcount(Out.Bits));
    if (!Most || Out.Count > Most->Count)
      Most = Out;
  }
  if (!Most || !Most->Count)
    return std::nullopt;
  return Most;
}

/// The scalar (or vector) parts of a value of type \p Ty at byte offset
/// \p At, as the backend loads and stores them: a struct's or array's
/// fields one by one, padding skipped.
void scalarLeaves(llvm::Type *Ty, const llvm::DataLayout &DL, uint64_t At,
                  llvm::SmallVectorImpl<std::pair<uint64_t, unsigned>> &Out) {
  if (auto *ST = llvm::dyn_cast<llvm::StructType>(Ty)) {
    const llvm::StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned K = 0; K < ST->getNumElements(); ++K)
      scalarLeaves(ST->getElementType(K), DL, At + SL->getElementOffset(K),
                   Out);
    return;
  }
  if (auto *AT = llvm::dyn_cast<llvm::ArrayType>(Ty);
      AT && AT->getNumElements() <= 16) {
    const uint64_t Step = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t K = 0; K < AT->getNumElements(); ++K)
      scalarLeaves(AT->getElementType(), DL, At + K * Step, Out);
    return;
  }
  Out.push_back({At, unsigned(DL.getTypeStoreSize(Ty).getFixedValue())});
}

/// Lane 0's offset from the start of its array (SCEV's pointer base, in
/// the access's own address space) in the first block, where the block's
/// offset is 0, when it is a constant: an array starts a sector, so this
/// places the warp in one. With \p DimsAligned, each dimension of an array
/// argument (`size(A, 1)`) is taken as a multiple of 1024 elements, which
/// the 2-d rows' stated assumption (each row starts a sector) allows.
std::optional<int64_t> lane0FromBase(const llvm::SCEV *Addr,
                                     const WarpLanes &Lanes,
                                     llvm::ScalarEvolution &SE,
                                     bool DimsAligned,
                                     std::string *DimsTaken = nullptr) {
  llvm::ValueToSCEVMapTy First;
  Lanes.bindBlock(0, First, SE);
  const llvm::SCEV *Lane0 = Lanes.at(Addr, 0, 0, SE, First);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(Lane0) ||
      !Lane0->getType()->isPointerTy())
    return std::nullopt;
  const llvm::SCEV *D = SE.getMinusSCEV(Lane0, SE.getPointerBase(Lane0));
  if (DimsAligned && !llvm::isa<llvm::SCEVConstant>(D)) {
    llvm::ValueToSCEVMapTy Dims;
    llvm::SCEVExprContains(D, [&](const llvm::SCEV *X) {
      const auto *U = llvm::dyn_cast<llvm::SCEVUnknown>(X);
      if (!U)
        return false;
      if (std::string Name = nameOf(U->getValue()); !Name.empty()) {
        if (DimsTaken && !Dims.count(U->getValue()))
          *DimsTaken += (DimsTaken->empty() ? "" : " and ") + Name;
        Dims[U->getValue()] = SE.getConstant(U->getType(), 1024);
      } else if (const auto *Read =
                     llvm::dyn_cast<llvm::IntrinsicInst>(U->getValue());
                 Read && Read->arg_size() == 0 && U->getType()->isIntegerTy()) {
        // A special register left unbound (threadIdx().y of a warp whose
        // block is not given): any row, and each starts alike once the
        // dimensions are multiples.
        Dims[U->getValue()] = SE.getConstant(U->getType(), 0);
      }
      return false;
    });
    D = llvm::SCEVParameterRewriter::rewrite(D, SE, Dims);
  }
  if (const auto *K = llvm::dyn_cast<llvm::SCEVConstant>(D))
    return K->getAPInt().getSExtValue();
  return std::nullopt;
}

/// A warp of X threadIdx().x columns, `C × Name` bytes apart, whose
/// threadIdx().y lanes lie a constant apart within each column (`out[j,
/// i]` with a block 4 wide): the sectors each column's lanes touch, with the
/// columns taken to start sectors alike (Name a multiple). False when the
/// lanes of a column are not a constant apart.
bool judgeColumns(MemoryAccess &A, const llvm::SCEV *Addr,
                  const WarpLanes &Lanes, llvm::ScalarEvolution &SE,
                  const WarpModel &M, int64_t C, const std::string &Name,
                  const std::string &Shape) {
  const unsigned X = M.Block[0];
  std::vector<int64_t> InColumn;
  for (unsigned L = 0; L < Lanes.lanes(); ++L) {
    const auto *K = llvm::dyn_cast<llvm::SCEVConstant>(SE.getMinusSCEV(
        Lanes.at(Addr, 0, L, SE), Lanes.at(Addr, 0, L % X, SE)));
    if (!K)
      return false;
    InColumn.push_back(K->getAPInt().getSExtValue());
  }
  const int64_t YStride = InColumn[X];
  if (!YStride)
    return false; // each column one address: left to the stride message
  const int64_t Shift =
      lane0FromBase(Addr, Lanes, SE, /*DimsAligned=*/true).value_or(0);
  const int64_t S = M.SectorBytes;
  std::set<std::pair<unsigned, int64_t>> Sectors, Distinct;
  for (unsigned L = 0; L < InColumn.size(); ++L) {
    const int64_t O = InColumn[L] + Shift;
    Distinct.insert({L % X, O});
    Sectors.insert({L % X, floorDiv(O, S)});
    Sectors.insert({L % X, floorDiv(O + int64_t(A.ElementBytes) - 1, S)});
  }
  A.Sectors = unsigned(Sectors.size());
  A.IdealSectors =
      unsigned((Distinct.size() * A.ElementBytes + uint64_t(S) - 1) / S);
  const int64_t Into = Shift - floorDiv(Shift, S) * S;
  const bool Misaligned =
      Into && A.Sectors > A.IdealSectors && A.Sectors <= A.IdealSectors + X;
  const bool Good = A.Sectors <= A.IdealSectors || Misaligned;
  A.Judged = Good ? MemoryAccess::Verdict::Good : MemoryAccess::Verdict::Poor;
  A.Message = llvm::formatv(
      "{0} global {1} of {2}-byte values: consecutive threadIdx().y are {3} "
      "bytes apart, consecutive threadIdx().x {4} × {5} bytes ({6}), {7} "
      "{8}s of {9} bytes per {10}",
      Good ? "coalesced" : "uncoalesced", kindOf(A), A.ElementBytes, YStride, C,
      Name, Shape, A.Sectors, M.Sector, S, M.Warp);
  if (!Good)
    A.Message += llvm::formatv(" where {0} would do (a column-major array is "
                               "contiguous down a column: index its first "
                               "dimension with threadIdx().x)",
                               A.IdealSectors);
  if (Misaligned)
    A.Message += llvm::formatv(": each column starts {0} bytes into a {1}",
                               Into, M.Sector);
  A.Message += llvm::formatv(" (assuming {0} is a multiple of {1})", Name,
                             S / std::gcd(C, S));
  return true;
}

} // namespace

std::vector<MemoryAccess> analyseMemoryAccesses(llvm::Function &F,
                                                const WarpModel &M) {
  std::vector<MemoryAccess> Out;
  WarpLanes Lanes(F, M);
  if (Lanes.empty())
    return Out;
  llvm::DenseSet<const llvm::Value *> Tids(Lanes.reads().begin(),
                                           Lanes.reads().end());
  auto Dep = threadDependent(Lanes.reads());
  std::string Shape = Lanes.shape();

  llvm::TargetLibraryInfoImpl TLII(
      llvm::Triple(F.getParent()->getTargetTriple()));
  llvm::TargetLibraryInfo TLI(TLII);
  llvm::AssumptionCache AC(F);
  llvm::DominatorTree DT(F);
  llvm::LoopInfo LI(DT);
  llvm::ScalarEvolution SE(F, TLI, AC, DT, LI);
  const llvm::DataLayout &DL = F.getParent()->getDataLayout();
  llvm::ValueToSCEVMapTy SamePhis = phisOfOneValue(F, LI, SE);
  size_t GuardBudget = 0;

  for (llvm::Instruction &I : llvm::instructions(F)) {
    if (Out.size() >= MaxAccessesPerFunction)
      break;
    llvm::Value *Ptr = nullptr;
    llvm::Type *Ty = nullptr;
    bool Store = false;
    if (auto *L = llvm::dyn_cast<llvm::LoadInst>(&I)) {
      Ptr = L->getPointerOperand();
      Ty = L->getType();
    } else if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I)) {
      Ptr = S->getPointerOperand();
      Ty = S->getValueOperand()->getType();
      Store = true;
    } else {
      continue;
    }
    // Which memory: shared arrays reach loads through an addrspacecast to
    // a generic pointer; local variables are allocas.
    unsigned AS = Ptr->getType()->getPointerAddressSpace();
    const llvm::Value *Base = llvm::getUnderlyingObject(Ptr);
    if (llvm::isa<llvm::AllocaInst>(Base))
      continue;
    if (Base->getType()->getPointerAddressSpace() == M.SharedAS)
      AS = M.SharedAS;
    else if (M.GenericAS && AS == *M.GenericAS)
      AS = M.GlobalAS;
    if ((AS != M.GlobalAS && AS != M.SharedAS) || !Ty->isSized() ||
        !Dep.count(Ptr))
      continue;
    MemoryAccess Proto;
    Proto.Inst = &I;
    Proto.Store = Store;
    Proto.Where = AS == M.GlobalAS ? MemoryAccess::Space::Global
                                   : MemoryAccess::Space::Shared;
    const llvm::SCEV *WholeAddr =
        llvm::SCEVParameterRewriter::rewrite(SE.getSCEV(Ptr), SE, SamePhis);
    if (llvm::isa<llvm::SCEVCouldNotCompute>(WholeAddr) ||
        dependsOnLoadedData(WholeAddr, Dep, Tids, SE))
      continue; // a gather, a per-thread select: not an affine function of the
                // lane
    // A phi that merges the arms of a branch (two stores sunk out of `if t
    // % 2 == 0 ... else ...`) may differ per lane, which no lane's
    // rewriting shows: left unjudged, as a per-thread select is.
    if (llvm::SCEVExprContains(WholeAddr, [&](const llvm::SCEV *X) {
          const auto *U = llvm::dyn_cast<llvm::SCEVUnknown>(X);
          const auto *Phi =
              U ? llvm::dyn_cast<llvm::PHINode>(U->getValue()) : nullptr;
          return Phi && !LI.isLoopHeader(Phi->getParent());
        }))
      continue;
    // A struct LLVM kept whole (mixed fields: `{double, float}`) is one
    // access per scalar field in the hardware (ld.global.f64, then
    // ld.global.f32): each is judged at its offset and size.
    llvm::SmallVector<std::pair<uint64_t, unsigned>, 4> Leaves;
    scalarLeaves(Ty, DL, 0, Leaves);
    llvm::Type *IndexTy = DL.getIndexType(Ptr->getType());
    for (auto [LeafOffset, LeafBytes] : Leaves) {
      if (Out.size() >= MaxAccessesPerFunction)
        break;
      MemoryAccess A = Proto;
      A.ElementBytes = LeafBytes;
      const llvm::SCEV *Addr =
          LeafOffset
              ? SE.getAddExpr(WholeAddr, SE.getConstant(IndexTy, LeafOffset))
              : WholeAddr;
      const llvm::SCEV *Stride = nullptr;
      std::optional<std::vector<int64_t>> Off =
          laneOffsets(Addr, Lanes, Dep, llvm::ValueToSCEVMapTy(), SE, &Stride);
      std::optional<ActiveLanes> Active =
          activeLanes(I, Lanes, M, DT, SE, Dep, SamePhis,
                      llvm::ValueToSCEVMapTy(), GuardBudget);
      // A loop counter SCEV could not fold into the address (a division of
      // it, a narrowed phi): the lanes' pattern may still be the same on
      // every iteration. Try a few iterations; agreeing offsets are the answer.
      bool SampledCounters = false;
      if (!Off) {
        llvm::SmallVector<llvm::Value *, 4> Counters =
            loopCountersIn(Addr, LI, SE);
        SampledCounters = !Counters.empty();
        if (!Counters.empty()) {
          for (int64_t Sample : {0, 1, 2, 7}) {
            llvm::ValueToSCEVMapTy Fixed;
            for (llvm::Value *C : Counters)
              Fixed[C] =
                  SE.getConstant(llvm::isa<llvm::BasicBlock>(C)
                                     ? llvm::Type::getInt64Ty(C->getContext())
                                     : C->getType(),
                                 Sample);
            auto SampleOff = laneOffsets(Addr, Lanes, Dep, Fixed, SE, nullptr);
            if (!SampleOff || (Off && *Off != *SampleOff)) {
              Off.reset();
              break;
            }
            Off = std::move(SampleOff);
            // The lanes a guard lets through may change with the counter
            // too: then the whole warp is judged, as without guards.
            auto SampleActive = activeLanes(I, Lanes, M, DT, SE, Dep, SamePhis,
                                            Fixed, GuardBudget);
            if (Sample == 0)
              Active = SampleActive;
            else if (!SampleActive || !Active ||
                     SampleActive->Bits != Active->Bits)
              Active.reset();
          }
        }
      }
      // An index built from the block that no lane folds (`x[(i + 1) ÷ 2]`):
      // the lanes decide it once the block is fixed. With the block shape
      // known, the first four blocks must agree; without it, the first
      // block is judged, and said to be.
      bool FirstBlockOnly = false;
      if (!Off && Lanes.readsBlockIndex()) {
        const unsigned Blocks = M.blockKnown() ? 4 : 1;
        for (unsigned Blk = 0; Blk < Blocks; ++Blk) {
          llvm::ValueToSCEVMapTy Fixed;
          Lanes.bindBlock(Blk, Fixed, SE);
          auto BlockOff = laneOffsets(Addr, Lanes, Dep, Fixed, SE, nullptr);
          if (!BlockOff || (Off && *Off != *BlockOff)) {
            Off.reset();
            break;
          }
          Off = std::move(BlockOff);
          if (Blk == 0)
            Active = activeLanes(I, Lanes, M, DT, SE, Dep, SamePhis, Fixed,
                                 GuardBudget);
        }
        FirstBlockOnly = Off && !M.blockKnown();
      }
      if (Off) {
        // Lane 0's place in a sector; in a column other than the first (`a[i,
        // j + 1]`), with the array's columns taken to start sectors, as
        // the remark then says.
        std::optional<int64_t> FromBase;
        std::string Dims;
        if (A.Where == MemoryAccess::Space::Global && !SampledCounters)
          FromBase =
              lane0FromBase(Addr, Lanes, SE, /*DimsAligned=*/true, &Dims);
        judge(A, *Off, M, Shape, nullptr, Active ? &*Active : nullptr,
              FromBase);
        if (FromBase && !Dims.empty() &&
            A.Judged != MemoryAccess::Verdict::Uniform)
          A.Message += llvm::formatv(
              " (assuming {0} {1} a multiple of {2})", Dims,
              Dims.find(" and ") == std::string::npos ? "is" : "are",
              M.SectorBytes /
                  std::gcd(int64_t(A.ElementBytes), int64_t(M.SectorBytes)));
        if (FirstBlockOnly)
          A.Message += " (judged in the first block)";
        Out.push_back(std::move(A));
        continue;
      }
      // A warp of several threadIdx().x rows whose starts are a run-time
      // stride apart (`B[i, j]` with j from threadIdx().y): judged row by row.
      const llvm::SCEV *RowStride = nullptr;
      if (A.Where == MemoryAccess::Space::Global && M.blockKnown() && !Stride)
        if (auto RowOff =
                rowOffsets(Addr, Lanes, M.Block[0], Dep, SE, RowStride)) {
          RuntimeRows Rows;
          std::string Starts =
              "each row of threadIdx().x starts a " + std::string(M.Sector);
          Rows.Assumption = Starts;
          if (auto Column = columnStride(RowStride)) {
            auto [C, Name] = *Column;
            Rows.Stride = llvm::formatv("{0} × {1}", C, Name);
            int64_t Multiple =
                M.SectorBytes / std::gcd(C, int64_t(M.SectorBytes));
            if (Multiple > 1)
              Rows.Assumption =
                  llvm::formatv("{0} is a multiple of {1}, so that "
                                "{2}",
                                Name, Multiple, Starts);
          } else {
            Rows.Stride =
                RowStride ? scevText(RowStride) : "a run-time amount of";
          }
          judge(A, *RowOff, M, Shape, &Rows, Active ? &*Active : nullptr,
                lane0FromBase(Addr, Lanes, SE, /*DimsAligned=*/true));
          Out.push_back(std::move(A));
          continue;
        }
      if (!Stride)
        continue;
      const char *Space =
          A.Where == MemoryAccess::Space::Global ? "global" : "shared";
      // `C * size(A, 1)`: a column-major array walked along a row.
      if (auto Column = columnStride(Stride)) {
        auto [C, Name] = *Column;
        // A block narrower than a warp in x: each threadIdx().x is a column
        // that the warp's threadIdx().y may walk down (`out[j, i]`).
        if (M.blockKnown() && M.Block[0] > 1 && M.Block[0] < Lanes.lanes() &&
            judgeColumns(A, Addr, Lanes, SE, M, C, Name, Shape)) {
          Out.push_back(std::move(A));
          continue;
        }
        A.Judged = MemoryAccess::Verdict::Poor;
        if (alongY(M, Lanes.lanes())) {
          A.Message = llvm::formatv(
              "uncoalesced {0} {1} of {2}-byte values: a block one thread "
              "wide lays a {8} along threadIdx().y, whose consecutive values "
              "are {3} × {4} bytes apart, so each thread touches its own "
              "{5}-byte {6} once {4} ≥ {7} (a block wider in x lets "
              "threadIdx().x walk down the column){9}",
              Space, kindOf(A), A.ElementBytes, C, Name, M.SectorBytes,
              M.Sector, (M.SectorBytes + C - 1) / C, M.Warp,
              Shape.empty() ? "" : " (" + Shape + ")");
          Out.push_back(std::move(A));
          continue;
        }
        // In a 2-d block a warp holds fewer threadIdx().x values than
        // threads: each of them, not each thread, is a sector of its own.
        unsigned XLanes = Lanes.lanes();
        if (M.blockKnown())
          XLanes = std::min(XLanes, M.Block[0]);
        std::string Who =
            XLanes < Lanes.lanes()
                ? llvm::formatv("each of the {0} threadIdx().x values of a {1}",
                                XLanes, M.Warp)
                      .str()
                : "each thread of a " + M.warps();
        A.Message = llvm::formatv(
            "uncoalesced {0} {1} of {2}-byte values: consecutive "
            "threadIdx().x are {3} × {4} bytes apart, so {7} touches its "
            "own {5}-byte {8} once {4} ≥ {6} (a column-major array is "
            "contiguous down a column: index its first dimension with "
            "threadIdx().x){9}",
            Space, kindOf(A), A.ElementBytes, C, Name, M.SectorBytes,
            (M.SectorBytes + C - 1) / C, Who, M.Sector,
            Shape.empty() ? "" : " (" + Shape + ")");
        Out.push_back(std::move(A));
        continue;
      }
      A.Judged = MemoryAccess::Verdict::Unknown;
      std::string Text = scevText(Stride);
      A.Message = llvm::formatv(
          "{0} {1} of {2}-byte values with a stride known only at run "
          "time{3}: coalesced only if consecutive threadIdx().x are {2} bytes "
          "apart",
          Space, kindOf(A), A.ElementBytes,
          Text.size() <= 60 ? " (" + Text + " bytes, LLVM's expression)" : "");
      Out.push_back(std::move(A));
    }
  }
  return Out;
}

const char *MemoryAccess::name() const {
  switch (Judged) {
  case Verdict::Uniform:
    return "Broadcast";
  case Verdict::Unknown:
    return "RuntimeStride";
  case Verdict::Good:
    return Where == Space::Global ? "Coalesced" : "ConflictFree";
  case Verdict::Poor:
    return Where == Space::Global ? "Uncoalesced" : "BankConflict";
  }
  return "";
}

} // namespace prism
