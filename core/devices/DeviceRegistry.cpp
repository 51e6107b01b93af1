#include "devices/DeviceRegistry.h"

#include "devices/BpfDevice.h"
#include "devices/CudaDevice.h"
#include "devices/HostDevice.h"

#include "llvm/ADT/StringExtras.h"

namespace prism {

DeviceRegistry::DeviceRegistry()
    : DeviceRegistry({{"host", [] { return createHostDevice(); }},
                      {"bpf", [] { return createBpfDevice(); }},
                      {"cuda", [] { return createCudaDevice(); }}}) {}

DeviceRegistry::DeviceRegistry(
    std::vector<std::pair<std::string, Factory>> Factories) {
  for (auto &[Name, Make] : Factories)
    Entries.push_back({Name, std::move(Make), nullptr});
}

DeviceRegistry &DeviceRegistry::get() {
  static DeviceRegistry R;
  return R;
}

std::vector<std::string> DeviceRegistry::names() const {
  std::vector<std::string> N;
  for (const Entry &E : Entries)
    N.push_back(E.Name);
  return N;
}

Device *DeviceRegistry::find(llvm::StringRef Name) {
  std::lock_guard<std::mutex> Lock(M);
  for (Entry &E : Entries)
    if (E.Name == Name) {
      if (!E.Dev)
        E.Dev = E.Make();
      return E.Dev.get();
    }
  return nullptr;
}

llvm::Expected<Device &> DeviceRegistry::lookup(llvm::StringRef Name) {
  Device *D = find(Name);
  if (!D)
    return deviceError("argument", "unknown device `" + Name.str() +
                                       "` (known: " +
                                       llvm::join(names(), ", ") + ")");
  if (!D->available())
    return deviceError("device-unavailable", "the " + Name.str() +
                                                 " device is unavailable: " +
                                                 D->unavailableReason());
  return *D;
}

std::vector<Device *> DeviceRegistry::devices() {
  std::vector<Device *> Out;
  for (const std::string &N : names())
    Out.push_back(find(N));
  return Out;
}

llvm::json::Object DeviceRegistry::json() {
  llvm::json::Array A;
  for (Device *D : devices())
    A.push_back(deviceJSON(*D));
  return llvm::json::Object{{"devices", std::move(A)}};
}

} // namespace prism
