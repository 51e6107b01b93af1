#include "devices/CudaDevice.h"

#include "codegen/Runtime.h"
#include "targets/PtxThrowSites.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>

#ifdef PRISM_HAVE_CUDA_H
#include <cuda.h>
#else
// Without the toolkit's header we declare the handful of types and values
// this file uses. They are part of the driver's stable ABI (values checked
// against cuda.h 13.0).
extern "C" {
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef enum CUjit_option_enum {
  CU_JIT_WALL_TIME = 2,
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_LOG_VERBOSE = 12,
} CUjit_option;
typedef enum CUdevice_attribute_enum {
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
} CUdevice_attribute;
typedef enum CUfunction_attribute_enum {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
} CUfunction_attribute;
enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
  CUDA_ERROR_INVALID_PC = 718,
  CUDA_ERROR_LAUNCH_FAILED = 719,
};
enum { CU_EVENT_DEFAULT = 0 };
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
}
#endif

namespace prism {

llvm::Error checkCudaLoad(const Device &D, const DeviceArtefact &A) {
  if (!D.available())
    return deviceError("device-unavailable",
                       "cuda device unavailable: " + D.unavailableReason());
  if (A.Target != "ptx")
    return deviceError("load", "the cuda device runs ptx artefacts, not `" +
                                   A.Target + "`");
  if (A.Asm.empty() || A.Entry.empty())
    return deviceError("load", "the ptx artefact needs PTX text and an entry name");
  return llvm::Error::success();
}

llvm::Error checkCudaLaunch(const Device &D, Dim3 Grid, Dim3 Block) {
  if (!D.available())
    return deviceError("device-unavailable",
                       "cuda device unavailable: " + D.unavailableReason());
  if (!Grid.count() || !Block.count())
    return deviceError("argument", "grid and block sizes must be at least 1");
  return llvm::Error::success();
}

std::string cudaArchFor(int Major, int Minor) {
  int CC = std::clamp(Major * 10 + Minor, 75, 90);
  return "sm_" + std::to_string(CC);
}

namespace {

/// The driver entry points, resolved with dlsym. Names carry the ABI
/// version suffix the header maps them to (`cuMemAlloc` is
/// `cuMemAlloc_v2`); the pointers have our own names so that cuda.h's
/// macros do not rename them.
struct DriverApi {
  CUresult (*Init)(unsigned);
  CUresult (*DriverGetVersion)(int *);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
  CUresult (*DeviceTotalMem)(size_t *, CUdevice);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*PrimaryCtxRelease)(CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)();
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                               CUjit_option *, void **);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*FuncGetAttribute)(int *, CUfunction_attribute, CUfunction);
  /// Optional: the driver's occupancy for a block size (checks Prism's).
  CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int,
                                                        size_t) = nullptr;
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*MemHostAlloc)(void **, size_t, unsigned);
  CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*MemFreeHost)(void *);
  CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*EventDestroy)(CUevent);
  CUresult (*GetErrorName)(CUresult, const char **);
  CUresult (*GetErrorString)(CUresult, const char **);

  /// Resolves every entry point; the error names the first one missing.
  bool resolve(void *Lib, std::string &Error) {
    bool Ok = true;
    auto Get = [&](auto &Fn, const char *Name) {
      void *P = dlsym(Lib, Name);
      if (!P && Ok) {
        Error = std::string("libcuda.so.1 has no `") + Name +
                "` (driver too old?)";
        Ok = false;
      }
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(P);
    };
    Get(Init, "cuInit");
    Get(DriverGetVersion, "cuDriverGetVersion");
    Get(DeviceGetCount, "cuDeviceGetCount");
    Get(DeviceGet, "cuDeviceGet");
    Get(DeviceGetName, "cuDeviceGetName");
    Get(DeviceGetAttribute, "cuDeviceGetAttribute");
    Get(DeviceTotalMem, "cuDeviceTotalMem_v2");
    Get(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    Get(PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    Get(CtxSetCurrent, "cuCtxSetCurrent");
    Get(CtxSynchronize, "cuCtxSynchronize");
    Get(ModuleLoadDataEx, "cuModuleLoadDataEx");
    Get(ModuleUnload, "cuModuleUnload");
    Get(ModuleGetFunction, "cuModuleGetFunction");
    Get(FuncGetAttribute, "cuFuncGetAttribute");
    Get(MemAlloc, "cuMemAlloc_v2");
    Get(MemFree, "cuMemFree_v2");
    Get(MemcpyHtoD, "cuMemcpyHtoD_v2");
    Get(MemcpyDtoH, "cuMemcpyDtoH_v2");
    Get(MemHostAlloc, "cuMemHostAlloc");
    Get(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
    Get(MemFreeHost, "cuMemFreeHost");
    Get(ModuleGetGlobal, "cuModuleGetGlobal_v2");
    Get(LaunchKernel, "cuLaunchKernel");
    Get(EventCreate, "cuEventCreate");
    Get(EventRecord, "cuEventRecord");
    Get(EventSynchronize, "cuEventSynchronize");
    // The unversioned symbol exists in every driver; _v2 only from 12.8.
    Get(EventElapsedTime, "cuEventElapsedTime");
    Get(EventDestroy, "cuEventDestroy_v2");
    Get(GetErrorName, "cuGetErrorName");
    Get(GetErrorString, "cuGetErrorString");
    OccupancyMaxActiveBlocksPerMultiprocessor =
        reinterpret_cast<decltype(OccupancyMaxActiveBlocksPerMultiprocessor)>(
            dlsym(Lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor"));
    return Ok;
  }

  /// "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)".
  std::string errorText(CUresult R) const {
    const char *Name = nullptr, *Text = nullptr;
    if (GetErrorName)
      GetErrorName(R, &Name);
    if (GetErrorString)
      GetErrorString(R, &Text);
    std::string S = Name ? Name : "CUDA error " + std::to_string(int(R));
    if (Text)
      S += std::string(" (") + Text + ")";
    return S;
  }
};

/// Errors after which the context is unusable until it is reset (the
/// "sticky" errors of a faulting kernel).
bool corruptsContext(CUresult R) {
  switch (int(R)) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return true;
  default:
    return false;
  }
}

class CudaDevice;

class CudaKernel final : public LoadedKernel {
public:
  CudaKernel(CudaDevice &Dev, std::string Ptx, std::string Name)
      : Dev(Dev), Ptx(std::move(Ptx)), Sites(parseThrowSites(this->Ptx)) {
    Entry = std::move(Name);
  }
  ~CudaKernel() override;

  CudaDevice &Dev;
  std::string Ptx;         ///< what loadModule JIT-compiles
  std::vector<PtxThrowSite> Sites; ///< the PTX's throw-site table
  CUmodule Module = nullptr;
  CUfunction Function = nullptr;

  friend class CudaDevice;
  void setLog(std::string L) { Log = std::move(L); }
  void setAttributes(std::vector<DeviceProperty> A) { Attributes = std::move(A); }
};

class CudaDevice final : public Device {
public:
  explicit CudaDevice(const CudaDeviceOptions &Opts) : Opts(Opts) { open(); }
  ~CudaDevice() override {
    if (Ctx) {
      releaseRecord();
      Api.PrimaryCtxRelease(Dev);
    }
    // libcuda stays loaded: unloading the driver while it has threads and
    // atexit handlers registered is a known way to crash at exit.
  }

  llvm::StringRef name() const override { return "cuda"; }
  llvm::StringRef target() const override { return "ptx"; }
  std::string description() const override {
    if (!available())
      return "CUDA (unavailable)";
    return DeviceName + " (" + defaultArch() + ", " + std::to_string(SMs) +
           " SMs)";
  }
  bool available() const override { return Reason.empty(); }
  std::string unavailableReason() const override { return Reason; }
  std::string defaultArch() const override {
    return available() ? cudaArchFor(CCMajor, CCMinor) : "";
  }
  std::vector<DeviceProperty> properties() const override {
    std::vector<DeviceProperty> P{{"library", Opts.Library}};
    if (DriverVersion)
      P.push_back({"driver version", std::to_string(DriverVersion / 1000) +
                                         "." +
                                         std::to_string(DriverVersion % 1000 / 10)});
    if (!available())
      return P;
    P.push_back({"name", DeviceName});
    P.push_back({"ordinal", std::to_string(Opts.Ordinal)});
    P.push_back({"compute capability",
                 std::to_string(CCMajor) + "." + std::to_string(CCMinor)});
    P.push_back({"arch", defaultArch()});
    P.push_back({"multiprocessors", std::to_string(SMs)});
    std::string Mem;
    llvm::raw_string_ostream(Mem)
        << llvm::format("%.1f GiB", double(TotalMem) / (1ull << 30));
    P.push_back({"memory", Mem});
    return P;
  }

  llvm::Expected<std::unique_ptr<LoadedKernel>>
  load(const DeviceArtefact &A, std::string &Log) override;
  llvm::Expected<LaunchResult> launch(LoadedKernel &K, Dim3 Grid, Dim3 Block,
                                      llvm::ArrayRef<HostValue> Args) override;

  void unload(CudaKernel &K) {
    if (!K.Module)
      return; // never loaded
    std::lock_guard<std::mutex> Lock(M);
    if (K.Module && Ctx && Lost.empty()) {
      Api.CtxSetCurrent(Ctx);
      Api.ModuleUnload(K.Module);
    }
    K.Module = nullptr;
  }

private:
  void open() {
    Lib = dlopen(Opts.Library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Lib) {
      const char *E = dlerror();
      Reason = Opts.Library + " not found" +
               (E ? std::string(" (") + E + ")" : std::string());
      return;
    }
    if (!Api.resolve(Lib, Reason))
      return;
    if (CUresult R = Api.Init(0)) {
      Reason = "cuInit failed: " + Api.errorText(R);
      return;
    }
    Api.DriverGetVersion(&DriverVersion);
    int Count = 0;
    if (CUresult R = Api.DeviceGetCount(&Count)) {
      Reason = "cuDeviceGetCount failed: " + Api.errorText(R);
      return;
    }
    if (Opts.Ordinal >= Count) {
      Reason = "no CUDA device " + std::to_string(Opts.Ordinal) + " (" +
               std::to_string(Count) + " present)";
      return;
    }
    if (CUresult R = Api.DeviceGet(&Dev, Opts.Ordinal)) {
      Reason = "cuDeviceGet failed: " + Api.errorText(R);
      return;
    }
    char Name[256] = {};
    Api.DeviceGetName(Name, sizeof Name - 1, Dev);
    DeviceName = Name;
    Api.DeviceGetAttribute(&CCMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev);
    Api.DeviceGetAttribute(&CCMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev);
    Api.DeviceGetAttribute(&SMs, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev);
    Api.DeviceTotalMem(&TotalMem, Dev);
  }

  /// Retains the primary context on first use (creating it costs time and
  /// memory, and `prism devices` never needs it) and makes it current on
  /// this thread.
  llvm::Error enterContext() {
    if (!Lost.empty())
      return deviceError("device-unavailable",
                         "the CUDA context was lost to an earlier fault (" +
                             Lost +
                             "); the driver refuses all work in the "
                             "process that ran it");
    if (!Ctx)
      if (CUresult R = Api.PrimaryCtxRetain(&Ctx, Dev)) {
        Ctx = nullptr;
        return deviceError("device-unavailable",
                           "cannot create a CUDA context: " + Api.errorText(R));
      }
    if (CUresult R = Api.CtxSetCurrent(Ctx))
      return deviceError("device-unavailable",
                         "cuCtxSetCurrent failed: " + Api.errorText(R));
    if (!Record)
      allocateRecord();
    return llvm::Error::success();
  }

  /// The exception record kernels write before they trap (PtxThrowSites.h):
  /// one word of mapped, pinned host memory, so that it can be read after
  /// the trap has made the context unusable. Without it (the driver
  /// refused) a throw is reported as the bare trap it is.
  void allocateRecord() {
    void *P = nullptr;
    if (Api.MemHostAlloc(&P, sizeof(uint64_t), CU_MEMHOSTALLOC_DEVICEMAP))
      return;
    CUdeviceptr D = 0;
    if (Api.MemHostGetDevicePointer(&D, P, 0)) {
      Api.MemFreeHost(P);
      return;
    }
    Record = static_cast<volatile uint64_t *>(P);
    *Record = 0;
    RecordOnDevice = D;
  }
  void releaseRecord() {
    if (Record)
      Api.MemFreeHost(const_cast<uint64_t *>(Record));
    Record = nullptr;
    RecordOnDevice = 0;
  }

  /// The exception K's kernel recorded, if it recorded one.
  std::optional<ThrownException> thrownBy(const CudaKernel &K, Dim3 Grid,
                                          Dim3 Block) const {
    uint64_t Word = Record ? *Record : 0;
    if (!Word)
      return std::nullopt;
    ThrowRecord Rec = decodeThrowRecord(Word);
    ThrownException E;
    E.TypeName = "an exception";
    for (const PtxThrowSite &S : K.Sites)
      if (S.Id == Rec.Site) {
        E.Kind = S.Kind;
        E.TypeName = S.TypeName;
        E.File = S.File;
        E.Line = S.Line;
      }
    // Linear indices back to (x, y, z); the block index is kept modulo 2^32.
    auto Split = [](uint64_t Linear, Dim3 D, uint32_t Out[3]) {
      Out[0] = uint32_t(Linear % D.X);
      Out[1] = uint32_t(Linear / D.X % D.Y);
      Out[2] = uint32_t(Linear / (uint64_t(D.X) * D.Y));
    };
    E.HasThread = Grid.count() <= UINT32_MAX && Rec.Thread < Block.count();
    Split(Rec.Thread, Block, E.Thread);
    Split(Rec.Block, Grid, E.Block);
    return E;
  }

  /// After a faulting kernel the driver refuses all work in this process
  /// (CudaWorker.h): the device says so from then on, and tells its owner.
  void loseContext(std::string Why) {
    Lost = std::move(Why);
    if (Opts.OnContextLost)
      Opts.OnContextLost();
  }

  /// JIT-compiles K's PTX in the current context.
  llvm::Error loadModule(CudaKernel &K, std::string &Log);

  CudaDeviceOptions Opts;
  void *Lib = nullptr;
  DriverApi Api{};
  std::string Reason;
  CUdevice Dev = 0;
  std::string DeviceName;
  int CCMajor = 0, CCMinor = 0, SMs = 0, DriverVersion = 0;
  size_t TotalMem = 0;

  std::mutex M;
  CUcontext Ctx = nullptr;
  std::string Lost; ///< the fault that lost the context, once one did
  volatile uint64_t *Record = nullptr; ///< the exception record, host side
  CUdeviceptr RecordOnDevice = 0;      ///< and the kernels' address of it
};

CudaKernel::~CudaKernel() { Dev.unload(*this); }

llvm::Error CudaDevice::loadModule(CudaKernel &K, std::string &Log) {
  // ptxas reports through these buffers; the sizes are updated in place to
  // what the driver wrote.
  std::string InfoLog(64 << 10, '\0'), ErrorLog(64 << 10, '\0');
  CUjit_option Options[] = {CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_LOG_VERBOSE};
  void *Values[] = {InfoLog.data(), reinterpret_cast<void *>(InfoLog.size()),
                    ErrorLog.data(), reinterpret_cast<void *>(ErrorLog.size()),
                    reinterpret_cast<void *>(uintptr_t(1))};
  CUmodule Module = nullptr;
  CUresult R = Api.ModuleLoadDataEx(&Module, K.Ptx.c_str(), 5, Options, Values);
  InfoLog.resize(std::strlen(InfoLog.c_str()));
  ErrorLog.resize(std::strlen(ErrorLog.c_str()));
  Log = ErrorLog;
  if (!InfoLog.empty())
    Log += (Log.empty() ? "" : "\n") + InfoLog;
  if (R != CUDA_SUCCESS)
    return deviceError("load",
                       "the CUDA driver cannot load the PTX of `" + K.entry() +
                           "`: " + Api.errorText(R),
                       Log);
  CUfunction F = nullptr;
  if (CUresult R = Api.ModuleGetFunction(&F, Module, K.entry().c_str())) {
    Api.ModuleUnload(Module);
    return deviceError("load",
                       "no kernel `" + K.entry() + "` in the PTX: " +
                           Api.errorText(R),
                       Log);
  }
  // Kernels that can throw find the record through this global.
  CUdeviceptr Global = 0;
  size_t GlobalBytes = 0;
  if (!K.Sites.empty() && RecordOnDevice &&
      !Api.ModuleGetGlobal(&Global, &GlobalBytes, Module, PtxExceptionGlobal) &&
      GlobalBytes == sizeof RecordOnDevice)
    Api.MemcpyHtoD(Global, &RecordOnDevice, sizeof RecordOnDevice);
  K.Module = Module;
  K.Function = F;
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<LoadedKernel>>
CudaDevice::load(const DeviceArtefact &A, std::string &Log) {
  Log.clear();
  if (llvm::Error E = checkCudaLoad(*this, A))
    return E;

  // K before the lock: a failed load destroys K, whose unload takes M, only
  // after the lock is released.
  auto K = std::make_unique<CudaKernel>(*this, A.Asm, A.Entry);
  std::lock_guard<std::mutex> Lock(M);
  if (llvm::Error E = enterContext())
    return E;
  if (llvm::Error E = loadModule(*K, Log))
    return E;

  std::vector<DeviceProperty> Attrs;
  auto Attr = [&](const char *Name, CUfunction_attribute What) {
    int V = 0;
    if (Api.FuncGetAttribute(&V, What, K->Function) == CUDA_SUCCESS)
      Attrs.push_back({Name, std::to_string(V)});
  };
  Attr("registers", CU_FUNC_ATTRIBUTE_NUM_REGS);
  Attr("local bytes", CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  Attr("shared bytes", CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  Attr("const bytes", CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
  Attr("max threads per block", CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  Attrs.push_back({"arch", defaultArch()});
  K->setLog(Log);
  K->setAttributes(std::move(Attrs));
  return std::unique_ptr<LoadedKernel>(std::move(K));
}

/// Appends V's kernel-parameter bytes to Out at V's alignment (see the ABI
/// in CudaDevice.h). Arrays take their device pointers from DevPtrs in
/// argument order.
void appendParam(std::vector<uint8_t> &Out, const HostValue &V,
                 llvm::ArrayRef<CUdeviceptr> DevPtrs, size_t &NextPtr) {
  auto Align = [&](size_t A) { Out.resize((Out.size() + A - 1) / A * A); };
  auto Put = [&](const void *P, size_t N) {
    const auto *B = static_cast<const uint8_t *>(P);
    Out.insert(Out.end(), B, B + N);
  };
  switch (V.kind()) {
  case HostValue::Kind::Nothing:
  case HostValue::Kind::Function:
  case HostValue::Kind::Type:
    return;
  case HostValue::Kind::Scalar: {
    unsigned N = scalarBytes(V.scalarKind());
    Align(N);
    uint64_t Bits = V.bits();
    Put(&Bits, N);
    return;
  }
  case HostValue::Kind::Array: {
    Align(8);
    uint64_t Ptr = DevPtrs[NextPtr++];
    Put(&Ptr, 8);
    for (int64_t D : V.dims())
      Put(&D, 8);
    return;
  }
  case HostValue::Kind::Tuple:
    for (const HostValue &E : V.elements())
      appendParam(Out, E, DevPtrs, NextPtr);
    return;
  }
}

/// Arrays anywhere in the arguments (tuples may hold them), in order.
void collectArrays(HostValue &V, std::vector<HostValue *> &Out) {
  if (V.isArray())
    Out.push_back(&V);
  for (HostValue &E : V.elements())
    collectArrays(E, Out);
}

llvm::Expected<LaunchResult> CudaDevice::launch(LoadedKernel &LK, Dim3 Grid,
                                                Dim3 Block,
                                                llvm::ArrayRef<HostValue> Args) {
  if (llvm::Error E = checkCudaLaunch(*this, Grid, Block))
    return E;
  auto &K = static_cast<CudaKernel &>(LK);

  std::lock_guard<std::mutex> Lock(M);
  if (llvm::Error E = enterContext())
    return E;

  LaunchResult Result;
  Result.Args.assign(Args.begin(), Args.end());
  std::vector<HostValue *> Arrays;
  for (HostValue &A : Result.Args)
    collectArrays(A, Arrays);

  // Device memory and events are released on every path but a lost
  // context's, which refuses even that.
  std::vector<CUdeviceptr> DevPtrs;
  CUevent Start = nullptr, Stop = nullptr;
  bool ContextLost = false;
  auto Cleanup = [&] {
    if (ContextLost)
      return;
    for (CUdeviceptr P : DevPtrs)
      Api.MemFree(P);
    if (Start)
      Api.EventDestroy(Start);
    if (Stop)
      Api.EventDestroy(Stop);
  };
  auto Fail = [&](std::string Kind, std::string Msg) -> llvm::Error {
    Cleanup();
    return deviceError(std::move(Kind), std::move(Msg));
  };

  for (HostValue *A : Arrays) {
    CUdeviceptr P = 0;
    size_t Bytes = A->bytes().size();
    // A zero-size allocation fails; an empty array still needs a pointer.
    if (CUresult R = Api.MemAlloc(&P, std::max<size_t>(Bytes, 1)))
      return Fail("launch", "cuMemAlloc of " + std::to_string(Bytes) +
                                " bytes failed: " + Api.errorText(R));
    DevPtrs.push_back(P);
    if (Bytes)
      if (CUresult R = Api.MemcpyHtoD(P, A->bytes().data(), Bytes))
        return Fail("launch", "cuMemcpyHtoD failed: " + Api.errorText(R));
  }

  std::vector<std::vector<uint8_t>> Params;
  size_t NextPtr = 0;
  for (const HostValue &A : Result.Args) {
    if (A.isGhost())
      continue;
    Params.emplace_back();
    appendParam(Params.back(), A, DevPtrs, NextPtr);
  }
  std::vector<void *> ParamPtrs;
  for (std::vector<uint8_t> &P : Params)
    ParamPtrs.push_back(P.data());

  if (CUresult R = Api.EventCreate(&Start, CU_EVENT_DEFAULT))
    return Fail("launch", "cuEventCreate failed: " + Api.errorText(R));
  if (CUresult R = Api.EventCreate(&Stop, CU_EVENT_DEFAULT))
    return Fail("launch", "cuEventCreate failed: " + Api.errorText(R));

  if (Record)
    *Record = 0;
  Api.EventRecord(Start, nullptr);
  CUresult R = Api.LaunchKernel(K.Function, Grid.X, Grid.Y, Grid.Z, Block.X,
                                Block.Y, Block.Z, 0, nullptr,
                                ParamPtrs.empty() ? nullptr : ParamPtrs.data(),
                                nullptr);
  if (R != CUDA_SUCCESS)
    return Fail("launch", "cuLaunchKernel of `" + K.entry() + "` failed: " +
                              Api.errorText(R));
  Api.EventRecord(Stop, nullptr);
  R = Api.EventSynchronize(Stop);
  if (R == CUDA_SUCCESS)
    R = Api.CtxSynchronize();
  if (R != CUDA_SUCCESS) {
    // Read before a reset frees the record.
    std::optional<ThrownException> Thrown = thrownBy(K, Grid, Block);
    std::string Msg = "kernel `" + K.entry() + "` failed: " + Api.errorText(R);
    if (corruptsContext(R)) {
      ContextLost = true;
      loseContext(Api.errorText(R));
      Msg += "; the CUDA driver refuses all further work in the process that "
             "ran it";
    }
    if (!Thrown)
      return Fail("launch", Msg);
    Cleanup();
    Diagnostic D = thrownDiagnostic(*Thrown, Grid, Block, K.entry());
    D.note("the kernel trapped: " + Msg);
    return makeDiagError(std::move(D));
  }
  float Ms = 0;
  Api.EventElapsedTime(&Ms, Start, Stop);
  Result.TimeMs = Ms;
  Result.TimeSource = "cuEventElapsedTime";
  // The driver's own count of resident blocks for this block size, beside
  // which `prism report`'s occupancy table can be checked.
  int Resident = 0;
  if (Api.OccupancyMaxActiveBlocksPerMultiprocessor &&
      Api.OccupancyMaxActiveBlocksPerMultiprocessor(
          &Resident, K.Function, int(Block.count()), 0) == CUDA_SUCCESS)
    Result.Facts.push_back({"blocks per SM", std::to_string(Resident)});

  for (size_t I = 0; I < Arrays.size(); ++I) {
    size_t Bytes = Arrays[I]->bytes().size();
    if (Bytes)
      if (CUresult R = Api.MemcpyDtoH(Arrays[I]->bytes().data(), DevPtrs[I], Bytes))
        return Fail("launch", "cuMemcpyDtoH failed: " + Api.errorText(R));
  }
  Cleanup();
  return Result;
}

} // namespace

std::unique_ptr<Device> createCudaDriverDevice(const CudaDeviceOptions &Opts) {
  return std::make_unique<CudaDevice>(Opts);
}

} // namespace prism
