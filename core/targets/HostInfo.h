/// \file
/// Facts about the host CPU (triple, CPU name, features), read once per
/// process: LLVM's host feature detection is slow and must never run per job.
#pragma once

#include <string>

namespace prism {

struct HostInfo {
  std::string Triple;
  std::string CPU;
  std::string Features; ///< "+avx2,+fma,..." as LLVM's TargetMachine wants.
  unsigned LogicalCores = 0;
};

/// The host's facts, computed on the first call and cached.
const HostInfo &hostInfo();

} // namespace prism
