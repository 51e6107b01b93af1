/// \file
/// The cuda device Prism uses: the driver in this process answers what the
/// GPU is (no context is ever created here), and a worker process
/// (CudaWorker.h) holds the context, loads and launches. After a fault the
/// worker exits and the next load or launch starts another; kernels keep
/// their PTX and load again into the new one.
#include "devices/CudaDevice.h"
#include "devices/CudaWorker.h"

#include <mutex>

namespace prism {

namespace {

class CudaProcessDevice;

class WorkerKernel final : public LoadedKernel {
public:
  WorkerKernel(CudaProcessDevice &Dev, std::string Ptx, std::string Name)
      : Dev(Dev), Ptx(std::move(Ptx)) {
    Entry = std::move(Name);
  }
  ~WorkerKernel() override;

private:
  friend class CudaProcessDevice;
  CudaProcessDevice &Dev;
  std::string Ptx;
  uint64_t Id = 0;         ///< the worker's handle
  uint64_t Generation = 0; ///< the worker it was loaded into
};

class CudaProcessDevice final : public Device {
public:
  explicit CudaProcessDevice(const CudaDeviceOptions &Opts)
      : Opts(Opts), Driver(createCudaDriverDevice(Opts)) {
    std::string Looked;
    this->Opts.WorkerPath = findCudaWorker(Opts, Looked);
    if (this->Opts.WorkerPath.empty())
      NoWorker = "cannot find prism-cuda-worker (looked at " + Looked + ")";
  }

  llvm::StringRef name() const override { return Driver->name(); }
  llvm::StringRef target() const override { return Driver->target(); }
  std::string description() const override { return Driver->description(); }
  bool available() const override {
    return Driver->available() && NoWorker.empty();
  }
  std::string unavailableReason() const override {
    return Driver->available() ? NoWorker : Driver->unavailableReason();
  }
  std::vector<DeviceProperty> properties() const override {
    std::vector<DeviceProperty> P = Driver->properties();
    if (available())
      P.push_back({"worker", Opts.WorkerPath});
    return P;
  }
  std::string defaultArch() const override { return Driver->defaultArch(); }

  llvm::Expected<std::unique_ptr<LoadedKernel>>
  load(const DeviceArtefact &A, std::string &Log) override {
    Log.clear();
    if (llvm::Error E = checkCudaLoad(*this, A))
      return E;
    // K before the lock: a failed load destroys K, whose unload takes M,
    // only after the lock is released.
    auto K = std::make_unique<WorkerKernel>(*this, A.Asm, A.Entry);
    std::lock_guard<std::mutex> Lock(M);
    if (llvm::Error E = loadInWorker(*K, Log))
      return E;
    return std::unique_ptr<LoadedKernel>(std::move(K));
  }

  llvm::Expected<LaunchResult> launch(LoadedKernel &LK, Dim3 Grid, Dim3 Block,
                                      llvm::ArrayRef<HostValue> Args) override {
    if (llvm::Error E = checkCudaLaunch(*this, Grid, Block))
      return E;
    auto &K = static_cast<WorkerKernel &>(LK);
    std::lock_guard<std::mutex> Lock(M);
    if (!Worker || K.Generation != Generation) {
      std::string Log;
      if (llvm::Error E = loadInWorker(K, Log))
        return E;
    }
    llvm::Expected<LaunchResult> R =
        Worker->launch(K.Id, K.entry(), Grid, Block, Args);
    if (!Worker->lost())
      return R;
    // The worker has exited (a fault lost its context, or it died): say so
    // on the error, and start another on the next load or launch.
    Worker.reset();
    if (R)
      return R;
    std::vector<Diagnostic> Diags = takeDiagnostics(R.takeError());
    if (!Diags.empty())
      Diags.front().note("Prism's cuda worker process ended with it; the next "
                         "launch starts a new one and loads its kernels again");
    return makeDiagError(std::move(Diags));
  }

  void unload(WorkerKernel &K) {
    if (!K.Id)
      return; // never loaded
    std::lock_guard<std::mutex> Lock(M);
    if (Worker && K.Generation == Generation)
      Worker->unload(K.Id);
  }

private:
  /// Loads K into the current worker, starting one first if there is none.
  llvm::Error loadInWorker(WorkerKernel &K, std::string &Log) {
    if (!Worker) {
      auto W = CudaWorkerClient::start(Opts);
      if (!W)
        return W.takeError();
      if (!(*W)->unavailableReason().empty())
        return deviceError("device-unavailable",
                           "the cuda worker's driver is unavailable: " +
                               (*W)->unavailableReason());
      Worker = std::move(*W);
      ++Generation;
    }
    auto L = Worker->load(K.Ptx, K.entry(), Log);
    if (!L) {
      if (Worker->lost())
        Worker.reset();
      return L.takeError();
    }
    K.Id = L->Id;
    K.Generation = Generation;
    K.Log = Log;
    K.Attributes = std::move(L->Attributes);
    return llvm::Error::success();
  }

  CudaDeviceOptions Opts; ///< with the worker's path found
  std::string NoWorker;   ///< why there is no worker to start
  std::unique_ptr<Device> Driver; ///< identity only; never enters a context
  std::mutex M;
  std::unique_ptr<CudaWorkerClient> Worker;
  uint64_t Generation = 0; ///< counts the workers started
};

WorkerKernel::~WorkerKernel() { Dev.unload(*this); }

} // namespace

std::unique_ptr<Device> createCudaDevice(const CudaDeviceOptions &Opts) {
  return std::make_unique<CudaProcessDevice>(Opts);
}

} // namespace prism
