#include "types/Method.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>

namespace prism {

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
/// How a callee prints in a method or call signature: `f` for typeof(f),
/// `Point{T}` for a constructor method on Type{Point{T}}.
std::string calleeName(Type *CalleeT, Symbol Fallback) {
  if (CalleeT && CalleeT->isFunctionType())
    return std::string(CalleeT->name()->Name.str());
  if (CalleeT && CalleeT->isTypeType())
    return CalleeT->param(0)->str();
  if (CalleeT && !Fallback)
    return "(::" + CalleeT->str() + ")";
  return std::string(Fallback.str());
}

std::string whereClause(std::span<Type *const> Vars) {
  if (Vars.empty())
    return "";
  auto One = [](Type *V) {
    std::string S(V->varName().str());
    if (!V->upperBound()->isAny())
      S += "<:" + V->upperBound()->str();
    if (!V->lowerBound()->isBottom())
      S = V->lowerBound()->str() + "<:" + S;
    return S;
  };
  if (Vars.size() == 1)
    return " where " + One(Vars[0]);
  std::string S = " where {";
  for (size_t I = 0; I < Vars.size(); ++I)
    S += (I ? ", " : "") + One(Vars[I]);
  return S + "}";
}
} // namespace

std::string Method::signatureString() const {
  std::string S = calleeName(Sig.empty() ? nullptr : Sig[0], Name);
  S += '(';
  for (size_t I = 1; I < Sig.size(); ++I) {
    if (I > 1)
      S += ", ";
    Symbol ArgName = I - 1 < ArgNames.size() ? ArgNames[I - 1] : Symbol();
    // Julia omits `::Any` on named arguments and the `#unused#` names.
    bool Named = ArgName && ArgName.str()[0] != '#';
    if (Named)
      S += ArgName.str();
    if (!Sig[I]->isAny() || !Named)
      S += "::" + Sig[I]->str();
  }
  S += ')';
  return S + whereClause(Sparams);
}

std::string callSignatureString(Type *CalleeT, std::span<Type *const> ArgTypes,
                                Symbol Name) {
  std::string S = calleeName(CalleeT, Name) + "(";
  for (size_t I = 0; I < ArgTypes.size(); ++I)
    S += (I ? ", ::" : "::") + ArgTypes[I]->str();
  return S + ")";
}

//===----------------------------------------------------------------------===//
// Specificity and dispatch
//===----------------------------------------------------------------------===//

namespace {
/// `Tuple{A.Sig...} <: Tuple{B.Sig...}` with B's where-variables bound.
/// A Union in A's signature is split first, each member matched on its own:
/// `f(::Union{Type{Int8}, Type{Int16}})` is a subtype of `f(::Type{S}) where S`
/// because every member is (with its own S), as in Julia.
bool sigSubtypeFrom(std::vector<Type *> &Sig, size_t From, const Method &B) {
  for (size_t I = From; I < Sig.size(); ++I) {
    if (!Sig[I]->isUnion())
      continue;
    Type *U = Sig[I];
    bool All = true;
    for (Type *M : U->members()) {
      Sig[I] = M;
      if (!sigSubtypeFrom(Sig, I + 1, B)) {
        All = false;
        break;
      }
    }
    Sig[I] = U;
    return All;
  }
  return matchTypes(Sig, B.Sig, B.Sparams, nullptr);
}

bool sigSubtype(const Method &A, const Method &B) {
  std::vector<Type *> Sig = A.Sig;
  return sigSubtypeFrom(Sig, 0, B);
}

/// Julia's rule for a diagonal variable: `/(x::Integer, y::Integer)` is
/// more specific than Base's catch-all `/(x::T, y::T) where {T<:Number}`,
/// though neither signature is a subtype of the other. A wins when it has
/// one and the same type at every place of B's variable and is within B
/// with the variables at their bounds. `f(x::Int64, y)` against
/// `f(x::T, y::T) where T` stays ambiguous (two different types there).
bool diagonalMoreSpecific(const Method &A, const Method &B) {
  if (B.Sparams.empty() || A.Sig.size() != B.Sig.size())
    return false;
  bool AnyDiagonal = false;
  for (size_t I = 0; I < B.Sig.size(); ++I) {
    Type *V = B.Sig[I];
    if (!V->isTypeVar() || !llvm::is_contained(B.Sparams, V))
      continue;
    for (size_t J = I + 1; J < B.Sig.size(); ++J)
      if (B.Sig[J] == V) {
        if (!typeEqual(A.Sig[I], A.Sig[J]))
          return false;
        AnyDiagonal = true;
      }
  }
  if (!AnyDiagonal)
    return false;
  TypeContext &C = TypeContext::get();
  std::vector<Type *> Bounds, Wide;
  for (Type *V : B.Sparams)
    Bounds.push_back(V->upperBound());
  for (Type *T : B.Sig)
    Wide.push_back(C.substitute(T, B.Sparams, Bounds));
  if (llvm::any_of(Wide, [](Type *T) { return T->hasTypeVars(); }))
    return false; // a bound that names another variable
  return matchTypes(A.Sig, Wide, {}, nullptr) &&
         !matchTypes(Wide, A.Sig, A.Sparams, nullptr);
}
} // namespace

