/// \file
/// `prism-cuda-worker`: the process that holds Prism's CUDA context
/// (core/devices/CudaWorker.h). Prism starts it; it is not meant to be run
/// by hand.
///
///   prism-cuda-worker --fd 3 --library libcuda.so.1 --ordinal 0
#include "devices/CudaWorker.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

int main(int Argc, char **Argv) {
  prism::CudaDeviceOptions Opts;
  int Fd = -1;
  for (int I = 1; I + 1 < Argc; I += 2) {
    if (!std::strcmp(Argv[I], "--fd"))
      Fd = std::atoi(Argv[I + 1]);
    else if (!std::strcmp(Argv[I], "--library"))
      Opts.Library = Argv[I + 1];
    else if (!std::strcmp(Argv[I], "--ordinal"))
      Opts.Ordinal = std::atoi(Argv[I + 1]);
  }
  if (Fd < 0) {
    std::fprintf(stderr, "prism-cuda-worker: started by Prism's cuda device, "
                         "not by hand (needs --fd)\n");
    return 2;
  }
  // Whatever the driver prints must not land in Prism's stdout (where
  // `prism run --json` writes its answer).
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  return prism::serveCudaWorker(Fd, Opts);
}
