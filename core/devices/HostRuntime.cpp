// The host grid runtime; see HostRuntime.h for the model (blocks on oneTBB,
// the threads of a synchronising block as fibers, throws leave the thread).
#include "devices/HostRuntime.h"

#include "codegen/Runtime.h"
#include "types/ShowError.h"

#include "llvm/Support/ErrorHandling.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csetjmp>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// A context switch costs two syscalls with swapcontext (it saves and
// restores the signal mask), which dominated a 256-thread block that
// synchronises a few times. On x86-64 fibers switch with the few
// instructions below instead: save the callee-saved registers and the FP
// control words on the current stack, swap stack pointers, restore. Other
// hosts use ucontext.
#if defined(__x86_64__) && !defined(PRISM_HOST_UCONTEXT_FIBERS)
#define PRISM_FAST_FIBERS 1
extern "C" void prism_host_switch_stack(void **SaveSP, void *ToSP);
asm(R"(
  .text
  .p2align 4
  .globl prism_host_switch_stack
  .hidden prism_host_switch_stack
  .type prism_host_switch_stack, @function
prism_host_switch_stack:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size prism_host_switch_stack, .-prism_host_switch_stack
)");
#else
#define PRISM_FAST_FIBERS 0
#endif

namespace prism::host {

namespace {

/// What all blocks of one launch share.
struct LaunchControl {
  explicit LaunchControl(const GridLaunch &L) : L(L) {}
  const GridLaunch &L;
  /// Raised by the first throw; every block checks it before each thread.
  std::atomic<bool> Failed{false};
  /// Fiber stacks created during this launch, and the longest time one
  /// worker spent creating them (workers create theirs in parallel).
  std::atomic<uint32_t> FibersCreated{0};
  std::atomic<uint64_t> FiberSetupNs{0};
  std::mutex M;
  std::optional<ThrownException> Thrown;

  void noteFiberSetup(size_t Created, std::chrono::steady_clock::duration T) {
    FibersCreated += uint32_t(Created);
    uint64_t Ns = uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(T).count());
    uint64_t Seen = FiberSetupNs.load();
    while (Seen < Ns && !FiberSetupNs.compare_exchange_weak(Seen, Ns))
      ;
  }

  void record(ThrownException E) {
    std::lock_guard<std::mutex> Lock(M);
    if (!Thrown)
      Thrown = std::move(E);
    Failed.store(true, std::memory_order_release);
  }
};

/// One fiber: a stack (with a guard page below it) and its saved context.
/// Never moved: glibc's ucontext_t points into itself (the FP state).
struct Fiber {
  void *Mapping = nullptr;
  size_t MappingBytes = 0;
#if PRISM_FAST_FIBERS
  void *SP = nullptr; ///< saved stack pointer while suspended
#else
  ucontext_t Ctx;
#endif
  bool Done = false;
  /// Where a stack overflow in this fiber lands (fiberMain's frame, at the
  /// top of the fiber's stack): the fault handler leaves with siglongjmp,
  /// the one way out of a signal handler, never with a stack switch.
  sigjmp_buf Jmp;

  ~Fiber() {
    if (Mapping)
      munmap(Mapping, MappingBytes);
  }
};

/// Per OS thread (TBB worker or the launching thread): the fiber stacks,
/// per-thread states and shared memory of the block it is running. Kept
/// across launches so that a launch allocates nothing once warm.
struct Worker {
  LaunchControl *Launch = nullptr;
  /// The state of the thread running now (for the throw's thread index).
  const NativeKernelState *Current = nullptr;

