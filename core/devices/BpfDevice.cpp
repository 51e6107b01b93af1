#include "devices/BpfDevice.h"

#include "support/Timer.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <mutex>

namespace prism {

namespace {

/// libbpf reports through one process-wide print callback. We install ours
/// once and route messages to the buffer of the load in progress on this
/// thread, so nothing reaches stderr and every message lands in a log.
thread_local std::string *LibbpfCapture = nullptr;

int libbpfPrint(enum libbpf_print_level Level, const char *Fmt, va_list Args) {
  if (!LibbpfCapture || Level == LIBBPF_DEBUG)
    return 0;
  char Buf[1024];
  int N = std::vsnprintf(Buf, sizeof Buf, Fmt, Args);
  if (N > 0)
    LibbpfCapture->append(Buf, std::min<size_t>(N, sizeof Buf - 1));
  return N;
}

void installLibbpfPrint() {
  static std::once_flag Once;
  std::call_once(Once, [] { libbpf_set_print(libbpfPrint); });
}

/// Routes libbpf's messages into Into for the lifetime of the scope.
class CaptureLibbpf {
public:
  explicit CaptureLibbpf(std::string &Into) : Prev(LibbpfCapture) {
    LibbpfCapture = &Into;
  }
  ~CaptureLibbpf() { LibbpfCapture = Prev; }

private:
  std::string *Prev;
};

std::string errnoText(int Err) {
  return std::string(strerrorname_np(Err) ? strerrorname_np(Err) : "E?") +
         " (" + std::strerror(Err) + ")";
}

/// Room for a rejected path of a large program. The kernel fails the load
/// with ENOSPC when the log does not fit, so this is generous.
constexpr size_t VerifierLogBytes = 16 << 20;

class BpfKernel final : public LoadedKernel {
public:
  BpfKernel(bpf_object *Obj, int Fd, std::string Name, std::string LoadLog,
            std::vector<DeviceProperty> Attrs)
      : Obj(Obj), Fd(Fd) {
    Entry = std::move(Name);
    Log = std::move(LoadLog);
    Attributes = std::move(Attrs);
  }
  ~BpfKernel() override { bpf_object__close(Obj); } // closes the program fd
  int fd() const { return Fd; }

private:
  bpf_object *Obj;
  int Fd;
};

class BpfDevice final : public Device {
public:
  BpfDevice() {
    installLibbpfPrint();
    utsname U;
    if (uname(&U) == 0)
      KernelRelease = U.release;
    probe();
  }

  llvm::StringRef name() const override { return "bpf"; }
  llvm::StringRef target() const override { return "bpf"; }
  std::string description() const override {
    return "Linux " + KernelRelease +
           " BPF verifier and BPF_PROG_TEST_RUN (socket filter)";
  }
  bool available() const override { return Reason.empty(); }
  std::string unavailableReason() const override { return Reason; }
  std::vector<DeviceProperty> properties() const override {
    return {{"kernel", KernelRelease},
            {"program type", "socket_filter"},
            {"libbpf", std::to_string(libbpf_major_version()) + "." +
                           std::to_string(libbpf_minor_version())},
            {"run", "BPF_PROG_TEST_RUN"}};
  }

  llvm::Expected<std::unique_ptr<LoadedKernel>>
  load(const DeviceArtefact &A, std::string &Log) override;
  llvm::Expected<LaunchResult> launch(LoadedKernel &K, Dim3 Grid, Dim3 Block,
                                      llvm::ArrayRef<HostValue> Args) override;

private:
  /// Loads the smallest valid program to learn whether the kernel lets us.
  void probe() {
    bpf_insn Insns[2] = {};
    Insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K; // r0 = 0
    Insns[1].code = BPF_JMP | BPF_EXIT;
    std::string Ignored;
    CaptureLibbpf Capture(Ignored);
    int Fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "prism_probe", "GPL",
                           Insns, 2, nullptr);
    if (Fd >= 0) {
      close(Fd);
      return;
    }
    int Err = errno;
    Reason = "cannot load BPF programs: " + errnoText(Err);
    if (Err == EPERM || Err == EACCES)
      Reason += "; needs root or CAP_BPF";
  }

