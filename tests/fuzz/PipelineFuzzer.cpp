//===- PipelineFuzzer.cpp - libFuzzer target over the whole compile pipeline ===//
//
// Any source text: parse, lower, load, then for every method of the file
// whose signature is concrete, infer and compile to optimised, verified
// LLVM IR for every target (native, ptx, gcn, bpf). User errors are
// diagnostics and fine; what must never happen is a crash, a sanitizer
// report, an LLVM abort, or a module the verifier rejects (an "internal" or
// "invalid-ir" diagnostic: codegen emitted something wrong).
//
//===----------------------------------------------------------------------===//

#include "cache/Compiler.h"
#include "cache/CompilerConfig.h"
#include "lang/Parser.h"
#include "optim/LLVMInit.h"
#include "types/Loader.h"

#include <cstdint>
#include <cstdio>
#include <string>

using namespace prism;

namespace {

bool isCompilerBug(const Diagnostic &D) {
  return D.Kind == "internal" || D.Kind == "invalid-ir";
}

[[noreturn]] void bug(const Diagnostic &D, const std::string &What) {
  std::fprintf(stderr, "compiler bug (%s): %s: %s\n", What.c_str(), D.Kind.c_str(),
               D.Message.c_str());
  __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static bool Init = [] {
    initializeLLVMTargets();
    return true;
  }();
  (void)Init;
  // Bounded work per input: the generated 100k-line files are another test.
  if (Size > 4096)
    return 0;
  GlobalEnv Env;
  if (llvm::Error E = loadPrelude(Env)) {
    llvm::consumeError(std::move(E));
    __builtin_trap();
  }
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto Loaded = loadFile(Env, parseFile(SourceFile::create("fuzz.jl", Text)));
  if (!Loaded) {
    for (const Diagnostic &D : takeDiagnostics(Loaded.takeError()))
      if (isCompilerBug(D))
        bug(D, "load");
    return 0;
  }
  InferenceEngine Engine(Env);
  static const char *Targets[] = {"native", "ptx", "gcn", "bpf"};
  unsigned Jobs = 0;
  for (Method *M : Loaded->Added) {
    if (!M->Sparams.empty() || M->Sig.empty() || ++Jobs > 4)
      continue;
    std::vector<Type *> Args(M->Sig.begin() + 1, M->Sig.end());
    bool Concrete = true;
    for (Type *T : Args)
      Concrete &= T->isConcrete();
    if (!Concrete)
      continue;
    FunctionSpec Spec{M->Func, TypeContext::get().tuple(Args)};
    for (const char *Target : Targets) {
      CompilerConfigOptions O;
      O.Target = Target;
      auto Config = CompilerConfig::create(O);
      if (!Config) {
        llvm::consumeError(Config.takeError());
        continue;
      }
      CompilerJob Job{Spec, *Config, Env.currentWorld()};
      CompileOptions CO;
      CO.StageText = false;
      CO.Resources = false;
      CompileResult R = compile(Engine, Job, Stage::LLVMOpt, {}, CO);
      if (R.Report)
        for (const Diagnostic &D : R.Report->Diagnostics)
          if (isCompilerBug(D))
            bug(D, std::string(Target) + " " + Spec.str());
    }
  }
  return 0;
}