bool isMoreSpecific(const Method &A, const Method &B) {
  if (sigSubtype(A, B))
    return !sigSubtype(B, A);
  return !sigSubtype(B, A) && diagonalMoreSpecific(A, B);
}

LookupResult GenericFunction::lookup(std::span<Type *const> ArgTypes,
                                     World W) const {
  LookupResult R;
  std::vector<MethodMatch> Applicable;
  World MinW = 1, MaxW = WorldInfinity;
  {
    std::lock_guard<std::mutex> G(Lock);
    for (const auto &MP : Methods) {
      Method *M = MP.get();
      MethodMatch MM;
      if (!matchTypes(ArgTypes, M->Sig, M->Sparams, &MM.SparamValues))
        continue;
      // Every applicable method bounds the world range in which this answer
      // holds: the answer changes where one appears or disappears.
      World Deleted = M->DeletedWorld.load(std::memory_order_acquire);
      if (M->visibleIn(W)) {
        MinW = std::max(MinW, M->PrimaryWorld);
        if (Deleted != WorldInfinity)
          MaxW = std::min(MaxW, Deleted - 1);
        MM.M = M;
        Applicable.push_back(std::move(MM));
      } else if (M->PrimaryWorld > W) {
        MaxW = std::min(MaxW, M->PrimaryWorld - 1);
      } else {
        MinW = std::max(MinW, Deleted);
      }
    }
  }
  if (Applicable.empty()) {
    R.Status = LookupStatus::NoMethod;
    R.Match.MinWorld = MinW;
    R.Match.MaxWorld = MaxW;
    // Closest candidates: same arity first, then by how many arguments
    // match their declared types (as Julia's MethodError hints).
    std::vector<std::pair<int, Method *>> Scored;
    for (Method *M : methodsIn(W)) {
      int Score = 0;
      if (M->Sig.size() == ArgTypes.size()) {
        Score += 1000;
        for (size_t I = 1; I < ArgTypes.size(); ++I) {
          Type *A[] = {ArgTypes[I]};
          Type *P[] = {M->Sig[I]};
          if (matchTypes(A, P, M->Sparams, nullptr))
            Score += 1;
        }
      }
      Scored.push_back({Score, M});
    }
    std::stable_sort(Scored.begin(), Scored.end(),
                     [](auto &A, auto &B) { return A.first > B.first; });
    constexpr size_t MaxCandidates = 3;
    for (auto &[Score, M] : Scored) {
      if (R.Candidates.size() == MaxCandidates)
        break;
      R.Candidates.push_back(M);
    }
    return R;
  }
  // The most specific method is more specific than every other applicable
  // one; otherwise the maximal ones are ambiguous (a third method more
  // specific than both would have won).
  for (MethodMatch &A : Applicable) {
    bool Best = true;
    for (MethodMatch &B : Applicable)
      if (&A != &B && !isMoreSpecific(*A.M, *B.M)) {
        Best = false;
        break;
      }
    if (Best) {
      R.Status = LookupStatus::Found;
      R.Match = std::move(A);
      R.Match.MinWorld = MinW;
      R.Match.MaxWorld = MaxW;
      return R;
    }
  }
  R.Status = LookupStatus::Ambiguous;
  R.Match.MinWorld = MinW;
  R.Match.MaxWorld = MaxW;
  for (MethodMatch &A : Applicable) {
    bool Dominated = std::any_of(
        Applicable.begin(), Applicable.end(),
        [&](MethodMatch &B) { return &A != &B && isMoreSpecific(*B.M, *A.M); });
    if (!Dominated)
      R.Candidates.push_back(A.M);
  }
  std::sort(R.Candidates.begin(), R.Candidates.end(), [](Method *A, Method *B) {
    return A->PrimaryWorld < B->PrimaryWorld;
  });
  return R;
}

