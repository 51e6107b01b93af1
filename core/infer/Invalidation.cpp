//===- Invalidation.cpp - world-age invalidation after new definitions ----===//
//
// Julia's method insertion: for each added method, every MethodInstance of
// its function whose dispatch now gives a different answer has its
// CodeInstances' MaxWorld capped at the new method's world - 1, and the cap
// follows backedges to every caller, transitively. A lookup that found no
// method also invalidates its caller when the new method now matches.
// Nothing else is touched: untouched CodeInstances stay the same objects.
//
//===----------------------------------------------------------------------===//

#include "infer/InferenceImpl.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <unordered_set>

namespace prism {

using namespace infer;

namespace {

struct Invalidator {
  std::vector<Invalidation> Out;
  std::unordered_set<CodeInstance *> Done;

  /// Caps CI (valid at Last+1) and everything that depends on it.
  void capCodeInstance(CodeInstance *CI, World Last, const std::string &Cause) {
    std::vector<std::pair<CodeInstance *, CodeInstance *>> Todo{{CI, nullptr}};
    while (!Todo.empty()) {
      auto [C, Via] = Todo.back();
      Todo.pop_back();
      World Max = C->MaxWorld.load();
      if (Max <= Last)
        continue; // already ends before the new definition
      C->MaxWorld.store(Last);
      if (Done.insert(C).second)
        Out.push_back({C, Via, Via ? std::string() : Cause});
      for (CodeInstance *Caller : C->MI->backedges())
        Todo.push_back({Caller, C});
    }
  }

  void capInstance(MethodInstance *MI, World Last, const std::string &Cause) {
    for (CodeInstance *CI : MI->codeInstances())
      capCodeInstance(CI, Last, Cause);
  }
};

/// A recorded lookup on argument types that are not all concrete (an
/// abstract call, AbstractInterp's dispatchAbstract).
bool isAbstractCall(const std::vector<Type *> &Sig) {
  return llvm::any_of(
      Sig, [](Type *T) { return !T->isConcrete() && !T->isTypeType(); });
}

/// Whether M may be reached by a call on Sig (typeIntersect never wrongly
/// answers empty). A method of another arity may be a vararg one: it may.
bool mayMatch(const Method &M, const std::vector<Type *> &Sig) {
  if (M.Sig.size() != Sig.size())
    return true;
  for (size_t I = 0; I < Sig.size(); ++I)
    if (typeIntersect(Sig[I], M.Sig[I])->isBottom())
      return false;
  return true;
}

} // namespace

std::vector<CodeInstance *>
InferenceEngine::invalidate(const LoadResult &Loaded) {
  std::vector<CodeInstance *> CIs;
  for (const Invalidation &I : invalidateExplained(Loaded))
    CIs.push_back(I.CI);
  return CIs;
}

std::vector<Invalidation>
InferenceEngine::invalidateExplained(const LoadResult &Loaded) {
  // Inference must not publish while dispatch answers change under it.
  std::lock_guard<std::recursive_mutex> G(P->InferLock);
  Invalidator Inv;

  for (Method *M : Loaded.Replaced) {
    World Deleted = M->DeletedWorld.load();
    if (Deleted == WorldInfinity || Deleted == 0)
      continue;
    std::vector<MethodInstance *> MIs;
    {
      std::lock_guard<std::mutex> L(P->TableLock);
      auto It = P->ByFunc.find(M->Func);
      if (It != P->ByFunc.end())
        MIs = It->second;
    }
    bool Redefined = llvm::any_of(Loaded.Added, [&](Method *New) {
      return New->Func == M->Func && New->Sig.size() == M->Sig.size() &&
             std::equal(New->Sig.begin(), New->Sig.end(), M->Sig.begin(),
                        typeEqual);
    });
    std::string Cause = Redefined ? "its method was redefined"
                                  : "its method was deleted";
    for (MethodInstance *MI : MIs)
      if (MI->Def == M)
        Inv.capInstance(MI, Deleted - 1, Cause);
  }

  for (Method *M : Loaded.Added) {
    World NewWorld = M->PrimaryWorld;
    if (NewWorld == 0)
      continue;
    std::vector<MethodInstance *> MIs;
    std::vector<std::pair<std::vector<Type *>, CodeInstance *>> Missing;
    {
      std::lock_guard<std::mutex> L(P->TableLock);
      auto It = P->ByFunc.find(M->Func);
      if (It != P->ByFunc.end())
        MIs = It->second;
      auto MIt = P->Missing.find(M->Func);
      if (MIt != P->Missing.end())
        Missing = MIt->second;
    }
    for (MethodInstance *MI : MIs) {
      // Only instances that have code valid across the new world matter.
      bool Live = false;
      for (CodeInstance *CI : MI->codeInstances())
        Live |= CI->MaxWorld.load() >= NewWorld;
      if (!Live)
        continue;
      LookupResult LR = M->Func->lookup(MI->Sig, NewWorld);
      if (LR.Status == LookupStatus::Found && LR.Match.M != MI->Def)
        Inv.capInstance(MI, NewWorld - 1,
                        "dispatch now picks " + LR.Match.M->signatureString());
      else if (LR.Status != LookupStatus::Found)
        Inv.capInstance(MI, NewWorld - 1,
                        "its call became ambiguous or unmatched after " +
                            M->signatureString());
    }
    // Code that failed on this name while it was undefined.
    std::vector<CodeInstance *> UsedUndefined;
    {
      std::lock_guard<std::mutex> L(P->TableLock);
      auto NIt = P->MissingNames.find(M->Func->Name);
      if (NIt != P->MissingNames.end())
        UsedUndefined = NIt->second;
    }
    for (CodeInstance *CI : UsedUndefined)
      Inv.capCodeInstance(CI, NewWorld - 1,
                          "it called `" + std::string(M->Func->Name.str()) +
                              "`, undefined until now");
    for (auto &[Sig, CI] : Missing) {
      if (CI->MaxWorld.load() < NewWorld)
        continue;
      if (isAbstractCall(Sig)) {
        // An abstract call's answer is the union over the methods it may
        // reach: any method that may now be reached changes it.
        if (mayMatch(*M, Sig))
          Inv.capCodeInstance(CI, NewWorld - 1,
                              "its call " + std::string(M->Func->Name.str()) +
                                  " on abstract argument types may now reach " +
                                  M->signatureString());
        continue;
      }
      LookupResult LR = M->Func->lookup(Sig, NewWorld);
      if (LR.Status != LookupStatus::NoMethod)
        Inv.capCodeInstance(CI, NewWorld - 1,
                            "a call it made had no method; " +
                                M->signatureString() + " matches it now");
    }
  }

  // Optimised code of an invalidated instance stays valid for its old range;
  // it is keyed by the CodeInstance, so nothing to drop here.
  return Inv.Out;
}

} // namespace prism