  // Direct mode: a throw returns here with siglongjmp.
  sigjmp_buf Jmp;
  /// Set by the fault handler, which may not allocate (the fault may have
  /// hit inside malloc); the exception is recorded once back on the
  /// scheduler's side (flushFaults).
  volatile sig_atomic_t StackOverflowPending = 0;
  /// Whether compiled code (or a library function it called, such as
  /// memcpy) runs on this thread now, rather than the runtime or a hook: a
  /// fault then is the kernel's, which ends its launch, not the process.
  volatile sig_atomic_t InCompiledCode = 0;
  /// A fault in compiled code, left by the handler as StackOverflowPending.
  volatile sig_atomic_t FaultPending = 0;
  ThrownException::MemoryFault Fault;
  /// What prism_throw_detail passed for the throw that follows it: the
  /// showerror template and values, and the column.
  const char *DetailTemplate = nullptr;
  uint64_t DetailValues[MaxShowErrorValues] = {};
  unsigned DetailCount = 0;
  uint32_t DetailCol = 0;
  /// The compiled frames of the throw or fault being recorded (an address
  /// inside each one's current instruction, innermost first), filled
  /// without allocating: the fault handler fills them too.
  static constexpr unsigned MaxFrames = MaxThrowFrames;
  uint64_t Frames[MaxFrames] = {};
  unsigned FrameCount = 0;
  /// Past MaxFrames, the walk keeps the last (outermost) frames in a ring
  /// and counts them all.
  uint64_t Outer[MaxOuterThrowFrames] = {};
  uint64_t Deeper = 0;
  // Fiber mode.
  bool InFiber = false;
  uint32_t CurrentFiber = 0;
#if PRISM_FAST_FIBERS
  void *SchedSP = nullptr;
#else
  ucontext_t Sched;
#endif
  std::vector<std::unique_ptr<Fiber>> Fibers;

  std::vector<NativeKernelState> States;
  void *Shared = nullptr;
  size_t SharedCap = 0;
  /// Where threads other than the launch's first write their return value.
  std::vector<std::max_align_t> RetScratch;
  void *OtherRet = nullptr;

  /// The lowest address of this OS thread's own stack, and the alternate
  /// stack the fault handler runs on (a stack overflow cannot be handled
  /// on the stack that overflowed).
  uintptr_t StackLo = 0;
  void *AltStack = nullptr;

  ~Worker() {
    std::free(Shared);
    if (AltStack) {
      stack_t Off{};
      Off.ss_flags = SS_DISABLE;
      sigaltstack(&Off, nullptr);
      std::free(AltStack);
    }
  }

  /// Once per thread: the stack bounds and the alternate signal stack.
  void prepareForFaults() {
    if (AltStack)
      return;
    pthread_attr_t A;
    if (pthread_getattr_np(pthread_self(), &A) == 0) {
      void *Addr = nullptr;
      size_t Size = 0;
      if (pthread_attr_getstack(&A, &Addr, &Size) == 0)
        StackLo = reinterpret_cast<uintptr_t>(Addr);
      pthread_attr_destroy(&A);
    }
    const size_t Bytes = 64 * 1024;
    AltStack = std::malloc(Bytes);
    if (!AltStack)
      return;
    stack_t SS{};
    SS.ss_sp = AltStack;
    SS.ss_size = Bytes;
    if (sigaltstack(&SS, nullptr) != 0) {
      std::free(AltStack);
      AltStack = nullptr;
    }
  }

  static Worker &get() {
    thread_local Worker W;
    return W;
  }

  /// At least N fibers with stacks; false when the memory is not there.
  /// The launch is told how many were created and how long that took
  /// (LaunchStats).
  bool ensureFibers(size_t N) {
    if (Fibers.size() >= N)
      return true;
    const size_t Before = Fibers.size();
    const auto T0 = std::chrono::steady_clock::now();
    bool Ok = createFibers(N);
    if (Launch)
      Launch->noteFiberSetup(Fibers.size() - Before,
                             std::chrono::steady_clock::now() - T0);
    return Ok;
  }

  /// Creates fibers until there are N. New stacks are touched here, so
  /// that their first page fault is counted as setup, not kernel time.
  bool createFibers(size_t N) {
    static const size_t Page = size_t(sysconf(_SC_PAGESIZE));
    while (Fibers.size() < N) {
      auto F = std::make_unique<Fiber>();
      size_t Bytes = FiberStackBytes + Page;
      void *M = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                     -1, 0);
      if (M == MAP_FAILED)
        return false;
      F->Mapping = M;
      F->MappingBytes = Bytes;
      // A guard page turns a fiber's stack overflow into a fault at a
      // known place instead of silently corrupting its neighbour.
      mprotect(M, Page, PROT_NONE);
      // The top page: every fiber's first frame lands there.
      static_cast<volatile char *>(M)[Bytes - 1] = 0;
#if !PRISM_FAST_FIBERS
      // getcontext once per fiber (it costs a syscall); each launch only
      // re-points the context with makecontext.
      if (getcontext(&F->Ctx) != 0)
        return false;
      F->Ctx.uc_stack.ss_sp = static_cast<char *>(M) + Page;
      F->Ctx.uc_stack.ss_size = FiberStackBytes;
#endif
      Fibers.push_back(std::move(F));
    }
    return true;
  }

