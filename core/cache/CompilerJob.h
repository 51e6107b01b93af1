/// \file
/// `CompilerJob` = FunctionSpec (the dynamic part: function and argument
/// types) + CompilerConfig (the static part, shared between jobs) + world
/// age, as in GPUCompiler.jl. Cheap to copy.
#pragma once

#include "cache/CompilerConfig.h"
#include "infer/CodeInstance.h"

#include <memory>

namespace prism {

struct CompilerJob {
  FunctionSpec Spec;
  CompilerConfigRef Config;
  World W = 0;

  const CompilerConfig &config() const { return *Config; }
  friend bool operator==(const CompilerJob &A, const CompilerJob &B) {
    return A.Spec == B.Spec && A.W == B.W &&
           (A.Config == B.Config || *A.Config == *B.Config);
  }
};

} // namespace prism