std::vector<Method *> GenericFunction::methodsIn(World W) const {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<Method *> Out;
  for (const auto &M : Methods)
    if (M->visibleIn(W))
      Out.push_back(M.get());
  return Out;
}

bool sameSignature(const Method &A, const Method &B) {
  return A.Sig.size() == B.Sig.size() &&
         matchTypes(A.Sig, B.Sig, B.Sparams, nullptr) &&
         matchTypes(B.Sig, A.Sig, A.Sparams, nullptr);
}

Method *GenericFunction::addMethod(std::unique_ptr<Method> M) {
  assert(M && M->PrimaryWorld != 0 && "addMethod needs a world");
  std::lock_guard<std::mutex> G(Lock);
  M->Func = this;
  Method *Replaced = nullptr;
  for (const auto &Old : Methods) {
    if (Old->DeletedWorld.load(std::memory_order_acquire) != WorldInfinity)
      continue;
    if (sameSignature(*Old, *M)) {
      Old->DeletedWorld.store(M->PrimaryWorld, std::memory_order_release);
      Replaced = Old.get();
      break;
    }
  }
  Methods.push_back(std::move(M));
  return Replaced;
}

Type *GenericFunction::type() const {
  return TypeContext::get().functionType(const_cast<GenericFunction *>(this));
}