  /// This block's shared memory, zero-filled (16-byte aligned).
  void *sharedMemory(uint64_t Bytes) {
    if (Bytes == 0)
      return nullptr;
    if (Bytes > SharedCap) {
      std::free(Shared);
      size_t Cap = (Bytes + 15) & ~size_t(15);
      Shared = std::aligned_alloc(16, Cap);
      SharedCap = Shared ? Cap : 0;
      if (!Shared)
        return nullptr;
    }
    std::memset(Shared, 0, Bytes);
    return Shared;
  }
};

void fiberMain();

//===----------------------------------------------------------------------===//
// Fiber switches: scheduler → fiber (enter), fiber → scheduler (suspend,
// or leave for good).
//===----------------------------------------------------------------------===//

#if PRISM_FAST_FIBERS
/// Lays out F's stack as prism_host_switch_stack expects to find a
/// suspended fiber, with fiberMain as the return address (entered with the
/// stack aligned as after a call).
void resetFiber(Worker &, Fiber &F) {
  auto *Top = reinterpret_cast<uintptr_t *>(
      (reinterpret_cast<uintptr_t>(F.Mapping) + F.MappingBytes) & ~uintptr_t(15));
  uint32_t Ctl[2];
  asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(Ctl[0]), "=m"(Ctl[1]));
  uintptr_t *SP = Top - 9;
  SP[0] = uintptr_t(Ctl[0]) | uintptr_t(Ctl[1] & 0xffff) << 32; // mxcsr, fpcw
  for (int R = 1; R <= 6; ++R)
    SP[R] = 0; // r15 r14 r13 r12 rbx rbp
  SP[7] = reinterpret_cast<uintptr_t>(&fiberMain);
  SP[8] = 0; // fiberMain's return address: it never returns
  F.SP = SP;
}
void enterFiber(Worker &W, Fiber &F) { prism_host_switch_stack(&W.SchedSP, F.SP); }
void suspendFiber(Worker &W, Fiber &F) { prism_host_switch_stack(&F.SP, W.SchedSP); }
[[noreturn]] void leaveFiber(Worker &W) {
  void *Dead;
  prism_host_switch_stack(&Dead, W.SchedSP);
  __builtin_unreachable();
}
#else
void resetFiber(Worker &W, Fiber &F) {
  F.Ctx.uc_link = &W.Sched;
  makecontext(&F.Ctx, fiberMain, 0);
}
void enterFiber(Worker &W, Fiber &F) { swapcontext(&W.Sched, &F.Ctx); }
void suspendFiber(Worker &W, Fiber &F) { swapcontext(&F.Ctx, &W.Sched); }
[[noreturn]] void leaveFiber(Worker &W) {
  setcontext(&W.Sched);
  std::abort(); // setcontext only returns when the context is invalid
}
#endif

void recordThrow(Worker &W, int32_t Kind, const char *TypeName,
                 const char *File, int32_t Line,
                 std::optional<ThrownException::MemoryFault> Fault = {}) {
  ThrownException E;
  E.Fault = Fault;
  E.Kind = Kind;
  E.TypeName = TypeName ? TypeName : throwKindName(static_cast<ThrowKind>(Kind));
  E.File = File ? File : "";
  E.Line = Line;
  if (W.DetailTemplate && !Fault)
    E.Detail = formatShowError(W.DetailTemplate,
                               llvm::ArrayRef(W.DetailValues, W.DetailCount));
  if (!Fault)
    E.Col = W.DetailCol;
  E.CodeAddresses.assign(W.Frames, W.Frames + W.FrameCount);
  // The outermost frames, oldest first, after the gap of those between.
  const uint64_t Kept = std::min<uint64_t>(W.Deeper, MaxOuterThrowFrames);
  E.OmittedAt = E.CodeAddresses.size();
  E.OmittedCalls = W.Deeper - Kept;
  for (uint64_t K = W.Deeper - Kept; K < W.Deeper; ++K)
    E.CodeAddresses.push_back(W.Outer[K % MaxOuterThrowFrames]);
  W.FrameCount = 0;
  W.Deeper = 0;
  W.DetailTemplate = nullptr;
  W.DetailCol = 0;
  if (const NativeKernelState *S = W.Current)
    for (int D = 0; D < 3; ++D) {
      E.Block[D] = uint32_t(S->BlockIdx[D]);
      E.Thread[D] = uint32_t(S->ThreadIdx[D]);
    }
  W.Launch->record(std::move(E));
}

