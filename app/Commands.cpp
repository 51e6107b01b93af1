#include "Commands.h"

#include "devices/CallRunner.h"
#include "devices/DeviceRegistry.h"
#include "support/JsonOutput.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace prism::app {

int runDevices(const CommandOptions &O) {
  DeviceRegistry &Reg = DeviceRegistry::get();
  // `run --device interp` is run like a device, so it is listed as one,
  // though it compiles nothing and has no target.
  if (O.Json) {
    llvm::json::Object J = Reg.json();
    J["devices"].getAsArray()->push_back(
        llvm::json::Object{{"name", InterpDeviceName},
                           {"target", nullptr},
                           {"available", true},
                           {"description", InterpDeviceDescription},
                           {"properties", llvm::json::Object{}}});
    printJSON(llvm::outs(), llvm::json::Value(std::move(J)));
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
  llvm::outs() << InterpDeviceName << ": available\n  "
               << InterpDeviceDescription << "\n";
  return ExitOk;
}

} // namespace prism::app
