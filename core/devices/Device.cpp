#include "devices/Device.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace prism {

LoadedKernel::~LoadedKernel() = default;
Device::~Device() = default;

Diagnostic deviceDiagnostic(std::string Kind, std::string Message,
                            llvm::StringRef Log) {
  Diagnostic D = Diagnostic::error(std::move(Kind), std::move(Message), {});
  Log = Log.rtrim();
  if (!Log.empty()) {
    // A verifier log on a rejected path can run to thousands of lines; the
    // reason and the offending instruction are at its end. The caller keeps
    // the whole log through load()'s Log argument.
    constexpr size_t MaxLines = 60;
    llvm::SmallVector<llvm::StringRef, 0> Lines;
    Log.split(Lines, '\n');
    std::string Text;
    if (Lines.size() > MaxLines) {
      Text = "... (" + std::to_string(Lines.size() - MaxLines) +
             " earlier lines)\n";
      Lines.erase(Lines.begin(), Lines.end() - MaxLines);
    }
    Text += llvm::join(Lines, "\n");
    D.note("log:\n" + Text);
  }
  return D;
}

llvm::json::Object deviceJSON(const Device &D) {
  llvm::json::Object Props;
  for (const DeviceProperty &P : D.properties())
    Props[P.first] = P.second;
  llvm::json::Object O{{"name", D.name()},
                       {"target", D.target()},
                       {"available", D.available()},
                       {"description", D.description()},
                       {"properties", std::move(Props)}};
  if (!D.available())
    O["reason"] = D.unavailableReason();
  return O;
}

std::string propertiesLine(const std::vector<DeviceProperty> &Ps) {
  std::string S;
  for (const auto &[Name, Value] : Ps)
    S += (S.empty() ? "" : " · ") + Name + " " + Value;
  return S;
}

} // namespace prism
