// `prism help TOPIC`: a paragraph on each stage and concept, for people
// learning how GPU compilers work.
#include "Commands.h"

#include "llvm/Support/raw_ostream.h"

#include <string_view>

namespace prism::app {

namespace {
struct Topic {
  const char *Name;
  const char *Text;
};

const Topic Topics[] = {
    {"lowered",
     "Lowered IR (prism code_lowered) is the function body flattened into "
     "numbered statements: every call is its own statement (%3 = +(%1, %2)), "
     "local variables become slots, and if/while/for/&&/|| become `goto` and "
     "`goto #k if not %n`. Nothing is typed yet. This is Julia's "
     "code_lowered: the form inference works on."},
    {"typed",
     "Typed IR (prism code_typed) is lowered IR after type inference: every "
     "statement has a type, and every call whose argument types are concrete "
     "is resolved to one method specialised on those types (a "
     "MethodInstance), printed with each argument's type, as `invoke "
     "-(%2::Int32, 1::Int64)::Int64`. Inference "
     "alone decides what code exists: the CodeInstances it produces, linked "
     "by edges, are all codegen sees. --optimize=yes shows it after inlining. "
     "prism code_warntype marks types that are not concrete: on a GPU every "
     "value needs a concrete type, so those are compile errors."},
    {"world-age",
     "World age: every definition gets the next world number. A CodeInstance "
     "is valid for a range of worlds [min_world, max_world] and records "
     "edges to the methods it called; the callees keep backedges. Redefining "
     "a method follows the backedges and caps max_world of exactly the "
     "CodeInstances that depended on it, so the next compile in the new "
     "world re-infers them and nothing else. The GUI's Invalidations panel "
     "shows this after every edit."},
    {"llvm",
     "LLVM IR (prism code_llvm) is what Prism emits from the typed IR: one "
     "LLVM function per CodeInstance, structs and tuples as LLVM aggregates, "
     "local variables as allocas, bounds checks as branches to a throw block. "
     "--optimize=no shows it as emitted; the default shows it after LLVM's "
     "optimisation pipeline (O2 by default). With --debuginfo=source (the "
     "default) each run of instructions from one place is headed by a "
     "comment naming its source line, through inlining (`; 80_array.jl:4 "
     "unsafe_load, inlined into saxpy! at saxpy.jl:11`); --raw prints the "
     "`!dbg` locations themselves, --debuginfo=none neither."},
    {"pipeline",
     "The pipeline (prism pipeline) lists every pass of LLVM's optimisation "
     "pipeline that changed the IR of the job, in the order they ran, each "
     "with a unified diff "
     "(--summary: one line a pass; --all: also those that changed nothing; "
     "--json for scripts; "
     "--pass and --function narrow it; --grep "
     "TEXT finds the passes that changed how many lines hold TEXT): SROA "
     "turning allocas into registers, InstCombine simplifying arithmetic, "
     "SimplifyCFG merging blocks, the inliner. The backend's own IR passes, "
     "which run inside code generation, are not listed: on ptx "
     "NVPTXLowerArgs, InferAddressSpaces and CodeGenPrepare, and the global "
     "and shared address spaces of the PTX's loads and stores come from the "
     "first two, not from any pass shown (on gcn InferAddressSpaces also "
     "runs in the optimisation pipeline, and is listed). Prism records these "
     "in-process "
     "with LLVM's pass instrumentation; when nobody asks, no callback is "
     "registered and it costs nothing. A unit is printed again after a pass "
     "only if the pass did not say it preserved everything or the IR's "
     "fingerprint changed (some passes, IndVarSimplify adding nsw, change "
     "the IR while saying they preserved it). Two passes are Prism's own: on "
     "the "
     "native target GuardSplitPass splits a kernel's block loop where its "
     "bounds guard (`if i <= length(y)`) flips, so that the vectoriser needs "
     "no masks (see it on jfptr_block_NAME); on ptx NarrowPhisPass makes a "
     "64-bit loop variable that provably holds 32-bit values (block_sum's "
     "`s ÷= 2` over the block size) a 32-bit one, since on a GPU a 64-bit "
     "value takes two registers."},
    {"remarks",
     "Optimisation remarks (prism remarks) are LLVM's own account of what "
     "its passes did and did not do, and why, as clang prints them with "
     "-Rpass, -Rpass-missed and -Rpass-analysis: LICM hoisting a load out "
     "of a loop, GVN keeping a load \"because it is clobbered by call\" (a "
     "sync_threads() between two reads of shared memory), the vectoriser "
     "giving up (\"cannot prove it is safe to reorder floating-point "
     "operations\"), the register allocator's spills (native and gcn; on ptx "
     "ptxas allocates the registers, and report shows its spills), the "
     "instruction count. "
     "Each is placed at the kernel's line through inlining, with the prelude "
     "functions it came from. --kind missed shows what did not happen, "
     "usually the answer to why a kernel is slow; the GUI lists them in the "
     "Pipeline panel's Remarks tab. Calls the inliner was forced to inline "
     "(always-inline) and calls of declarations are left out: they are not "
     "decisions. For ptx kernels, pass prism-access is Prism's own: how the "
     "32 threads of a warp access memory (the lanes' addresses by "
     "ScalarEvolution with the thread index substituted), an uncoalesced "
     "global access or a shared-memory bank conflict as a missed remark on "
     "its line. Pass prism-arith (ptx and gcn kernels) finds arithmetic "
     "that costs far more than it reads: Float64 mixed into Float32 code (a "
     "Float64 literal such as `x[i] * 0.1`), an integer made Float64 (`i * "
     "0.5`), each with the --arch's double-precision rate, and 64-bit "
     "integer division by a value known only at run time. Pass prism-throw "
     "(ptx and gcn kernels) lists the checks that can throw left in the "
     "optimised code, at their lines, and says which run in a loop."},
    {"report",
     "prism report FILE SIG compiles the job once and prints what a "
     "performance question starts from. Each stage's wall-clock time, "
     "allocations and lines (typed, typed-opt, llvm-raw, llvm-opt, asm: the "
     "first job of a process pays LLVM's start-up). How many passes changed "
     "the IR (prism pipeline shows them). The remarks by kind, and on ptx "
     "and gcn the verdicts of Prism's analyses, each counted once per source "
     "place: how a warp accesses memory (help coalescing), which branches "
     "split a warp (help divergence) and costly arithmetic (Float64 in "
     "Float32 code, 64-bit division; help remarks) and where the throw "
     "sites are (prism remarks --pass prism-throw). The resources the "
     "assembler measured (ptxas -v on ptx, the backend on gcn): registers, "
     "spills, stack and local memory, shared memory, instructions and throw "
     "sites, with a note on what puts a kernel in local memory. The "
     "occupancy table by block size (help occupancy), with --threads the "
     "launch you mean and with launch bounds what they allow. Last the "
     "compile cache: one compile, then 100000 timed lookups of it (help "
     "cache). --json gives all of it as stable JSON."},
    {"occupancy",
     "Occupancy is how many warps an SM keeps resident, out of the most it "
     "can (64 on sm_80 and sm_90, 48 on sm_86, sm_87 and sm_89, 32 on sm_75). "
     "While "
     "one warp waits for memory the SM runs another, so too few resident "
     "warps leave it idle. A block stays resident until it finishes, and "
     "blocks are admitted while four limits allow: the warp slots, the "
     "register file (65536 registers per SM, given to each warp in units of "
     "256, a quarter of them per sub-partition), shared memory (each block's "
     "static arrays plus the 1 KiB the driver reserves per block since "
     "Ampere, against 164 KiB per SM on sm_80, 228 KiB on sm_90) and the "
     "SM's block limit (16 to 32). prism report --target ptx prints the "
     "resulting table by block size with what limits each row, from the "
     "registers and shared memory ptxas measured; the GUI charts it in Stats "
     "> Resources. The model is NVIDIA's: the tests compare it with the CUDA "
     "toolkit's occupancy calculator, and on a GPU tests/gpu/run-all compares "
     "it with the driver's. High occupancy is not speed by itself (a kernel "
     "with enough independent work per thread can run well at 50%), but a "
     "kernel that is slow and low on occupancy has found its first suspect. "
     "On AMD (gcn) the same model speaks AMD's words. gfx9 (gfx900 to "
     "gfx90a, and gfx940, the only MI300 LLVM 16 knows): workgroups of "
     "64-thread waves on a compute unit of 4 SIMDs (8 wave slots each from "
     "gfx90a on, 10 before it), the VGPR file (512 per SIMD lane from gfx90a "
     "on, 256 before, given to waves in 8s or 4s), the "
     "SGPR file (from 81 SGPRs a wave, fewer waves per SIMD), 64 KiB of LDS "
     "per CU in 512-byte blocks, and 16 barriers for workgroups of more "
     "than one wave. RDNA (gfx10, gfx11; wave32): a workgroup processor of "
     "two CUs, 4 SIMDs of 16 or 20 waves, 128 KiB of LDS, 32 barriers, no "
     "SGPR limit. The backend's own figure (waves/SIMD) counts waves one "
     "by one for the largest workgroup; the table admits a workgroup whole, "
     "as the hardware does, and report says when the two differ."},
    {"coalescing",
     "Coalescing and bank conflicts: the 32 threads of a warp issue each "
     "load and store together. Global memory is read in 32-byte sectors, so "
     "32 floats side by side cost 4 sectors, and 32 floats along a row of a "
     "column-major matrix, each a column's length from the next, cost 32: "
     "eight times the traffic for the same "
     "data (uncoalesced). Shared memory has 32 banks of 4 bytes; threads "
     "reading different words of one bank wait for each other (an n-way "
     "bank conflict replays the access n times), while the same word is "
     "broadcast. The usual fixes: let threadIdx().x index the first "
     "(contiguous) dimension of a Julia array, and pad a shared tile's rows "
     "to an odd number of words (33 instead of 32). prism remarks FILE SIG "
     "--target ptx --pass prism-access judges every access of a kernel this "
     "way, from the addresses ScalarEvolution gives each of the 32 lanes of "
     "a warp (32 consecutive threadIdx().x, unless --threads X,Y gives the "
     "block: a 16×16 block's warp is 16 threadIdx().x × 2 threadIdx().y); "
     "the GUI marks the lines of the bad ones. With --target gcn (gfx9, "
     "wave64) a wavefront's 64 lanes are judged in the vector L1's 64-byte "
     "cache lines, and the LDS (32 banks of 4 bytes) serves them in two "
     "halves of 32 lanes, only within which accesses can conflict."},
    {"divergence",
     "Branch divergence: the 32 threads of a warp share one instruction "
     "stream. When a branch's condition differs between them, the warp runs "
     "both sides one after the other with the threads of the other side "
     "idle. `if t % 2 == 0` splits every warp (half the threads idle on "
     "each side); `if t <= 64` splits none (warps 0-1 take one side, the "
     "rest the other); `if i <= length(x)` splits only the warp the bound "
     "falls in. A tree reduction that halves `s` keeps whole warps busy "
     "while s >= 32 and splits warp 0 on the last rounds; the interleaved "
     "form `(t - 1) % (2s) == 0` splits every warp from the first round. "
     "prism remarks FILE SIG --target ptx --pass prism-divergence --threads "
     "256 decides every branch on the thread index per lane and per warp "
     "(following a loop counter through its iterations when the block is "
     "known): missed where every warp diverges, analysis otherwise; bounds "
     "checks that throw are left out. prism report counts them. With "
     "--target gcn the same verdicts are per wavefront, AMD's warp: 64 "
     "threads on gfx9/CDNA (gfx90a), 32 from gfx10 on."},
    {"address-spaces",
     "Address spaces: GPUs have several memories with different instructions. "
     "On NVIDIA (PTX) global memory is addrspace(1) (`ld.global`), shared "
     "memory addrspace(3) (`ld.shared`), local/private memory addrspace(5); "
     "on AMD (GCN) global is 1, LDS 3, private (scratch) 5 and constant 4. A "
     "DeviceArray's pointer is global memory; CuStaticSharedArray lives in "
     "shared memory. A generic pointer costs no check in the code: the "
     "hardware finds the memory its address falls in on every access. Its "
     "cost is elsewhere: it rules out the space's own instructions "
     "(`ld.shared` with 32-bit addresses, `ld.global.nc`), and on AMD a flat "
     "access must wait on both vmcnt and lgkmcnt. So the compiler works "
     "to know each pointer's address space. On ptx, shared, "
     "constant and local pointers are 32-bit (the data layout's "
     "`p3:32:32-p4:32:32-p5:32:32`, as nvcc emits them: `mov.u32 %r1, "
     "shmem; st.shared.f32 [%r1]`); global and generic ones are 64-bit."},
    {"targets",
     "Targets: ptx (NVIDIA, nvptx64-nvidia-cuda, --arch sm_75..sm_90), gcn "
     "(AMD, amdgcn-amd-amdhsa, --arch gfx90a ...), bpf (the Linux kernel's "
     "BPF VM: no floats, no shared memory, bounded loops) and native (the "
     "host CPU). Each target decides the triple, data layout, kernel calling "
     "convention, address spaces, how thread indices and math are lowered, "
     "what is forbidden, and how assembly and resource usage are produced."},
    {"cache",
     "The compile cache maps (config, function, argument types) to a "
     "compiled artefact. A hit performs no heap allocation and takes no "
     "blocking lock; it checks the world age so that an invalidated entry is "
     "never returned. prism report shows its figures."},
    {"exceptions",
     "Exceptions: an index without @inbounds, a conversion that loses "
     "information or a division by zero throws (BoundsError, InexactError, "
     "DivideError ...). Codegen turns each throw into a call of prism_throw "
     "(kind, type name, file, line of the innermost user frame) and a trap; "
     "each target gives that call its meaning. native: the host runtime "
     "records the exception and leaves the thread (siglongjmp); the launch "
     "stops and prism run reports the kind, the line and the thread (exit "
     "status 3); a fault in compiled code (an @inbounds index out of range) "
     "stops it the same way, as an invalid memory access at its line. ptx: no "
     "call is left; every throw branches to one report "
     "block that stores a 64-bit record (throw site, thread, block) through "
     "the prism_exception_info global and traps. The PTX lists its sites as "
     "`// prism.throw site=N ...` comments; the cuda device points the "
     "global at pinned host memory, reads the record after the trap and "
     "reports what the host would. CUDA.jl's runtime (GPUCompiler.jl only "
     "calls its hooks) also records the throw in host-mapped memory for the "
     "host to check, but first prints it on the device with vprintf (how "
     "much depends on Julia's -g level), an ABI call with a local buffer "
     "that costs registers, where Prism's report is a store and a fence; "
     "and it ends the thread with PTX's exit rather than a trap, so the "
     "CUDA context survives. gcn: a trap "
     "(s_trap 2) with no report. bpf: the program returns 0 (drops the "
     "packet). --check-bounds=no removes every bounds check (as if all code "
     "were @inbounds), --check-bounds=yes keeps even those @inbounds "
     "removes, as Julia's flag does. See assets/examples/exceptions.jl."},
    {"devices",
     "Devices: host (the CPU, through LLVM's JIT, with a grid runtime that "
     "runs blocks x threads), bpf (the Linux kernel's verifier and test-run) "
     "and cuda (NVIDIA GPUs through the CUDA driver API). prism devices says "
     "what each one is, or why it is unavailable. prism run prints what the "
     "device said when it loaded the code (registers and local bytes on "
     "cuda, verified instructions and the verifier's log on bpf, how the "
     "threads run on the host) after the results. A kernel that traps or "
     "faults leaves the CUDA driver refusing all work in its process, so "
     "cuda contexts live in a worker process (prism-cuda-worker) that "
     "Prism starts again after a fault, or after a launch that ran past 60 "
     "s. The fourth, interp, is the reference interpreter: see prism help "
     "interp."},
    {"interp",
     "The interp device (prism run --device interp) is the reference "
     "interpreter: it runs the call's unoptimised typed IR statement by "
     "statement, with Julia's integer and float semantics, one thread at a "
     "time, sync_threads() as a round-robin barrier. Nothing is compiled, "
     "but what the compiler rejects it rejects too. Every memory access is "
     "checked against the launch's arrays, so an @inbounds access out of "
     "range (undefined behaviour in compiled code) is reported with the "
     "array and index it missed; so is a sync_threads() that not every "
     "thread of the block reaches. It is the oracle of Prism's differential "
     "tests, and a second opinion when compiled code surprises you: "
     "gui --compare interp, or run the same call on both devices."},
};

// Prints Text filled to Width columns, breaking only at spaces (a word
// longer than the line stands alone).
void printFilled(llvm::raw_ostream &OS, std::string_view Text,
                 size_t Width = 79) {
  size_t Column = 0;
  while (!Text.empty()) {
    size_t Space = Text.find(' ');
    std::string_view Word = Text.substr(0, Space);
    Text = Space == std::string_view::npos ? std::string_view()
                                           : Text.substr(Space + 1);
    if (Word.empty())
      continue;
    if (Column && Column + 1 + Word.size() > Width) {
      OS << "\n";
      Column = 0;
    }
    if (Column) {
      OS << " ";
      ++Column;
    }
    OS << Word;
    Column += Word.size();
  }
  OS << "\n";
}

void printTopics(llvm::raw_ostream &OS) {
  OS << "Topics:";
  for (const Topic &T : Topics)
    OS << " " << T.Name;
  OS << "\nRun `prism help TOPIC`, or `prism COMMAND --help`.\n";
}
} // namespace

std::string helpTopicList() {
  std::string List;
  for (const Topic &T : Topics)
    List += (List.empty() ? "" : " | ") + std::string(T.Name);
  return List;
}

/// A command's name reads as the topic it shows (`prism help code_warntype`).
std::string_view topicOfCommand(std::string_view Name) {
  static constexpr std::pair<std::string_view, std::string_view> Aliases[] = {
      {"code_lowered", "lowered"}, {"code_typed", "typed"},
      {"code_warntype", "typed"},  {"code_llvm", "llvm"},
      {"code_native", "targets"},  {"code_ptx", "targets"},
      {"code_gcn", "targets"},     {"run", "devices"},
      {"devices", "devices"}};
  for (const auto &[Command, Topic] : Aliases)
    if (Name == Command)
      return Topic;
  return Name;
}

int runHelp(const CommandOptions &O) {
  std::string_view Wanted = topicOfCommand(O.Sig);
  for (const Topic &T : Topics)
    if (Wanted == T.Name) {
      llvm::outs() << T.Name << "\n\n";
      printFilled(llvm::outs(), T.Text);
      return ExitOk;
    }
  if (O.Sig.empty()) {
    printTopics(llvm::outs());
    return ExitOk;
  }
  // A mistaken topic is an error: all of it goes to stderr.
  llvm::errs() << "prism: no help topic `" << O.Sig << "`\n";
  printTopics(llvm::errs());
  return ExitUsage;
}

} // namespace prism::app