/// `prism_throw_detail`: keeps the exception's scalars for the prism_throw
/// that follows (compiled code passes them only just before one).
void throwDetailHook(const char *Template, int32_t Col, int32_t N, ...) {
  Worker &W = Worker::get();
  W.DetailTemplate = Template;
  W.DetailCol = uint32_t(std::max(Col, 0));
  W.DetailCount =
      std::min<unsigned>(unsigned(std::max(N, 0)), MaxShowErrorValues);
  va_list Ap;
  va_start(Ap, N);
  for (unsigned K = 0; K < W.DetailCount; ++K)
    W.DetailValues[K] = va_arg(Ap, uint64_t);
  va_end(Ap);
}

/// Adds the compiled frames above frame pointer FP to W.Frames, and past
/// its MaxFrames the outermost ones to the W.Outer ring: a frame
/// record holds the caller's frame pointer and then the return address,
/// and every compiled function keeps one (NativeTarget's finishModule).
/// Stops at the first return address outside compiled code (the launcher,
/// whose frames may not keep the chain) or a chain that does not climb.
/// Reads nothing but compiled code's own frames, so the fault handler may
/// call it.
void walkCompiledFrames(Worker &W, const uintptr_t *FP) {
#if defined(__x86_64__) || defined(__aarch64__)
  const GridLaunch &L = W.Launch->L;
  while (FP) {
    const uintptr_t Return = FP[1];
    if (Return <= L.CodeBegin || Return > L.CodeEnd)
      return;
    // An address inside the call instruction.
    if (W.FrameCount < Worker::MaxFrames)
      W.Frames[W.FrameCount++] = Return - 1;
    else
      W.Outer[W.Deeper++ % MaxOuterThrowFrames] = Return - 1;
    const auto *Caller = reinterpret_cast<const uintptr_t *>(FP[0]);
    if (Caller <= FP)
      return;
    FP = Caller;
  }
#else
  (void)W;
  (void)FP;
#endif
}

/// `prism_throw`: records the exception and leaves the throwing thread for
/// good. Nothing with a destructor may be alive in this frame.
[[noreturn]] void throwHook(int32_t Kind, const char *TypeName,
                            const char *File, int32_t Line) {
  Worker &W = Worker::get();
  W.InCompiledCode = 0;
  if (!W.Launch)
    // Compiled code only runs inside runGrid; reaching this is a bug here.
    llvm::report_fatal_error("prism_throw called outside a host launch");
  // This frame's record (taking its address keeps one) leads to the
  // compiled code that called.
  W.FrameCount = 0;
  W.Deeper = 0;
  walkCompiledFrames(
      W, static_cast<const uintptr_t *>(__builtin_frame_address(0)));
  recordThrow(W, Kind, TypeName, File, Line);
  if (W.InFiber)
    leaveFiber(W); // abandons the fiber; the stack is reused later
  siglongjmp(W.Jmp, 1);
}

/// A launch that could not get its shared memory or fiber stacks.
ThrownException outOfMemory() {
  ThrownException E;
  E.Kind = int32_t(ThrowKind::Other);
  E.TypeName = "OutOfMemoryError";
  return E;
}

/// Records what the fault handler left pending (a StackOverflowError, or a
/// fault in compiled code), outside the signal handler.
void flushFaults(Worker &W) {
  if (W.StackOverflowPending) {
    W.StackOverflowPending = 0;
    recordThrow(W, int32_t(ThrowKind::StackOverflowError), "StackOverflowError",
                nullptr, 0);
  }
  if (W.FaultPending) {
    W.FaultPending = 0;
    recordThrow(W, int32_t(ThrowKind::Other), "invalid memory access", nullptr,
                0, W.Fault);
  }
}

