#include "devices/CudaWorker.h"

#include "devices/DeviceWire.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace prism {

namespace {

enum class Op : uint8_t { Load = 1, Launch = 2, Unload = 3 };
constexpr uint32_t HelloMagic = 0x43525050; // "PPRC"
/// How long a starting worker may take to say hello (dlopen, cuInit).
constexpr int HelloTimeoutMs = 60000;

} // namespace

int serveCudaWorker(int Fd, const CudaDeviceOptions &Options) {
  CudaDeviceOptions Opts = Options;
  bool ContextLost = false;
  Opts.OnContextLost = [&] { ContextLost = true; };
  std::unique_ptr<Device> Dev = createCudaDriverDevice(Opts);

  WireWriter Hello;
  Hello.u32(HelloMagic);
  Hello.str(Dev->unavailableReason());
  if (!sendWireFrame(Fd, Hello))
    return 1;

  std::map<uint64_t, std::unique_ptr<LoadedKernel>> Kernels;
  uint64_t NextId = 1;
  WireFrame Frame;
  while (!ContextLost && readWireFrame(Fd, Frame)) {
    WireReader R(Frame);
    WireWriter W;
    LaunchResult Done; // the answer borrows its arrays until it is sent
    switch (Op(R.u8())) {
    case Op::Load: {
      DeviceArtefact A;
      A.Target = "ptx";
      A.Asm = R.str();
      A.Entry = R.str();
      if (R.failed())
        return 2;
      std::string Log;
      auto K = Dev->load(A, Log);
      W.u8(bool(K));
      W.str(Log);
      if (K) {
        W.u64(NextId);
        W.properties((*K)->attributes());
        Kernels[NextId++] = std::move(*K);
      } else {
        W.diagnostics(takeDiagnostics(K.takeError()));
      }
      break;
    }
    case Op::Launch: {
      uint64_t Id = R.u64();
      Dim3 Grid = R.dim3(), Block = R.dim3();
      std::vector<HostValue> Args = R.values();
      if (R.failed())
        return 2;
      auto It = Kernels.find(Id);
      llvm::Expected<LaunchResult> Result =
          It == Kernels.end()
              ? llvm::Expected<LaunchResult>(
                    deviceError("launch", "the cuda worker has no kernel " +
                                              std::to_string(Id)))
              : Dev->launch(*It->second, Grid, Block, Args);
      W.u8(bool(Result));
      W.u8(ContextLost);
      if (Result) {
        Done = std::move(*Result);
        W.launchResult(Done);
      } else
        W.diagnostics(takeDiagnostics(Result.takeError()));
      break;
    }
    case Op::Unload:
      Kernels.erase(R.u64());
      continue; // no answer
    default:
      return 2;
    }
    if (!sendWireFrame(Fd, W))
      return 1;
  }
  return 0;
}

std::string findCudaWorker(const CudaDeviceOptions &Opts, std::string &Looked) {
  std::vector<std::string> Candidates;
  if (!Opts.WorkerPath.empty())
    Candidates.push_back(Opts.WorkerPath);
  else {
    if (const char *Env = std::getenv("PRISM_CUDA_WORKER"); Env && *Env)
      Candidates.push_back(Env);
    llvm::SmallString<256> Self;
    if (!llvm::sys::fs::real_path("/proc/self/exe", Self)) {
      llvm::sys::path::remove_filename(Self);
      llvm::sys::path::append(Self, "prism-cuda-worker");
      Candidates.push_back(std::string(Self));
    }
#ifdef PRISM_CUDA_WORKER_BUILD_PATH
    Candidates.push_back(PRISM_CUDA_WORKER_BUILD_PATH);
#endif
  }
  Looked.clear();
  for (const std::string &C : Candidates) {
    if (llvm::sys::fs::can_execute(C))
      return C;
    Looked += (Looked.empty() ? "" : ", ") + C;
  }
  return "";
}

llvm::Expected<std::unique_ptr<CudaWorkerClient>>
CudaWorkerClient::start(const CudaDeviceOptions &Opts) {
  std::string Looked;
  std::string Path = findCudaWorker(Opts, Looked);
  if (Path.empty())
    return deviceError("device-unavailable",
                       "cannot find prism-cuda-worker (looked at " + Looked + ")");
  int Fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds))
    return deviceError("device-unavailable",
                       std::string("socketpair failed: ") + std::strerror(errno));
  // The worker's end becomes its fd 3 (dup2 clears close-on-exec there).
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Fds[1], 3);
  std::string Ordinal = std::to_string(Opts.Ordinal);
  std::vector<char *> Argv = {Path.data(), const_cast<char *>("--fd"),
                              const_cast<char *>("3"),
                              const_cast<char *>("--library"),
                              const_cast<char *>(Opts.Library.c_str()),
                              const_cast<char *>("--ordinal"), Ordinal.data(),
                              nullptr};
  pid_t Pid = -1;
  int Err = posix_spawn(&Pid, Path.c_str(), &Actions, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  ::close(Fds[1]);
  if (Err) {
    ::close(Fds[0]);
    return deviceError("device-unavailable", "cannot start " + Path + ": " +
                                                 std::strerror(Err));
  }
  std::unique_ptr<CudaWorkerClient> C(
      new CudaWorkerClient(Fds[0], Pid, Opts.LaunchTimeoutMs));

  pollfd P{Fds[0], POLLIN, 0};
  WireFrame Hello;
  int Ready;
  do
    Ready = ::poll(&P, 1, HelloTimeoutMs);
  while (Ready < 0 && errno == EINTR);
  if (Ready <= 0 || !readWireFrame(Fds[0], Hello)) {
    std::string Why = Ready == 0 ? "did not answer within " +
                                       std::to_string(HelloTimeoutMs / 1000) + " s"
                                 : "closed its socket";
    if (std::string E = C->exitTextWithin(1000); !E.empty())
      Why += " (" + E + ")";
    return deviceError("device-unavailable", Path + " " + Why);
  }
  WireReader R(Hello);
  if (R.u32() != HelloMagic)
    return deviceError("device-unavailable", Path + " is not a Prism cuda worker");
  C->Reason = R.str();
  return C;
}

