/// \file
/// The devices of this process (`host`, `bpf`, `cuda`), each constructed on
/// first request: probing is slow (dlopen + cuInit, a BPF program load) and
/// `prism run --device bpf` should not pay for CUDA.
#pragma once

#include "devices/Device.h"

#include <functional>
#include <mutex>

namespace prism {

class DeviceRegistry {
public:
  using Factory = std::function<std::unique_ptr<Device>()>;

  /// The default set: host, bpf, cuda (in `prism devices` order).
  DeviceRegistry();
  /// A registry over the given factories (name → how to build it).
  explicit DeviceRegistry(std::vector<std::pair<std::string, Factory>> Factories);

  /// The process-wide registry (devices live until exit).
  static DeviceRegistry &get();

  /// Device names in order, without constructing any device.
  std::vector<std::string> names() const;
  /// The device called Name, constructed on first use; null when unknown.
  Device *find(llvm::StringRef Name);
  /// The device, or an error: an unknown name lists the known ones; an
  /// unavailable device gives its reason (kind "device-unavailable").
  llvm::Expected<Device &> lookup(llvm::StringRef Name);
  /// Every device (constructs them all).
  std::vector<Device *> devices();

  /// `prism devices --json`: {"devices": [{name, target, available,
  /// reason?, description, properties}, ...]}.
  llvm::json::Object json();

private:
  struct Entry {
    std::string Name;
    Factory Make;
    std::unique_ptr<Device> Dev;
  };
  std::mutex M;
  std::vector<Entry> Entries;
};

} // namespace prism
