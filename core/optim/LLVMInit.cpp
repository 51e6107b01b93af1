//===- LLVMInit.cpp - One-time LLVM target registration -------------------===//

#include "optim/LLVMInit.h"

#include "llvm/Support/TargetSelect.h"

#include <mutex>

void prism::initializeLLVMTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
  });
}