Diagnostic dispatchDiagnostic(const GenericFunction &F,
                              std::span<Type *const> ArgTypes,
                              const LookupResult &R, DiagLoc CallSite) {
  assert(R.Status != LookupStatus::Found && "no error for a found method");
  Type *CalleeT = ArgTypes.empty() ? nullptr : ArgTypes[0];
  std::string Call = callSignatureString(
      CalleeT, ArgTypes.empty() ? ArgTypes : ArgTypes.subspan(1), F.Name);
  // `for x in it` starts with the prelude's range_start(it) (Julia's
  // iterate): its candidates are prelude internals, the type is the news.
  if (R.Status == LookupStatus::NoMethod && F.Name.str() == "range_start" &&
      ArgTypes.size() == 2)
    return Diagnostic::error(
        "no-method",
        "`for` cannot iterate a value of type " + ArgTypes[1]->str() +
            " (no method matching range_start(::" + ArgTypes[1]->str() +
            "), the prelude's iterate): iterable are arrays, tuples, "
            "ranges, eachindex, axes, enumerate, zip and numbers",
        std::move(CallSite));
  // The prelude's tuple methods, one per length (no splatting): say what
  // the user asked for, not which internal method is missing.
  if (R.Status == LookupStatus::NoMethod && F.Name.str() == "tuple_convert" &&
      ArgTypes.size() == 3 && ArgTypes[1]->isTypeType() &&
      !ArgTypes[1]->params().empty())
    return Diagnostic::error(
        "no-method",
        "cannot `convert` an object of type " + ArgTypes[2]->str() +
            " to an object of type " + ArgTypes[1]->param(0)->str() +
            (ArgTypes[2]->isTuple() && ArgTypes[1]->param(0)->isTuple() &&
                     ArgTypes[2]->params().size() !=
                         ArgTypes[1]->param(0)->params().size()
                 ? " (the lengths differ)"
                 : " (the prelude converts tuples of up to 16 elements)"),
        std::move(CallSite));
  // `Int[]` and `Float32[1, 2]` are Julia's typed array literals, which
  // lower to getindex(::Type{T}, ...) and allocate a Vector.
  if (R.Status == LookupStatus::NoMethod && F.Name.str() == "getindex" &&
      ArgTypes.size() >= 2 && ArgTypes[1]->isTypeType() &&
      !ArgTypes[1]->params().empty())
    return Diagnostic::error(
        "no-method",
        "typed array literals (`" + ArgTypes[1]->param(0)->str() +
            "[...]`) are not supported: a kernel allocates no arrays; use "
            "a tuple, a DeviceArray argument or CuStaticSharedArray",
        std::move(CallSite));
  if (R.Status == LookupStatus::NoMethod && F.Name.str() == "tail" &&
      ArgTypes.size() == 2 && ArgTypes[1]->isTuple() &&
      ArgTypes[1]->params().size() > 16)
    return Diagnostic::error(
        "no-method",
        "no method matching " + Call +
            ": the prelude's Base.tail takes tuples of up to 16 elements "
            "(the kernel language has no splatting); loop over "
            "1:length(t) with t[i] instead",
        std::move(CallSite));
  if (R.Status == LookupStatus::NoMethod) {
    Diagnostic D = Diagnostic::error("no-method", "no method matching " + Call,
                                     std::move(CallSite));
    if (!R.Candidates.empty()) {
      D.note("closest candidates are:");
      for (Method *M : R.Candidates) {
        DiagLoc L = M->location();
        std::string Where = L.known() ? " at " + L.str() : "";
        D.note(M->signatureString() + Where, L);
      }
    }
    // CUDA.jl's indices are Int32 and `Int` is Int64: the commonest miss.
    for (size_t I = 1; I < ArgTypes.size(); ++I) {
      if (ArgTypes[I]->str() != "Int32")
        continue;
      bool WantsInt64 = llvm::any_of(R.Candidates, [&](const Method *M) {
        return M->Sig.size() == ArgTypes.size() && M->Sig[I]->str() == "Int64";
      });
      if (WantsInt64) {
        D.note("argument " + std::to_string(I) +
               " is an Int32 (as threadIdx().x, blockIdx().x and blockDim().x "
               "are) where the method takes an Int64 (`Int`): convert it, "
               "`Int(i)`, or declare the argument `::Integer`");
        break;
      }
    }
    return D;
  }
  Diagnostic D = Diagnostic::error("ambiguous", Call + " is ambiguous",
                                   std::move(CallSite));
  D.note("candidates:");
  for (Method *M : R.Candidates) {
    DiagLoc L = M->location();
    std::string Where = L.known() ? " at " + L.str() : "";
    D.note(M->signatureString() + Where, L);
  }
  if (R.Candidates.size() == 2) {
    // Julia's hint: the intersection of the two signatures.
    Method *A = R.Candidates[0], *B = R.Candidates[1];
    TypeContext &C = TypeContext::get();
    std::vector<Type *> Fix;
    bool Ok = A->Sig.size() == B->Sig.size();
    // Where-variables stand for their bounds here; the hint is dropped when
    // that leaves variables or an empty intersection.
    auto Bounds = [](const Method *M) {
      std::vector<Type *> V;
      for (Type *P : M->Sparams)
        V.push_back(P->upperBound());
      return V;
    };
    std::vector<Type *> BA = Bounds(A), BB = Bounds(B);
    Fix.push_back(CalleeT);
    for (size_t I = 1; Ok && I < A->Sig.size(); ++I) {
      Type *T = typeIntersect(C.substitute(A->Sig[I], A->Sparams, BA),
                              C.substitute(B->Sig[I], B->Sparams, BB));
      if (T->isBottom() || T->hasTypeVars())
        Ok = false;
      Fix.push_back(T);
    }
    // Then each method's own rules: `b(x::T, y::T)` and `b(x::Int64, y)`
    // meet at (Int64, Int64), not (Int64, Any).
    for (const Method *M : {A, B}) {
      if (!Ok)
        break;
      SignatureMeet Meet = intersectSignature(Fix, M->Sig, M->Sparams);
      Ok = Meet.Kind == SignatureMeet::Found;
      if (Ok)
        Fix = std::move(Meet.Types);
    }
    if (Ok)
      D.note("possible fix, define " +
             callSignatureString(CalleeT, std::span(Fix).subspan(1), F.Name));
  }
  return D;
}