CudaWorkerClient::~CudaWorkerClient() {
  if (Fd >= 0)
    ::close(Fd);
  // The worker exits when its socket closes; one stuck in a kernel that
  // never ends is killed.
  if (exitTextWithin(5000).empty()) {
    ::kill(Pid, SIGKILL);
    ::waitpid(Pid, &Status, 0);
  }
}

std::string CudaWorkerClient::exitText() {
  if (!Reaped) {
    pid_t R;
    do
      R = ::waitpid(Pid, &Status, WNOHANG);
    while (R < 0 && errno == EINTR);
    if (R != Pid)
      return "";
    Reaped = true;
  }
  if (WIFSIGNALED(Status))
    return "killed by signal " + std::to_string(WTERMSIG(Status)) + ", " +
           strsignal(WTERMSIG(Status));
  return "exited with status " + std::to_string(WEXITSTATUS(Status));
}

std::string CudaWorkerClient::exitTextWithin(int Ms) {
  // A process closes its files before it becomes a zombie, so its socket
  // can read EOF a moment before waitpid can reap it.
  // Polls from 0.1 ms up to every 10 ms: a worker told to stop is gone in
  // well under a millisecond, and a fixed 10 ms step could add 10 ms to
  // each stop.
  std::string How;
  for (int WaitedUs = 0, StepUs = 100;
       (How = exitText()).empty() && WaitedUs < Ms * 1000;
       WaitedUs += StepUs, StepUs = std::min(StepUs * 2, 10000))
    ::usleep(StepUs);
  return How;
}

llvm::Error CudaWorkerClient::call(const WireWriter &Request, WireFrame &Answer,
                                   llvm::StringRef Kind, llvm::StringRef What,
                                   unsigned TimeoutMs) {
  bool Sent = !Lost && sendWireFrame(Fd, Request);
  if (Sent && TimeoutMs) {
    pollfd P{Fd, POLLIN, 0};
    int Ready;
    do
      Ready = ::poll(&P, 1, int(std::min<unsigned>(TimeoutMs, INT_MAX)));
    while (Ready < 0 && errno == EINTR);
    if (Ready == 0) {
      // Still running: nothing but the end of its process stops a kernel.
      Lost = true;
      ::kill(Pid, SIGKILL);
      exitTextWithin(5000);
      return deviceError(
          Kind.str(),
          What.str() + " did not finish within " +
              llvm::formatv("{0}", llvm::format("%g", TimeoutMs / 1000.0))
                  .str() +
              " s: Prism stopped its cuda worker process, the only way "
              "to stop a running kernel");
    }
  }
  if (Sent && readWireFrame(Fd, Answer))
    return llvm::Error::success();
  Lost = true;
  std::string How = exitTextWithin(1000);
  return deviceError(Kind.str(), "the cuda worker process ended during " +
                                     What.str() +
                                     (How.empty() ? "" : " (" + How + ")"));
}

llvm::Expected<CudaWorkerClient::Loaded>
CudaWorkerClient::load(const std::string &Ptx, const std::string &Entry,
                       std::string &Log) {
  WireWriter W;
  W.u8(uint8_t(Op::Load));
  W.str(Ptx);
  W.str(Entry);
  WireFrame Answer;
  if (llvm::Error E = call(W, Answer, "load", "the load of `" + Entry + "`"))
    return E;
  WireReader R(Answer);
  bool Ok = R.u8();
  Log = R.str();
  Loaded L;
  std::vector<Diagnostic> Diags;
  if (Ok) {
    L.Id = R.u64();
    L.Attributes = R.properties();
  } else {
    Diags = R.diagnostics();
  }
  if (R.failed())
    return deviceError("load", "malformed answer from the cuda worker");
  if (!Ok)
    return makeDiagError(std::move(Diags));
  return L;
}

llvm::Expected<LaunchResult>
CudaWorkerClient::launch(uint64_t Id, llvm::StringRef Entry, Dim3 Grid,
                         Dim3 Block, llvm::ArrayRef<HostValue> Args) {
  WireWriter W;
  W.u8(uint8_t(Op::Launch));
  W.u64(Id);
  W.dim3(Grid);
  W.dim3(Block);
  W.values(Args);
  WireFrame Answer;
  if (llvm::Error E =
          call(W, Answer, "launch", "the launch of `" + Entry.str() + "`",
               LaunchTimeoutMs))
    return E;
  WireReader R(Answer);
  bool Ok = R.u8();
  if (R.u8())
    Lost = true; // the worker has exited after answering
  LaunchResult Result;
  std::vector<Diagnostic> Diags;
  if (Ok)
    Result = R.launchResult();
  else
    Diags = R.diagnostics();
  if (R.failed())
    return deviceError("launch", "malformed answer from the cuda worker");
  if (!Ok)
    return makeDiagError(std::move(Diags));
  return Result;
}

void CudaWorkerClient::unload(uint64_t Id) {
  if (Lost)
    return;
  WireWriter W;
  W.u8(uint8_t(Op::Unload));
  W.u64(Id);
  if (!sendWireFrame(Fd, W))
    Lost = true;
}

} // namespace prism
