/// \file
/// Runs one function pass over a parsed module for the optimiser tests,
/// with LLVM's standard analyses registered (as a pipeline would have them).
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace prism::test {

/// Runs Pass on every defined function of M that Accept admits; Then, if
/// given, sees each such function and the analyses afterwards. The module
/// must still verify.
template <class PassT>
void runOnFunctions(
    llvm::Module &M, PassT Pass,
    llvm::function_ref<bool(const llvm::Function &)> Accept,
    llvm::function_ref<void(llvm::Function &, llvm::FunctionAnalysisManager &)>
        Then = nullptr) {
  llvm::PassBuilder PB;
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  llvm::FunctionPassManager FPM;
  FPM.addPass(std::move(Pass));
  for (llvm::Function &F : M) {
    if (F.isDeclaration() || !Accept(F))
      continue;
    FPM.run(F, FAM);
    if (Then)
      Then(F, FAM);
  }
  std::string Err;
  llvm::raw_string_ostream OS(Err);
  EXPECT_FALSE(llvm::verifyModule(M, &OS)) << OS.str();
}

} // namespace prism::test
