/// \file
/// Helpers for inference tests: a GlobalEnv with the prelude loaded, user
/// code loaded from text or from assets/examples, and inference of a
/// signature string.
#pragma once

#include "infer/Inference.h"
#include "lang/Parser.h"
#include "types/Loader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace prism::testing {

inline std::string renderAll(llvm::Error E) {
  std::string Out;
  for (const Diagnostic &D : takeDiagnostics(std::move(E)))
    Out += renderDiagnostic(D, {false, false});
  return Out;
}

class InferTest : public ::testing::Test {
protected:
  GlobalEnv Env;
  InferenceEngine Engine{Env};

  void SetUp() override {
    if (llvm::Error E = loadPrelude(Env))
      FAIL() << "prelude failed to load:\n" << renderAll(std::move(E));
  }

  LoadResult loadText(const std::string &Name, const std::string &Text) {
    auto Parsed = parseFile(SourceFile::create(Name, Text));
    auto R = loadFile(Env, Parsed);
    if (!R) {
      ADD_FAILURE() << Name << " failed to load:\n" << renderAll(R.takeError());
      return {};
    }
    return *R;
  }

  LoadResult loadExample(const std::string &File) {
    std::ifstream In(std::string(PRISM_EXAMPLES_DIR) + "/" + File);
    std::stringstream SS;
    SS << In.rdbuf();
    EXPECT_FALSE(SS.str().empty()) << File;
    return loadText(File, SS.str());
  }

  FunctionSpec spec(const std::string &Sig) {
    auto P = parseSignature(Env, Sig);
    if (!P) {
      ADD_FAILURE() << "bad signature " << Sig << ":\n" << renderAll(P.takeError());
      return {};
    }
    return FunctionSpec{P->Func, TypeContext::get().tuple(P->ArgTypes)};
  }

  /// Infers one signature in the current world; the root CodeInstance.
  CodeInstance *infer(const std::string &Sig, InferResult *Out = nullptr) {
    FunctionSpec S = spec(Sig);
    if (!S.Func)
      return nullptr;
    auto R = Engine.inferToplevel({&S, 1}, Env.currentWorld());
    if (!R) {
      ADD_FAILURE() << "inference of " << Sig << " failed:\n"
                    << renderAll(R.takeError());
      return nullptr;
    }
    if (Out)
      *Out = *R;
    return R->Roots.at(0);
  }

  /// The diagnostics of a signature whose inference must fail.
  std::vector<Diagnostic> inferErrors(const std::string &Sig) {
    FunctionSpec S = spec(Sig);
    if (!S.Func)
      return {};
    auto R = Engine.inferToplevel({&S, 1}, Env.currentWorld());
    if (R) {
      ADD_FAILURE() << "inference of " << Sig << " unexpectedly succeeded";
      return {};
    }
    return takeDiagnostics(R.takeError());
  }

  static std::string typed(const CodeInstance *CI, TypedPrintOptions O = {}) {
    return printTyped(*CI, *CI->Code, O);
  }

  Type *arrayType(Type *Elt, int64_t N) {
    TypeName *DA = Env.lookupType(Symbol::get("DeviceArray"));
    EXPECT_NE(DA, nullptr);
    Type *Params[] = {Elt, TypeContext::get().intValue(N)};
    return TypeContext::get().apply(DA, Params);
  }
};

/// Every MethodInstance a CodeInstance's typed code invokes.
inline std::vector<MethodInstance *> invokedInstances(const CodeInstance &CI) {
  std::vector<MethodInstance *> R;
  for (MethodInstance *MI : CI.Code->Invokes)
    if (MI)
      R.push_back(MI);
  return R;
}

inline MethodInstance *findInvoke(const CodeInstance &CI, std::string_view Name) {
  for (MethodInstance *MI : CI.Code->Invokes)
    if (MI && MI->Def->Name.str() == Name)
      return MI;
  return nullptr;
}

} // namespace prism::testing