//===----------------------------------------------------------------------===//
// GlobalEnv
//===----------------------------------------------------------------------===//

GlobalEnv::GlobalEnv() {
  for (unsigned I = 1; I < static_cast<unsigned>(Builtin::NumBuiltins); ++I) {
    auto B = static_cast<Builtin>(I);
    auto F = std::make_unique<GenericFunction>();
    F->Name = Symbol::get(builtinName(B));
    F->K = GenericFunction::BuiltinFn;
    F->BuiltinId = B;
    Functions[F->Name] = std::move(F);
  }
}

GenericFunction *GlobalEnv::getOrCreateFunction(Symbol Name) {
  std::lock_guard<std::mutex> G(Lock);
  auto &Slot = Functions[Name];
  if (!Slot) {
    Slot = std::make_unique<GenericFunction>();
    Slot->Name = Name;
  }
  return Slot.get();
}

GenericFunction *GlobalEnv::lookupFunction(Symbol Name) const {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Functions.find(Name);
  return It == Functions.end() ? nullptr : It->second.get();
}

GenericFunction *GlobalEnv::constructorFunction(TypeName *N) {
  assert(N && "constructor table of a null TypeName");
  std::lock_guard<std::mutex> G(Lock);
  auto &Slot = Constructors[N];
  if (!Slot) {
    Slot = std::make_unique<GenericFunction>();
    Slot->Name = N->Name;
    Slot->ConstructorOf = N;
  }
  return Slot.get();
}

GenericFunction *GlobalEnv::callTable(Type *CalleeT) {
  if (CalleeT->isFunctionType())
    return CalleeT->name()->Func;
  if (CalleeT->isTypeType() && CalleeT->param(0)->isDataType())
    return constructorFunction(CalleeT->param(0)->name());
  return nullptr;
}

TypeName *GlobalEnv::lookupType(Symbol Name) const {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Types.find(Name);
    if (It != Types.end())
      return It->second;
  }
  return TypeContext::get().builtinName(Name);
}

void GlobalEnv::defineType(TypeName *N) {
  std::lock_guard<std::mutex> G(Lock);
  Types[N->Name] = N;
}

const ConstValue *GlobalEnv::lookupConst(Symbol Name) const {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Consts.find(Name);
  return It == Consts.end() ? nullptr : &It->second;
}

void GlobalEnv::defineConst(Symbol Name, ConstValue V) {
  std::lock_guard<std::mutex> G(Lock);
  Consts[Name] = std::move(V);
}

std::vector<TypeName *> GlobalEnv::typeNames() const {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<TypeName *> Out;
  for (auto &[Name, N] : Types)
    Out.push_back(N);
  return Out;
}

std::vector<GenericFunction *> GlobalEnv::functions() const {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<GenericFunction *> Out;
  for (auto &[Name, F] : Functions)
    Out.push_back(F.get());
  std::sort(Out.begin(), Out.end(), [](GenericFunction *A, GenericFunction *B) {
    return A->Name.str() < B->Name.str();
  });
  return Out;
}

} // namespace prism