/// Records the compiled frames at a fault from the signal's context: the
/// faulting instruction, then its callers (none when the instruction is
/// outside compiled code, in a library function such as memcpy, whose
/// frame pointer is unknown). Returns the instruction's address.
uint64_t recordFaultFrames(Worker &W, const void *Context) {
  const auto *UC = static_cast<const ucontext_t *>(Context);
  uint64_t PC = 0;
  uintptr_t FP = 0;
#if defined(__x86_64__)
  PC = uint64_t(UC->uc_mcontext.gregs[REG_RIP]);
  FP = uintptr_t(UC->uc_mcontext.gregs[REG_RBP]);
#elif defined(__aarch64__)
  PC = uint64_t(UC->uc_mcontext.pc);
  FP = uintptr_t(UC->uc_mcontext.regs[29]);
#else
  (void)UC;
#endif
  W.FrameCount = 0;
  W.Deeper = 0;
  const GridLaunch &L = W.Launch->L;
  if (PC < L.CodeBegin || PC >= L.CodeEnd)
    return PC;
  W.Frames[W.FrameCount++] = PC;
  walkCompiledFrames(W, reinterpret_cast<const uintptr_t *>(FP));
  return PC;
}

/// The faulting instruction and whether it wrote, from the signal's
/// context, and the compiled frames.
void describeFault(Worker &W, const void *Context,
                   ThrownException::MemoryFault &F) {
  F.PC = recordFaultFrames(W, Context);
#if defined(__x86_64__)
  // The page fault's error code: bit 1 is set for a write.
  const auto *UC = static_cast<const ucontext_t *>(Context);
  F.What = UC->uc_mcontext.gregs[REG_ERR] & 2
               ? ThrownException::MemoryFault::Write
               : ThrownException::MemoryFault::Read;
#endif
}

/// The worker running compiled code on this thread, for the fault handler
/// (which must not construct one).
thread_local Worker *ActiveWorker = nullptr;
struct sigaction PreviousSegv, PreviousBus;
/// Read before the handler is installed: sysconf is not async-signal-safe.
uintptr_t FaultPageSize = 4096;

/// SIGSEGV/SIGBUS while compiled code runs: a fault in the guard region
/// below the running stack is a stack overflow, which becomes Julia's
/// StackOverflowError and leaves the thread as a throw does. Any other
/// fault in compiled code (an index out of range under `@inbounds`, an
/// empty array's null data) ends the launch the same way, as the cuda
/// device's illegal address does: compiled code owns no resources, so
/// nothing is left half done. A fault anywhere else is not ours: the
/// previous disposition is restored and the fault repeats as it would have.
void faultHandler(int Sig, siginfo_t *Info, void *Context) {
  Worker *W = ActiveWorker;
  if (W && W->Launch) {
    const uintptr_t Page = FaultPageSize;
    uintptr_t A = reinterpret_cast<uintptr_t>(Info->si_addr);
    uintptr_t Lo = W->StackLo;
    if (W->InFiber && W->CurrentFiber < W->Fibers.size())
      Lo = reinterpret_cast<uintptr_t>(W->Fibers[W->CurrentFiber]->Mapping) + Page;
    // The guard page(s) just below the stack, with room for one large frame
    // that stepped over them.
    if (Lo && A < Lo + Page && A + (1u << 20) >= Lo) {
      W->FrameCount = 0;
      W->Deeper = 0;
      if (W->InCompiledCode)
        recordFaultFrames(*W, Context); // the innermost calls of the recursion
      W->StackOverflowPending = 1;
      siglongjmp(W->InFiber ? W->Fibers[W->CurrentFiber]->Jmp : W->Jmp, 1);
    }
    if (W->InCompiledCode) {
      W->InCompiledCode = 0;
      W->Fault = {};
      describeFault(*W, Context, W->Fault);
      // SI_KERNEL: a general protection fault (a non-canonical address on
      // x86-64), which tells neither the address nor the access.
      if (Info->si_code == SI_KERNEL)
        W->Fault.What = ThrownException::MemoryFault::Unknown;
      else
        W->Fault.Address = A;
      W->FaultPending = 1;
      siglongjmp(W->InFiber ? W->Fibers[W->CurrentFiber]->Jmp : W->Jmp, 1);
    }
  }
  sigaction(Sig, Sig == SIGBUS ? &PreviousBus : &PreviousSegv, nullptr);
}

