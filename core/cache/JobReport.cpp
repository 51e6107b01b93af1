#include "cache/JobReport.h"

namespace prism {

const char *stageName(Stage S) {
  switch (S) {
  case Stage::Typed:
    return "typed";
  case Stage::TypedOpt:
    return "typed-opt";
  case Stage::LLVMRaw:
    return "llvm-raw";
  case Stage::LLVMOpt:
    return "llvm-opt";
  case Stage::Asm:
    return "asm";
  case Stage::NumStages:
    break;
  }
  return "?";
}

const char *remarkKindName(RemarkKind K) {
  switch (K) {
  case RemarkKind::Passed:
    return "passed";
  case RemarkKind::Missed:
    return "missed";
  case RemarkKind::Analysis:
    return "analysis";
  }
  return "?";
}

std::array<size_t, 3> countRemarks(const std::vector<OptRemark> &Remarks) {
  std::array<size_t, 3> N{};
  for (const OptRemark &R : Remarks)
    ++N[static_cast<size_t>(R.Kind)];
  return N;
}

bool JobReport::ok() const {
  for (const Diagnostic &D : Diagnostics)
    if (D.Sev == Severity::Error)
      return false;
  return true;
}

} // namespace prism