  std::mutex M;
  std::string KernelRelease = "?";
  std::string Reason;
};

/// The entry program: by name, or the only program of the object.
bpf_program *findEntry(bpf_object *Obj, llvm::StringRef Entry,
                       std::string &Error) {
  std::vector<bpf_program *> Progs;
  bpf_program *P = nullptr;
  bpf_object__for_each_program(P, Obj) Progs.push_back(P);
  for (bpf_program *Q : Progs)
    if (Entry == bpf_program__name(Q))
      return Q;
  if (Entry.empty() && Progs.size() == 1)
    return Progs.front();
  std::vector<std::string> Names;
  for (bpf_program *Q : Progs)
    Names.push_back(bpf_program__name(Q));
  Error = Progs.empty()
              ? "the object has no BPF program (an entry in `.text` is a "
                "subprogram to libbpf; it needs its own section)"
              : "no program `" + Entry.str() + "` in the object (it has: " +
                    llvm::join(Names, ", ") + ")";
  return nullptr;
}

/// Places a rejection on a source line: the caller's line table first (the
/// nearest entry at or before the instruction), else the BTF line note.
DiagLoc rejectionLoc(const DeviceArtefact &A, const VerifierRejection &R) {
  if (R.Insn && !A.LineTable.empty()) {
    const DeviceArtefact::InsnLine *Best = nullptr;
    for (const DeviceArtefact::InsnLine &L : A.LineTable)
      if (L.Insn <= *R.Insn && (!Best || L.Insn >= Best->Insn))
        Best = &L;
    if (Best)
      return Best->Loc;
  }
  DiagLoc Loc;
  if (R.SourceLine) {
    Loc.FileName = R.SourceFile;
    Loc.Line = R.SourceLine;
    Loc.Col = 1;
  }
  return Loc;
}

llvm::Expected<std::unique_ptr<LoadedKernel>>
BpfDevice::load(const DeviceArtefact &A, std::string &Log) {
  Log.clear();
  if (!available())
    return deviceError("device-unavailable", "bpf device unavailable: " + Reason);
  if (A.Target != "bpf")
    return deviceError("load", "the bpf device runs bpf artefacts, not `" +
                                   A.Target + "`");
  if (A.Object.empty())
    return deviceError("load", "the bpf artefact has no object image");

  std::lock_guard<std::mutex> Lock(M);
  std::string LibbpfLog;
  CaptureLibbpf Capture(LibbpfLog);

  bpf_object_open_opts Opts;
  std::memset(&Opts, 0, sizeof Opts);
  Opts.sz = sizeof Opts;
  std::string ObjName = A.Entry.empty() ? "prism" : A.Entry;
  Opts.object_name = ObjName.c_str();
  bpf_object *Obj = bpf_object__open_mem(A.Object.data(), A.Object.size(), &Opts);
  if (!Obj) {
    int Err = errno;
    Log = LibbpfLog;
    return deviceError("load", "libbpf cannot open the BPF object: " +
                                   errnoText(Err), Log);
  }
  // From here on every path closes Obj (which closes the program fds).
  auto Fail = [&](std::string Kind, std::string Msg) -> llvm::Error {
    bpf_object__close(Obj);
    return deviceError(std::move(Kind), std::move(Msg), Log);
  };

  std::string FindError;
  bpf_program *Prog = findEntry(Obj, A.Entry, FindError);
  if (!Prog) {
    Log = LibbpfLog;
    return Fail("load", FindError);
  }
  // A function in `.text` is a subprogram to libbpf, never a program: an
  // entry that did not get the program shape (pointer[, integer] → integer)
  // stays there.
  if (llvm::StringRef(bpf_program__section_name(Prog)) == ".text")
    return Fail("load", "`" + A.Entry + "` is not a socket-filter program: "
                        "a program takes (Ptr{UInt8}[, UInt32]) and returns "
                        "an integer");
  std::string VerifierLog(VerifierLogBytes, '\0');
  bpf_program *P = nullptr;
  bpf_object__for_each_program(P, Obj) {
    // Only the entry is loaded: another program of the object failing the
    // verifier must not hide the entry's own result.
    bpf_program__set_autoload(P, P == Prog);
    bpf_program__set_type(P, BPF_PROG_TYPE_SOCKET_FILTER);
  }
  bpf_program__set_log_buf(Prog, VerifierLog.data(), VerifierLog.size());
  bpf_program__set_log_level(Prog, 1);

  int Err = bpf_object__load(Obj);
  VerifierLog.resize(std::strlen(VerifierLog.c_str()));
  Log = VerifierLog;
  if (!LibbpfLog.empty())
    Log += (Log.empty() ? "" : "\n") + LibbpfLog;
  std::string Name = bpf_program__name(Prog);

  if (Err) {
    if (VerifierLog.empty())
      return Fail("load", "libbpf cannot load `" + Name + "`: " +
                              errnoText(-Err));
    VerifierRejection R = parseVerifierLog(VerifierLog);
    std::string Msg = "the kernel's verifier rejected `" + Name + "`";
    if (R.Insn)
      Msg += " at instruction " + std::to_string(*R.Insn);
    if (!R.Reason.empty())
      Msg += ": " + R.Reason;
    Diagnostic D = deviceDiagnostic("verifier", Msg, Log);
    D.Loc = rejectionLoc(A, R);
    if (!R.InsnText.empty())
      D.Notes.insert(D.Notes.begin(),
                     DiagNote{"offending instruction: " + R.InsnText, {}});
    bpf_object__close(Obj);
    return makeDiagError(std::move(D));
  }

  std::vector<DeviceProperty> Attrs;
  Attrs.push_back({"instructions", std::to_string(bpf_program__insn_cnt(Prog))});
  llvm::SmallVector<llvm::StringRef, 2> Match;
  if (llvm::Regex("processed ([0-9]+) insns").match(VerifierLog, &Match))
    Attrs.push_back({"verified instructions", Match[1].str()});
  return std::make_unique<BpfKernel>(Obj, bpf_program__fd(Prog), Name, Log,
                                     std::move(Attrs));
}

llvm::Expected<LaunchResult> BpfDevice::launch(LoadedKernel &K, Dim3 Grid,
                                               Dim3 Block,
                                               llvm::ArrayRef<HostValue> Args) {
  if (!available())
    return deviceError("device-unavailable", "bpf device unavailable: " + Reason);
  if (Grid.count() != 1 || Block.count() != 1)
    return deviceError("argument", "a BPF program runs once on one packet; "
                                   "--blocks/--threads do not apply");
  auto &Kernel = static_cast<BpfKernel &>(K);

  // The packet is the UInt8 array argument; the program's other parameter
  // (its length) comes from the kernel's skb, so scalars are not passed.
  int PacketArg = -1;
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I].isArray() && Args[I].scalarKind() == ScalarKind::UInt8) {
      if (PacketArg >= 0)
        return deviceError("argument", "a BPF program takes one packet; got "
                                       "two UInt8 arrays");
      PacketArg = int(I);
    }
  if (PacketArg < 0)
    return deviceError(
        "argument",
        "the bpf device runs a program on a packet: pass a "
        "`UInt8[...]` argument (the frame after its Ethernet header, "
        "which Prism puts back)");
  llvm::ArrayRef<uint8_t> Packet = Args[PacketArg].bytes();
  // BPF_PROG_TEST_RUN builds an skb with an Ethernet header from the data.
  if (Packet.size() < 14)
    return deviceError("argument", "the packet has " +
                                       std::to_string(Packet.size()) +
                                       " bytes; a frame needs at least 14 "
                                       "(the Ethernet header)");

  std::lock_guard<std::mutex> Lock(M);
  bpf_test_run_opts Opts;
  std::memset(&Opts, 0, sizeof Opts);
  Opts.sz = sizeof Opts;
  Opts.data_in = Packet.data();
  Opts.data_size_in = Packet.size();
  Opts.repeat = 1;
  StageTimer Wall;
  int Err = bpf_prog_test_run_opts(Kernel.fd(), &Opts);
  double WallMs = Wall.elapsedMs();
  if (Err) {
    const int E = errno;
    std::string Msg =
        "BPF_PROG_TEST_RUN of `" + K.entry() + "` failed: " + errnoText(E);
    // The kernel builds the test skb in one page, headroom and tail
    // included: a frame of much more than 3.5 KiB does not fit.
    if (E == EINVAL && Packet.size() > 3500)
      Msg += " (the kernel builds a test frame in one page with its "
             "headroom: this one, " +
             std::to_string(Packet.size()) +
             " bytes with the Ethernet header Prism adds, does not fit)";
    return deviceError("launch", Msg);
  }

  LaunchResult R;
  R.Return = HostValue::scalar(ScalarKind::UInt32, Opts.retval);
  // A socket filter cannot change the packet, so the arguments come back as
  // they went in. (The kernel's data_out would not do: it starts after the
  // Ethernet header that eth_type_trans consumed.)
  R.Args.assign(Args.begin(), Args.end());
  // The kernel's own per-run duration (ns); the wall clock when it says 0.
  if (Opts.duration) {
    R.TimeMs = Opts.duration / 1e6;
    R.TimeSource = "BPF_PROG_TEST_RUN duration";
  } else {
    R.TimeMs = WallMs;
    R.TimeSource = "wall clock";
  }
  return R;
}

} // namespace

