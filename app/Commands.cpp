#include "Commands.h"

#include "devices/DeviceRegistry.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace prism::app {

int runDevices(const CommandOptions &O) {
  DeviceRegistry &Reg = DeviceRegistry::get();
  if (O.Json) {
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(Reg.json()))
                 << "\n";
    return ExitOk;
  }
  for (Device *D : Reg.devices()) {
    llvm::outs() << D->name() << ": "
                 << (D->available() ? "available"
                                    : "unavailable: " + D->unavailableReason())
                 << "\n";
    if (!D->description().empty())
      llvm::outs() << "  " << D->description() << "\n";
    for (const DeviceProperty &P : D->properties())
      llvm::outs() << llvm::formatv("  {0,-20} {1}\n", P.first + ":", P.second);
  }
  return ExitOk;
}

} // namespace prism::app
