// The host device: LLJIT for native objects, HostRuntime for launches.
#include "devices/HostDevice.h"

#include "codegen/Runtime.h"
#include "devices/HostRuntime.h"
#include "devices/ObjectSourceLines.h"
#include "targets/HostInfo.h"
#include "targets/NativeTarget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/JITSymbol.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace prism {

namespace {

std::string errorText(llvm::Error E) { return llvm::toString(std::move(E)); }

//===----------------------------------------------------------------------===//
// Argument and return value layout
//===----------------------------------------------------------------------===//

/// Size and alignment of a value in the module's memory layout. The native
/// DataLayout aligns each primitive to its size (x86-64, AArch64), so a
/// tuple is a C struct of its non-ghost elements (an NTuple's array has the
/// same layout), and a DeviceArray{T,N} is `{ptr, [N x i64]}`.
struct ValueLayout {
  uint64_t Size = 0, Align = 1;
};

uint64_t alignTo(uint64_t V, uint64_t A) { return (V + A - 1) / A * A; }

ValueLayout layoutOf(const HostValue &V) {
  switch (V.kind()) {
  case HostValue::Kind::Nothing:
  case HostValue::Kind::Function:
  case HostValue::Kind::Type:
    return {};
  case HostValue::Kind::Scalar: {
    uint64_t B = scalarBytes(V.scalarKind());
    return {B, B};
  }
  case HostValue::Kind::Array:
    return {8 + 8 * uint64_t(V.dims().size()), 8};
  case HostValue::Kind::Tuple: {
    ValueLayout L;
    for (const HostValue &E : V.elements()) {
      ValueLayout EL = layoutOf(E);
      if (EL.Size == 0)
        continue;
      L.Size = alignTo(L.Size, EL.Align) + EL.Size;
      L.Align = std::max(L.Align, EL.Align);
    }
    L.Size = alignTo(L.Size, L.Align);
    return L;
  }
  }
  return {};
}

/// An array's bytes while a launch runs: between two guard zones, so that
/// an `@inbounds` access just outside the array lands in a zone instead of
/// the allocator's bookkeeping (a write there crashed the process later,
/// in `free`), and a write there is reported. Past the zones lie pages that
/// cannot be touched at all, so that an access further out (a few KiB to
/// hundreds of MiB) faults at its line instead of writing over Prism's own
/// memory.
class GuardedArray {
public:
  static constexpr size_t Guard = 4096;
  static constexpr uint8_t Canary = 0xa5;
  /// Inaccessible address space on each side: only reserved, never backed.
  /// Halved while the mapping fails (a `ulimit -v` counts it).
  static constexpr size_t MaxFence = size_t(256) << 20, MinFence = 64 << 10;