void installFaultHandler() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    FaultPageSize = uintptr_t(sysconf(_SC_PAGESIZE));
    struct sigaction SA {};
    SA.sa_sigaction = faultHandler;
    // SA_NODEFER: the handler leaves with siglongjmp (to the worker, or to
    // the entry of the fiber that overflowed), so the signal must not stay
    // blocked afterwards.
    SA.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&SA.sa_mask);
    sigaction(SIGSEGV, &SA, &PreviousSegv);
    sigaction(SIGBUS, &SA, &PreviousBus);
  });
}

/// `prism_sync_threads(state)`: a thread of a fiber-mode block arrived at the
/// barrier; let the scheduler run the others. Outside fiber mode the block
/// has one thread, for which the barrier is a no-op.
void syncThreadsHook(const NativeKernelState *S) {
  Worker &W = *static_cast<Worker *>(S->Runtime);
  if (!W.InFiber)
    return;
  W.InCompiledCode = 0;
  suspendFiber(W, *W.Fibers[W.CurrentFiber]);
  W.InCompiledCode = 1;
}

bool isFirstBlock(const NativeKernelState &S) {
  return (S.BlockIdx[0] | S.BlockIdx[1] | S.BlockIdx[2]) == 0;
}

/// Fiber entry: runs the current fiber's thread and reports back.
void fiberMain() {
  Worker &W = Worker::get();
  const uint32_t I = W.CurrentFiber;
  Fiber &F = *W.Fibers[I];
  if (sigsetjmp(F.Jmp, /*savemask=*/0) == 0) {
    const GridLaunch &L = W.Launch->L;
    W.InCompiledCode = 1;
    L.Fn(&W.States[I], L.Args, I == 0 && isFirstBlock(W.States[I]) ? L.Ret : W.OtherRet);
  }
  W.InCompiledCode = 0;
  F.Done = true;
  leaveFiber(W);
}

void setThreadIdx(NativeKernelState &S, uint32_t X, uint32_t Y, uint32_t Z) {
  S.ThreadIdx[0] = int32_t(X);
  S.ThreadIdx[1] = int32_t(Y);
  S.ThreadIdx[2] = int32_t(Z);
}

/// Runs the threads of one block in order on this stack. Out of line and
/// free of objects with destructors: a throw leaves it with siglongjmp.
[[gnu::noinline]] void runThreadsDirect(Worker &W, const GridLaunch &L) {
  NativeKernelState &S = W.States[0];
  W.Current = &S;
  void *FirstRet = isFirstBlock(S) ? L.Ret : W.OtherRet;
  for (uint32_t Z = 0; Z < L.Block.Z; ++Z)
    for (uint32_t Y = 0; Y < L.Block.Y; ++Y)
      for (uint32_t X = 0; X < L.Block.X; ++X) {
        if (W.Launch->Failed.load(std::memory_order_relaxed))
          return;
        setThreadIdx(S, X, Y, Z);
        W.InCompiledCode = 1;
        L.Fn(&S, L.Args, (X | Y | Z) == 0 ? FirstRet : W.OtherRet);
        W.InCompiledCode = 0;
      }
}

/// The block index of linear block number B (x fastest, as CUDA numbers
/// blocks).
void setBlockIdx(NativeKernelState &S, const Dim3 &Grid, uint64_t B) {
  S.BlockIdx[0] = int32_t(B % Grid.X);
  S.BlockIdx[1] = int32_t((B / Grid.X) % Grid.Y);
  S.BlockIdx[2] = int32_t(B / (uint64_t(Grid.X) * Grid.Y));
}

/// The next block after S's, without dividing.
void nextBlockIdx(NativeKernelState &S, const Dim3 &Grid) {
  if (uint32_t(++S.BlockIdx[0]) < Grid.X)
    return;
  S.BlockIdx[0] = 0;
  if (uint32_t(++S.BlockIdx[1]) < Grid.Y)
    return;
  S.BlockIdx[1] = 0;
  ++S.BlockIdx[2];
}

