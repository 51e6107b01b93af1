#include "targets/HostInfo.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace prism {

static HostInfo computeHostInfo() {
  HostInfo H;
  H.Triple = llvm::sys::getProcessTriple();
  H.CPU = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> Features;
  std::vector<std::string> Enabled;
  if (llvm::sys::getHostCPUFeatures(Features))
    for (const auto &F : Features)
      if (F.second)
        Enabled.push_back("+" + F.first().str());
  std::sort(Enabled.begin(), Enabled.end());
  for (const std::string &F : Enabled) {
    if (!H.Features.empty())
      H.Features += ',';
    H.Features += F;
  }
  H.LogicalCores = std::thread::hardware_concurrency();
  return H;
}

const HostInfo &hostInfo() {
  static const HostInfo Info = computeHostInfo();
  return Info;
}

} // namespace prism
