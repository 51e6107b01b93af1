//===- SigCallFuzzer.cpp - libFuzzer target over the SIG and CALL parsers -===//
//
// `prism code_* FILE SIG` and `prism run FILE CALL` take strings from the
// command line: any byte string must parse or give diagnostics with a
// position, never crash, hang or trip a sanitizer. Signatures resolve
// against the prelude (types, functions); calls evaluate their arguments
// (arrays are capped by the parser, so `zeros(Float32, 10^12)` must fail
// cleanly rather than allocate).
//
//===----------------------------------------------------------------------===//

#include "devices/CallParser.h"
#include "types/Loader.h"

#include <cstdint>
#include <string>

using namespace prism;

static GlobalEnv &env() {
  static GlobalEnv *E = [] {
    auto *Env = new GlobalEnv;
    if (llvm::Error Err = loadPrelude(*Env)) {
      llvm::consumeError(std::move(Err));
      __builtin_trap();
    }
    return Env;
  }();
  return *E;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  GlobalEnv &Env = env();
  if (auto Sig = parseSignature(Env, Text)) {
    if (!Sig->Func)
      __builtin_trap();
  } else {
    for (const Diagnostic &D : takeDiagnostics(Sig.takeError()))
      if (D.Message.empty())
        __builtin_trap();
  }
  auto Call = parseCall(Text, /*Seed=*/1, [&](llvm::StringRef Name) {
    return Env.lookupFunction(Symbol::get(Name.str())) != nullptr;
  });
  if (Call) {
    if (Call->Function.empty())
      __builtin_trap();
  } else {
    for (const Diagnostic &D : takeDiagnostics(Call.takeError()))
      if (D.Message.empty())
        __builtin_trap();
  }
  return 0;
}
