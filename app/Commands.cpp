#include "Commands.h"

#include "targets/HostInfo.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace prism::app {

int runDevices(const CommandOptions &O) {
  const HostInfo &H = hostInfo();
  if (O.Json) {
    llvm::json::Array Devs;
    Devs.push_back(llvm::json::Object{{"name", "host"},
                                      {"available", true},
                                      {"triple", H.Triple},
                                      {"cpu", H.CPU},
                                      {"features", H.Features},
                                      {"cores", H.LogicalCores}});
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                               {"devices", std::move(Devs)}}))
                 << "\n";
    return ExitOk;
  }
  llvm::outs() << "host: available\n"
               << "  triple:   " << H.Triple << "\n"
               << "  cpu:      " << H.CPU << "\n"
               << "  cores:    " << H.LogicalCores << "\n"
               << "  features: " << H.Features << "\n";
  return ExitOk;
}

int runCodeLowered(const CommandOptions &O) { return runNotYet("code_lowered"); }

int runNotYet(const char *Name) {
  llvm::errs() << "prism: " << Name << " is not available in this build yet\n";
  return ExitUsage;
}

} // namespace prism::app
