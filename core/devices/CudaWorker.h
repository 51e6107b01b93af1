/// \file
/// Prism's cuda worker process. A kernel that traps or faults leaves a
/// "sticky" error behind, and the CUDA driver then refuses all work in the
/// process for good: resetting the primary context, retaining a new one or
/// creating a plain context all fail with the same error (seen on an H200,
/// driver 580). Restarting the process is the only recovery, so every
/// context lives in a worker process (`prism-cuda-worker`) that Prism
/// starts on the first load, talks to over a socket, and starts again after
/// a fault.
///
/// The protocol is framed messages (DeviceWire.h's sendWireFrame: 64-bit
/// lengths, the message's fields, then large arrays as attachments): the
/// worker says hello (whether its driver works, and why not),
/// then answers Load and Launch requests in order; Unload has no answer.
/// After answering a request whose launch lost the context the worker
/// exits.
#pragma once

#include "devices/CudaDevice.h"
#include "devices/DeviceWire.h"

#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace prism {

/// The worker's side: serves requests on Fd until it closes or a fault
/// loses the context. Returns the process's exit status.
int serveCudaWorker(int Fd, const CudaDeviceOptions &Opts);

/// The worker executable for Opts: Opts.WorkerPath, else $PRISM_CUDA_WORKER,
/// else `prism-cuda-worker` beside the running program, else the one in the
/// build tree. Empty when none exists; Looked lists where it looked.
std::string findCudaWorker(const CudaDeviceOptions &Opts, std::string &Looked);

/// Prism's side of one worker process.
class CudaWorkerClient {
public:
  /// Starts the worker and reads its hello; a worker that cannot start or
  /// does not answer is an error (kind "device-unavailable").
  static llvm::Expected<std::unique_ptr<CudaWorkerClient>>
  start(const CudaDeviceOptions &Opts);
  /// Closes the socket (the worker exits) and reaps the process.
  ~CudaWorkerClient();

  /// What the worker's driver said at start: empty when it works.
  const std::string &unavailableReason() const { return Reason; }

  struct Loaded {
    uint64_t Id = 0; ///< the worker's handle for the kernel
    std::vector<DeviceProperty> Attributes;
  };
  /// Loads PTX in the worker. Log receives the JIT log either way.
  llvm::Expected<Loaded> load(const std::string &Ptx, const std::string &Entry,
                              std::string &Log);
  /// Runs loaded kernel Id (Entry names it in messages). After an error,
  /// lost() says whether the worker lost its context and has exited, or
  /// ran past the launch timeout and was stopped.
  llvm::Expected<LaunchResult> launch(uint64_t Id, llvm::StringRef Entry,
                                      Dim3 Grid, Dim3 Block,
                                      llvm::ArrayRef<HostValue> Args);
  void unload(uint64_t Id);
  /// The worker is gone: it lost its context, died or stopped answering.
  bool lost() const { return Lost; }

private:
  CudaWorkerClient(int Fd, pid_t Pid, unsigned TimeoutMs)
      : Fd(Fd), Pid(Pid), LaunchTimeoutMs(TimeoutMs) {}
  /// Sends a request and reads the answer within TimeoutMs (0: no limit);
  /// an error of Kind ("load", "launch") when the worker died or was
  /// stopped for the time.
  llvm::Error call(const WireWriter &Request, WireFrame &Answer,
                   llvm::StringRef Kind, llvm::StringRef What,
                   unsigned TimeoutMs = 0);
  /// "killed by signal 11", "exited with status 1", or "" while running.
  std::string exitText();
  /// exitText, waiting up to Ms milliseconds for the process to end.
  std::string exitTextWithin(int Ms);

  int Fd = -1;
  pid_t Pid = -1;
  unsigned LaunchTimeoutMs = 0;
  std::string Reason;
  bool Lost = false;
  bool Reaped = false;
  int Status = 0;
};

} // namespace prism