  explicit GuardedArray(HostValue &V) : V(V), Size(V.bytes().size()) {
    if (!Size) // no data: its null pointer faults at the access's line
      return;
    size_t Page = size_t(::sysconf(_SC_PAGESIZE));
    size_t Used = (Guard + Size + Guard + Page - 1) / Page * Page;
    for (size_t F = MaxFence; F >= MinFence && !Map; F /= 2) {
      void *P = ::mmap(nullptr, F + Used + F, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (P == MAP_FAILED)
        continue;
      auto *Base = static_cast<uint8_t *>(P);
      if (::mprotect(Base + F, Used, PROT_READ | PROT_WRITE) != 0) {
        ::munmap(P, F + Used + F);
        continue;
      }
      Map = Base;
      MapBytes = F + Used + F;
      Buf = Base + F;
    }
    if (!Map) { // no address space to spare: the zones alone, on the heap
      Heap = std::make_unique<uint8_t[]>(Guard + Size + Guard);
      Buf = Heap.get();
    }
    std::memset(Buf, Canary, Guard);
    std::memcpy(data(), V.bytes().data(), Size);
    std::memset(data() + Size, Canary, Guard);
  }
  ~GuardedArray() {
    if (Map)
      ::munmap(Map, MapBytes);
  }
  GuardedArray(const GuardedArray &) = delete;
  GuardedArray &operator=(const GuardedArray &) = delete;
  uint8_t *data() { return Buf ? Buf + Guard : nullptr; }
  const HostValue &value() const { return V; }
  /// Copies the kernel's writes back; how many bytes before the array's
  /// start (negative) or after its end a write reached, or 0.
  int64_t finish() {
    if (!Buf)
      return 0;
    std::memcpy(V.bytes().data(), data(), Size);
    for (size_t I = 0; I < Guard; ++I)
      if (Buf[I] != Canary)
        return -int64_t(Guard - I);
    for (size_t I = Guard; I-- > 0;)
      if (data()[Size + I] != Canary)
        return int64_t(I + 1);
    return 0;
  }

private:
  HostValue &V;
  size_t Size;
  uint8_t *Buf = nullptr; ///< the front zone, then the array, then the back
  uint8_t *Map = nullptr;
  size_t MapBytes = 0;
  std::unique_ptr<uint8_t[]> Heap;
};

/// Every array in V (a tuple's too), guarded.
void guardArrays(HostValue &V,
                 std::vector<std::unique_ptr<GuardedArray>> &Out) {
  if (V.isArray()) {
    Out.push_back(std::make_unique<GuardedArray>(V));
    return;
  }
  for (HostValue &E : V.elements())
    guardArrays(E, Out);
}

/// Writes V at Dst in memory layout. Arrays are passed by the address of
/// their guarded copy (the kernel reads and writes it in place), in the
/// order guardArrays made them.
void encode(HostValue &V, uint8_t *Dst,
            const std::unique_ptr<GuardedArray> *&Guarded) {
  switch (V.kind()) {
  case HostValue::Kind::Nothing:
  case HostValue::Kind::Function:
  case HostValue::Kind::Type:
    return;
  case HostValue::Kind::Scalar: {
    uint64_t Bits = V.bits(); // little-endian: the low bytes come first
    std::memcpy(Dst, &Bits, scalarBytes(V.scalarKind()));
    return;
  }
  case HostValue::Kind::Array: {
    void *P = (*Guarded++)->data();
    std::memcpy(Dst, &P, sizeof P);
    llvm::ArrayRef<int64_t> Dims = V.dims();
    std::memcpy(Dst + 8, Dims.data(), Dims.size() * sizeof(int64_t));
    return;
  }
  case HostValue::Kind::Tuple: {
    uint64_t Off = 0;
    for (HostValue &E : V.elements()) {
      ValueLayout EL = layoutOf(E);
      if (EL.Size == 0)
        continue;
      Off = alignTo(Off, EL.Align);
      encode(E, Dst + Off, Guarded);
      Off += EL.Size;
    }
    return;
  }
  }
}

/// Reads a value shaped like Shape from Src (the launch wrapper's `ret`).
HostValue decode(const HostValue &Shape, const uint8_t *Src) {
  switch (Shape.kind()) {
  case HostValue::Kind::Nothing:
  case HostValue::Kind::Function:
  case HostValue::Kind::Type:
  case HostValue::Kind::Array: // rejected at load
    return Shape;
  case HostValue::Kind::Scalar: {
    uint64_t Bits = 0;
    std::memcpy(&Bits, Src, scalarBytes(Shape.scalarKind()));
    if (Shape.scalarKind() == ScalarKind::Bool)
      Bits &= 1;
    return HostValue::scalar(Shape.scalarKind(), Bits);
  }
  case HostValue::Kind::Tuple: {
    std::vector<HostValue> Elts;
    uint64_t Off = 0;
    for (const HostValue &E : Shape.elements()) {
      ValueLayout EL = layoutOf(E);
      if (EL.Size == 0) {
        Elts.push_back(E);
        continue;
      }
      Off = alignTo(Off, EL.Align);
      Elts.push_back(decode(E, Src + Off));
      Off += EL.Size;
    }
    return Shape.withElements(std::move(Elts));
  }
  }
  return Shape;
}

bool containsArray(const HostValue &V) {
  if (V.isArray())
    return true;
  for (const HostValue &E : V.elements())
    if (containsArray(E))
      return true;
  return false;
}

/// Whether the object references the barrier hook (then blocks of more
/// than one thread run as fibers).
llvm::Expected<bool> referencesBarrier(llvm::ArrayRef<uint8_t> Object) {
  llvm::MemoryBufferRef Ref(
      llvm::StringRef(reinterpret_cast<const char *>(Object.data()),
                      Object.size()),
      "kernel");
  auto Obj = llvm::object::ObjectFile::createObjectFile(Ref);
  if (!Obj)
    return Obj.takeError();
  for (const llvm::object::SymbolRef &S : (*Obj)->symbols()) {
    llvm::Expected<llvm::StringRef> Name = S.getName();
    if (!Name) {
      llvm::consumeError(Name.takeError());
      continue;
    }
    if (*Name == SyncThreadsHookName)
      return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

class HostDevice;

class HostKernel final : public LoadedKernel {
public:
  HostKernel(HostDevice &Dev, llvm::orc::JITDylib &JD, std::string Entry)
      : Dev(Dev), JD(&JD) {
    this->Entry = std::move(Entry);
  }
  ~HostKernel() override;
  void setAttributes(std::vector<DeviceProperty> A) { Attributes = std::move(A); }

  HostDevice &Dev;
  llvm::orc::JITDylib *JD;
  host::LaunchWrapperFn Fn = nullptr;
  host::LaunchWrapperFn BlockFn = nullptr; ///< kernels: all threads of a block
  uint64_t SharedBytes = 0;
  bool UsesBarriers = false;
  HostValue ReturnShape;
  ValueLayout ReturnLayout;
  /// The object's line tables, placed where the JIT loaded it: a throw's
  /// or fault's addresses map back to source lines through them.
  std::unique_ptr<ObjectSourceLines> Lines;
  /// The launch wrappers' names (`jfptr_NAME`, `jfptr_block_NAME`): the
  /// outermost compiled frames, which are not the user's.
  std::string WrapperSymbol, BlockWrapperSymbol;
};

/// A throw's or fault's compiled frames as source frames, innermost first;
/// the launch wrappers' frames are left out.
std::vector<BacktraceFrame> sourceStack(const HostKernel &K,
                                        const ThrownException &E) {
  std::vector<BacktraceFrame> Stack;
  if (!K.Lines)
    return Stack;
  // A stack overflow faults in the prologue of the call that did not fit
  // (a push, whose line is the definition's or, by the line table, an
  // inlined callee's): the recursion is where that call was made, the next
  // frame, and a run must not place it by which push faulted.
  size_t First = static_cast<ThrowKind>(E.Kind) == ThrowKind::StackOverflowError &&
                         E.CodeAddresses.size() > 1
                     ? 1
                     : 0;
  for (size_t I = First; I < E.CodeAddresses.size(); ++I) {
    if (I == E.OmittedAt && E.OmittedCalls && !Stack.empty())
      Stack.back().OmittedAfter = E.OmittedCalls;
    for (ObjectSourceLine &F : K.Lines->frames(E.CodeAddresses[I])) {
      if (F.Function == K.WrapperSymbol || F.Function == K.BlockWrapperSymbol) {
        // What was inlined into a wrapper is, to the user, the outermost
        // call.
        if (!Stack.empty())
          Stack.back().Inlined = false;
        continue;
      }
      BacktraceFrame B;
      B.Function = std::move(F.Function);
      B.Loc.FileName = std::move(F.File);
      B.Loc.Line = F.Line;
      B.Loc.Col = F.Col;
      B.Inlined = F.Inlined;
      Stack.push_back(std::move(B));
    }
  }
  return Stack;
}

class HostDevice final : public Device {
public:
  HostDevice() {
    host::prepareWorkers();
    host::prepareThisThread();
  }
  llvm::StringRef name() const override { return "host"; }
  llvm::StringRef target() const override { return "native"; }
  std::string description() const override {
    const HostInfo &H = hostInfo();
    return H.CPU + " (" + H.Triple + ", " + std::to_string(H.LogicalCores) +
           " threads)";
  }
  bool available() const override { return true; }
  std::string unavailableReason() const override { return ""; }
  std::string defaultArch() const override { return hostInfo().CPU; }
  std::vector<DeviceProperty> properties() const override {
    const HostInfo &H = hostInfo();
    return {{"cpu", H.CPU},
            {"triple", H.Triple},
            {"logical cores", std::to_string(H.LogicalCores)},
            {"features", H.Features},
            {"jit", "LLVM ORC LLJIT"},
            {"max threads per block", std::to_string(host::MaxThreadsPerBlock)},
            {"fiber stack", std::to_string(host::FiberStackBytes / 1024) + " KiB"}};
  }

  llvm::Expected<std::unique_ptr<LoadedKernel>>
  load(const DeviceArtefact &A, std::string &Log) override;
  llvm::Expected<LaunchResult> launch(LoadedKernel &K, Dim3 Grid, Dim3 Block,
                                      llvm::ArrayRef<HostValue> Args) override;

  /// Removes a kernel's JITDylib (its code and data) from the JIT.
  void unload(llvm::orc::JITDylib &JD) {
    std::lock_guard<std::mutex> Lock(M);
    if (!JIT)
      return;
    if (llvm::Error E = JIT->getExecutionSession().removeJITDylib(JD))
      JitLog += "unloading: " + errorText(std::move(E)) + "\n";
  }

private:
  /// The JIT, created on first load (detecting the host once).
  llvm::Error ensureJIT();

  std::mutex M;
  std::unique_ptr<llvm::orc::LLJIT> JIT;
  /// Errors ORC reports asynchronously (it has no caller to return them to).
  std::string JitLog;
  uint64_t NextDylib = 0;
};

HostKernel::~HostKernel() { Dev.unload(*JD); }

llvm::Error HostDevice::ensureJIT() {
  if (JIT)
    return llvm::Error::success();
  // Idempotent; the back end usually did it already.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto JTMB = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  auto J = llvm::orc::LLJITBuilder()
               .setJITTargetMachineBuilder(std::move(*JTMB))
               // Objects from the native target have no static
               // initialisers; no platform runtime is needed.
               .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
               .create();
  if (!J)
    return J.takeError();
  llvm::orc::ExecutionSession &ES = (*J)->getExecutionSession();
  ES.setErrorReporter([this](llvm::Error E) {
    // Called with M held or from ORC's own threads; appending is enough.
    JitLog += errorText(std::move(E)) + "\n";
  });
  // The runtime hooks live in the main dylib every kernel links against;
  // libm and memcpy come from the process.
  llvm::orc::JITDylib &Main = (*J)->getMainJITDylib();
  auto Flags = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
  llvm::orc::SymbolMap Hooks;
  Hooks[(*J)->mangleAndIntern(ThrowHookName)] = llvm::JITEvaluatedSymbol(
      llvm::pointerToJITTargetAddress(host::throwHookAddress()), Flags);
  Hooks[(*J)->mangleAndIntern(ThrowDetailHookName)] = llvm::JITEvaluatedSymbol(
      llvm::pointerToJITTargetAddress(host::throwDetailHookAddress()), Flags);
  Hooks[(*J)->mangleAndIntern(SyncThreadsHookName)] = llvm::JITEvaluatedSymbol(
      llvm::pointerToJITTargetAddress(host::syncThreadsHookAddress()), Flags);
  if (llvm::Error E = Main.define(llvm::orc::absoluteSymbols(std::move(Hooks))))
    return E;
  auto Gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*J)->getDataLayout().getGlobalPrefix());
  if (!Gen)
    return Gen.takeError();
  Main.addGenerator(std::move(*Gen));
  JIT = std::move(*J);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<LoadedKernel>>
HostDevice::load(const DeviceArtefact &A, std::string &Log) {
  Log.clear();
  if (A.Target != "native")
    return deviceError("load", "the host device runs native artefacts, not `" +
                                   A.Target + "`");
  if (A.Object.empty())
    return deviceError("load", "the native artefact has no object image "
                               "(compile with CompileOptions::EmitObject)");
  if (containsArray(A.ReturnShape))
    return deviceError("load", "`" + A.Entry + "` returns an array; the host "
                               "device can only return scalars and tuples");
  llvm::Expected<bool> Barrier = referencesBarrier(A.Object);
  if (!Barrier)
    return deviceError("load", "the native object cannot be read: " +
                                   errorText(Barrier.takeError()));

  std::lock_guard<std::mutex> Lock(M);
  JitLog.clear();
  if (llvm::Error E = ensureJIT())
    return deviceError("load", "cannot create the host JIT: " +
                                   errorText(std::move(E)));
  // A dylib per load: a new version of the same entry never clashes with
  // the old one, and removing the dylib frees exactly this kernel.
  auto JD = JIT->createJITDylib("prism." + std::to_string(NextDylib++) + "." +
                                A.Entry);
  if (!JD)
    return deviceError("load", errorText(JD.takeError()));
  JD->addToLinkOrder(JIT->getMainJITDylib());
  auto Fail = [&](std::string Msg) -> llvm::Error {
    if (llvm::Error E = JIT->getExecutionSession().removeJITDylib(*JD))
      llvm::consumeError(std::move(E));
    Log = JitLog;
    return deviceError("load", std::move(Msg), Log);
  };
  llvm::StringRef Bytes(reinterpret_cast<const char *>(A.Object.data()),
                        A.Object.size());
  if (llvm::Error E = JIT->addObjectFile(
          *JD, llvm::MemoryBuffer::getMemBufferCopy(Bytes, A.Entry)))
    return Fail("cannot add the object of `" + A.Entry +
                "` to the JIT: " + errorText(std::move(E)));
  // Looking the wrapper up links the object; unresolved symbols show here.
  std::string Wrapper = nativeLaunchSymbol(A.Entry);
  auto Addr = JIT->lookup(*JD, Wrapper);
  if (!Addr)
    return Fail("cannot link `" + Wrapper + "`: " + errorText(Addr.takeError()));

  auto K = std::make_unique<HostKernel>(*this, *JD, A.Entry);
  K->Fn = Addr->toPtr<host::LaunchWrapperFn>();
  // Kernels also have a block wrapper; ordinary functions do not.
  if (auto Block = JIT->lookup(*JD, nativeBlockLaunchSymbol(A.Entry)))
    K->BlockFn = Block->toPtr<host::LaunchWrapperFn>();
  else
    llvm::consumeError(Block.takeError());
  K->Lines = ObjectSourceLines::create(A.Object, Wrapper, Addr->getValue());
  K->WrapperSymbol = Wrapper;
  K->BlockWrapperSymbol = nativeBlockLaunchSymbol(A.Entry);
  K->SharedBytes = A.SharedBytes;
  K->UsesBarriers = *Barrier;
  K->ReturnShape = A.ReturnShape;
  K->ReturnLayout = layoutOf(A.ReturnShape);
  K->setAttributes({{"launch wrapper", Wrapper},
                   {"shared bytes", std::to_string(A.SharedBytes)},
                   {"object bytes", std::to_string(A.Object.size())},
                   {"threads run as",
                    *Barrier      ? "fibers (sync_threads)"
                    : K->BlockFn ? "a loop in compiled code (" +
                                       nativeBlockLaunchSymbol(A.Entry) + ")"
                                 : "direct calls"}});
  Log = JitLog;
  return std::unique_ptr<LoadedKernel>(std::move(K));
}

llvm::Expected<LaunchResult> HostDevice::launch(LoadedKernel &LK, Dim3 Grid,
                                                Dim3 Block,
                                                llvm::ArrayRef<HostValue> Args) {
  auto &K = static_cast<HostKernel &>(LK);
  if (Grid.count() == 0 || Block.count() == 0)
    return deviceError("argument", "--blocks and --threads must be at least 1");
  if (Block.count() > host::MaxThreadsPerBlock)
    return deviceError("argument",
                       "a block has at most " +
                           std::to_string(host::MaxThreadsPerBlock) +
                           " threads; got " + std::to_string(Block.count()));
  if (Grid.X > INT32_MAX || Grid.Y > INT32_MAX || Grid.Z > INT32_MAX)
    return deviceError("argument", "grid dimension too large");

  LaunchResult R;
  R.Args.assign(Args.begin(), Args.end());

  // One buffer for all argument slots, 16-byte aligned; args[i] points into
  // it (null for zero-size arguments).
  llvm::SmallVector<uint64_t, 16> Offsets;
  uint64_t Total = 0;
  for (const HostValue &V : R.Args) {
    ValueLayout L = layoutOf(V);
    Total = alignTo(Total, std::max<uint64_t>(L.Align, 1));
    Offsets.push_back(L.Size ? Total : UINT64_MAX);
    Total += L.Size;
  }
  struct alignas(16) Slot {
    uint8_t B[16];
  };
  llvm::SmallVector<Slot, 8> Storage(alignTo(Total, 16) / 16);
  uint8_t *Base = reinterpret_cast<uint8_t *>(Storage.data());
  llvm::SmallVector<void *, 8> ArgPtrs(R.Args.size(), nullptr);
  std::vector<std::unique_ptr<GuardedArray>> Arrays;
  std::vector<size_t> ArrayArg; // the argument (0-based) each array is in
  for (size_t I = 0; I < R.Args.size(); ++I) {
    guardArrays(R.Args[I], Arrays);
    ArrayArg.resize(Arrays.size(), I);
  }
  const std::unique_ptr<GuardedArray> *Next = Arrays.data();
  for (size_t I = 0; I < R.Args.size(); ++I) {
    if (Offsets[I] == UINT64_MAX) // no bytes, so no array in it
      continue;
    ArgPtrs[I] = Base + Offsets[I];
    encode(R.Args[I], Base + Offsets[I], Next);
  }
  llvm::SmallVector<Slot, 4> Ret(alignTo(K.ReturnLayout.Size, 16) / 16 + 1);

  host::GridLaunch L;
  L.Fn = K.Fn;
  L.BlockFn = K.BlockFn;
  L.Grid = Grid;
  L.Block = Block;
  L.Args = ArgPtrs.data();
  L.Ret = Ret.data();
  L.RetBytes = Ret.size() * sizeof(Slot);
  L.SharedBytes = K.SharedBytes;
  L.UsesBarriers = K.UsesBarriers;
  if (K.Lines) {
    L.CodeBegin = uintptr_t(K.Lines->textBegin());
    L.CodeEnd = uintptr_t(K.Lines->textEnd());
  }

  auto T0 = std::chrono::steady_clock::now();
  host::LaunchStats Stats;
  std::optional<ThrownException> Thrown = host::runGrid(L, &Stats);
  auto T1 = std::chrono::steady_clock::now();
  R.TimeMs = std::chrono::duration<double, std::milli>(T1 - T0).count();
  R.TimeSource = "wall clock";
  if (Stats.FibersCreated) {
    R.SetupMs = std::min(Stats.FiberSetupMs, R.TimeMs);
    R.Setup = "creating " + std::to_string(Stats.FibersCreated) +
              " fiber stacks, once per worker thread";
  }

  // A write just outside an array (unchecked, under @inbounds) is reported
  // as a fault of the launch; its line is not known afterwards.
  for (size_t A = 0; A < Arrays.size(); ++A) {
    int64_t Off = Arrays[A]->finish();
    if (!Off || Thrown)
      continue;
    const HostValue &V = Arrays[A]->value();
    int64_t N = V.numElements();
    int64_t Elt = N ? int64_t(V.bytes().size()) / N : 1;
    // The furthest element written: Julia's 1-based index.
    int64_t Index =
        Off < 0 ? 1 - (-Off + Elt - 1) / Elt : N + (Off + Elt - 1) / Elt;
    return deviceError(
        "fault", "out-of-bounds write to index " + std::to_string(Index) +
                     " of argument " + std::to_string(ArrayArg[A] + 1) +
                     ", which has " + std::to_string(N) +
                     " elements (an index out of range under `@inbounds`; "
                     "found after the launch, in the guard zone around the "
                     "array, so its line is not known: `--device interp` "
                     "names it)");
  }

  if (Thrown) {
    if (Thrown->Fault && Thrown->Fault->PC && K.Lines) {
      if (std::optional<ObjectSourceLine> Src =
              K.Lines->userLine(Thrown->Fault->PC)) {
        Thrown->File = Src->File;
        Thrown->Line = int32_t(Src->Line);
        Thrown->Col = Src->Col;
      }
    }
    Thrown->Stack = sourceStack(K, *Thrown);
    return makeDiagError(thrownDiagnostic(*Thrown, Grid, Block, K.entry()));
  }
  R.Return = decode(K.ReturnShape, reinterpret_cast<uint8_t *>(Ret.data()));
  return R;
}

} // namespace

std::unique_ptr<Device> createHostDevice() {
  return std::make_unique<HostDevice>();
}

} // namespace prism