VerifierRejection parseVerifierLog(llvm::StringRef Log) {
  VerifierRejection R;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Log.split(Lines, '\n');
  llvm::Regex InsnLine("^([0-9]+): \\([0-9a-f]{2}\\) ");
  llvm::Regex SourceNote("^;.* @ ([^ ]+):([0-9]+)$");
  llvm::Regex InsnMention("insn #?([0-9]+)");

  // The offending instruction is the last one the verifier printed.
  int LastInsn = -1;
  std::string File;
  uint32_t Line = 0;
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::SmallVector<llvm::StringRef, 3> M;
    llvm::StringRef L = Lines[I].rtrim();
    if (SourceNote.match(L, &M)) {
      File = M[1].str();
      M[2].getAsInteger(10, Line);
    } else if (InsnLine.match(L, &M)) {
      LastInsn = int(I);
      uint32_t N = 0;
      M[1].getAsInteger(10, N);
      R.Insn = N;
      R.InsnText = L.str();
      R.SourceFile = File;
      R.SourceLine = Line;
    }
  }

  auto IsNoise = [](llvm::StringRef L) {
    L = L.trim();
    if (L.empty() || L.startswith(";") || L.startswith("processed ") ||
        L.startswith("verification time") || L.startswith("stack depth") ||
        L.startswith("mark_precise") || L.startswith("func#") ||
        L.startswith("from ") || L.startswith("last_idx") ||
        L.startswith("parent ") || L.startswith("-- "))
      return true;
    // Register state: "12: R0=..." or "R1=ctx() R10=fp0".
    return llvm::Regex("^([0-9]+: )?R[0-9]+(_[rw])?=").match(L);
  };
  for (size_t I = LastInsn + 1; I < Lines.size(); ++I) {
    if (IsNoise(Lines[I]) ||
        (LastInsn < 0 && InsnLine.match(Lines[I].rtrim())))
      continue;
    R.Reason = Lines[I].trim().str();
    break;
  }
  // Structural rejections (CFG checks) print no instruction, only a mention.
  llvm::SmallVector<llvm::StringRef, 2> M;
  if (!R.Insn && InsnMention.match(R.Reason, &M)) {
    uint32_t N = 0;
    M[1].getAsInteger(10, N);
    R.Insn = N;
  }
  return R;
}

std::unique_ptr<Device> createBpfDevice() {
  return std::make_unique<BpfDevice>();
}

} // namespace prism