/// Runs blocks [Begin, End) one after the other, their threads in order on
/// this stack. A throw ends the launch, so it ends this run of blocks too:
/// one sigsetjmp serves all of them. Out of line and free of objects with
/// destructors, as siglongjmp leaves it.
[[gnu::noinline]] void runBlocksDirect(Worker &W, const GridLaunch &L,
                                       uint64_t Begin, uint64_t End) {
  if (sigsetjmp(W.Jmp, /*savemask=*/0) != 0) {
    W.InCompiledCode = 0;
    flushFaults(W);
    return; // a thread threw or faulted; the launch has the exception
  }
  NativeKernelState &S = W.States[0];
  W.Current = &S;
  setBlockIdx(S, L.Grid, Begin);
  for (uint64_t B = Begin; B != End; ++B, nextBlockIdx(S, L.Grid)) {
    if (W.Launch->Failed.load(std::memory_order_relaxed))
      return;
    if (B != Begin && L.SharedBytes) // runBlocks zeroed the first block's
      std::memset(S.SharedMem, 0, L.SharedBytes);
    if (L.BlockFn) {
      // The compiled loop sets each thread's index in the state it is given.
      W.InCompiledCode = 1;
      L.BlockFn(&S, L.Args, L.Ret);
      W.InCompiledCode = 0;
      continue;
    }
    runThreadsDirect(W, L);
  }
}

/// Runs the threads of one block as fibers, round-robin: each round
/// resumes every live thread once, and a thread runs until it reaches a
/// barrier or ends, so no thread passes a barrier before all have reached
/// it (threads that ended count as arrived, as on current GPUs).
void runBlockFibers(Worker &W, const GridLaunch &L) {
  const uint32_t N = uint32_t(L.Block.count());
  const NativeKernelState Base = W.States[0];
  for (uint32_t I = 0; I < N; ++I) {
    NativeKernelState &S = W.States[I];
    S = Base;
    setThreadIdx(S, I % L.Block.X, (I / L.Block.X) % L.Block.Y,
                 I / (L.Block.X * L.Block.Y));
    Fiber &F = *W.Fibers[I];
    F.Done = false;
    resetFiber(W, F);
  }
  W.InFiber = true;
  for (uint32_t Live = N; Live > 0;) {
    for (uint32_t I = 0; I < N; ++I) {
      Fiber &F = *W.Fibers[I];
      if (F.Done)
        continue;
      if (W.Launch->Failed.load(std::memory_order_relaxed)) {
        W.InFiber = false;
        return;
      }
      W.CurrentFiber = I;
      W.Current = &W.States[I];
      enterFiber(W, F);
      flushFaults(W);
      if (F.Done)
        --Live;
    }
  }
  W.InFiber = false;
}

/// Runs blocks [Begin, End) of the launch on this thread. What all blocks
/// share (the worker, the dimensions, shared memory) is set up once.
void runBlocks(LaunchControl &C, uint64_t Begin, uint64_t End) {
  const GridLaunch &L = C.L;
  Worker &W = Worker::get();
  W.prepareForFaults();
  W.Launch = &C;
  ActiveWorker = &W;
  const uint64_t Threads = L.Block.count();
  const bool UseFibers = L.UsesBarriers && Threads > 1;
  if (W.States.size() < (UseFibers ? Threads : 1))
    W.States.resize(UseFibers ? Threads : 1);
  NativeKernelState &S = W.States[0];
  const Dim3 *Dims[2] = {&L.Block, &L.Grid};
  for (int K = 0; K < 2; ++K) {
    int32_t *Out = K == 0 ? S.BlockDim : S.GridDim;
    Out[0] = int32_t(Dims[K]->X);
    Out[1] = int32_t(Dims[K]->Y);
    Out[2] = int32_t(Dims[K]->Z);
  }
  S.Runtime = &W;
  S.SharedMem = W.sharedMemory(L.SharedBytes);
  W.OtherRet = L.Ret;
  if (L.RetBytes) {
    const size_t Words = (L.RetBytes + sizeof(std::max_align_t) - 1) /
                         sizeof(std::max_align_t);
    if (W.RetScratch.size() < Words)
      W.RetScratch.resize(Words);
    W.OtherRet = W.RetScratch.data();
  }
  if (L.SharedBytes && !S.SharedMem) {
    C.record(outOfMemory());
  } else if (!UseFibers) {
    runBlocksDirect(W, L, Begin, End);
  } else if (!W.ensureFibers(Threads)) {
    C.record(outOfMemory());
  } else {
    for (uint64_t B = Begin; B != End; ++B) {
      if (C.Failed.load(std::memory_order_relaxed))
        break;
      setBlockIdx(S, L.Grid, B);
      if (B != Begin && L.SharedBytes)
        std::memset(S.SharedMem, 0, L.SharedBytes);
      runBlockFibers(W, L);
    }
  }
  W.Current = nullptr;
  W.Launch = nullptr;
  ActiveWorker = nullptr;
}

#if defined(__SANITIZE_THREAD__)
#define PRISM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PRISM_TSAN 1
#endif
#endif

/// The arena the blocks run in; the warm-up (prepareWorkers) runs in it
/// too, so that its workers are the ones a launch finds awake.
#ifndef PRISM_TSAN
tbb::task_arena &blockArena() {
  static tbb::task_arena A;
  return A;
}
#endif

/// Runs every block of the launch, in parallel, handing RunRange ranges of
/// block numbers. oneTBB's scheduler hands tasks between threads inside
/// libtbb.so, which ThreadSanitizer cannot see (Debian's TBB is not
/// instrumented), so under TSan every TBB object looks racy; there the
/// blocks go to plain threads taking block numbers from a counter, which
/// TSan understands, and what it checks is the runtime's own shared state
/// (LaunchControl, the workers, the fault handling).
template <typename Fn> void forEachBlockRange(uint64_t Blocks, Fn &&RunRange) {
#ifndef PRISM_TSAN
  blockArena().execute([&] {
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, Blocks),
                      [&](const tbb::blocked_range<uint64_t> &R) {
                        RunRange(R.begin(), R.end());
                      });
  });
#else
  std::atomic<uint64_t> Next{0};
  auto Work = [&] {
    for (uint64_t B; (B = Next.fetch_add(1)) < Blocks;)
      RunRange(B, B + 1);
  };
  unsigned N = std::max(2u, std::thread::hardware_concurrency());
  std::vector<std::thread> Threads;
  for (unsigned I = 1; I < N && I < Blocks; ++I)
    Threads.emplace_back(Work);
  Work();
  for (std::thread &T : Threads)
    T.join();
#endif
}

} // namespace

std::optional<ThrownException> runGrid(const GridLaunch &L, LaunchStats *Stats) {
  installFaultHandler();
  LaunchControl C(L);
  const uint64_t Blocks = L.Grid.count();
  if (Blocks == 1) {
    // The common case for calls of ordinary functions: no task overhead.
    runBlocks(C, 0, 1);
  } else {
    forEachBlockRange(Blocks, [&](uint64_t Begin, uint64_t End) {
      if (!C.Failed.load(std::memory_order_relaxed))
        runBlocks(C, Begin, End);
    });
  }
  if (Stats) {
    Stats->FibersCreated = C.FibersCreated.load();
    Stats->FiberSetupMs = double(C.FiberSetupNs.load()) / 1e6;
  }
  return std::move(C.Thrown);
}

void prepareWorkers() {
#ifndef PRISM_TSAN
  // Joined at exit: a detached thread could still be inside TBB then.
  struct Warmup {
    std::thread T;
    ~Warmup() {
      if (T.joinable())
        T.join();
    }
  };
  // The arena first: statics are destroyed in reverse order of
  // construction, so the warm-up thread is joined before its arena goes.
  blockArena();
  static Warmup W;
  static std::once_flag Once;
  std::call_once(Once, [] {
    W.T = std::thread([] {
      installFaultHandler();
      // Enough short tasks that every worker takes some: each readies its
      // thread for faults (alternate signal stack) as a launch would.
      unsigned N = 8 * std::max(1u, std::thread::hardware_concurrency());
      blockArena().execute([&] {
        tbb::parallel_for(0u, N, [](unsigned) {
          Worker::get().prepareForFaults();
          auto Until =
              std::chrono::steady_clock::now() + std::chrono::microseconds(200);
          while (std::chrono::steady_clock::now() < Until)
            std::this_thread::yield();
        });
      });
    });
  });
#endif
}

void prepareThisThread() {
  installFaultHandler();
  Worker::get().prepareForFaults();
#ifndef PRISM_TSAN
  blockArena().execute([] {});
#endif
}

void *throwHookAddress() { return reinterpret_cast<void *>(&throwHook); }
void *throwDetailHookAddress() {
  return reinterpret_cast<void *>(&throwDetailHook);
}
void *syncThreadsHookAddress() {
  return reinterpret_cast<void *>(&syncThreadsHook);
}

} // namespace prism::host
