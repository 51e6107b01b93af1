#include "infer/CodeInstance.h"

namespace prism {

namespace {
/// The name a call of this signature is printed with: the function's name,
/// or the constructed type for `Float32(x)`-style calls.
std::string calleeName(const Method *Def, const std::vector<Type *> &Sig) {
  if (!Sig.empty() && Sig[0]->isTypeType() && !Sig[0]->params().empty())
    return Sig[0]->param(0)->str();
  if (Def)
    return std::string(Def->Name.str());
  return "?";
}
} // namespace

std::string FunctionSpec::str() const {
  std::string S = Func ? std::string(Func->Name.str()) : "?";
  S += '(';
  if (ArgTuple)
    for (size_t I = 0; I < ArgTuple->params().size(); ++I) {
      if (I)
        S += ", ";
      S += ArgTuple->param(I)->str();
    }
  S += ')';
  return S;
}

namespace {
/// A constant argument as its value (`256`), a partially constant tuple or
/// struct as its fields (`(16, 16)`, `Dim3(1, ::Int32, ::Int32)`).
std::string constArgString(const LatticeType &L) {
  if (L.Const)
    return L.Const->str();
  if (!L.Fields)
    return "::" + L.T->str();
  std::string S =
      L.T->isTuple() ? "(" : std::string(L.T->name()->Name.str()) + "(";
  for (size_t I = 0; I < L.Fields->size(); ++I)
    S += (I ? ", " : "") + constArgString((*L.Fields)[I]);
  if (L.T->isTuple() && L.Fields->size() == 1)
    S += ',';
  return S + ')';
}
} // namespace

std::string MethodInstance::str() const {
  std::string S = calleeName(Def, Sig);
  S += '(';
  for (size_t I = 1; I < Sig.size(); ++I) {
    if (I > 1)
      S += ", ";
    if (I < ConstArgs.size() && ConstArgs[I])
      S += constArgString(*ConstArgs[I]);
    S += "::" + Sig[I]->str();
  }
  S += ')';
  if (InBounds)
    S += " [inbounds]";
  return S;
}

void MethodInstance::addBackedge(CodeInstance *Caller) {
  std::lock_guard<std::mutex> G(Lock);
  Backedges.insert(Caller);
}

std::vector<CodeInstance *> MethodInstance::backedges() const {
  std::lock_guard<std::mutex> G(Lock);
  return Backedges.getArrayRef().vec();
}

CodeInstance *MethodInstance::cachedIn(World W) const {
  std::lock_guard<std::mutex> G(Lock);
  for (auto It = Cache.rbegin(); It != Cache.rend(); ++It)
    if ((*It)->validIn(W))
      return It->get();
  return nullptr;
}

std::vector<CodeInstance *> MethodInstance::codeInstances() const {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<CodeInstance *> R;
  for (const auto &C : Cache)
    R.push_back(C.get());
  return R;
}

CodeInstance *MethodInstance::addCodeInstance(std::unique_ptr<CodeInstance> CI) {
  std::lock_guard<std::mutex> G(Lock);
  Cache.push_back(std::move(CI));
  return Cache.back().get();
}

std::string LatticeType::str() const {
  if (!T)
    return "Union{}";
  if (Const && (Const->K == ConstValue::Int || Const->K == ConstValue::Bool ||
                Const->K == ConstValue::Float || Const->K == ConstValue::Sym))
    return "Const(" + Const->str() + ")";
  if (Fields) {
    std::string S = "PartialStruct(" + T->str() + ", Any[";
    for (size_t I = 0; I < Fields->size(); ++I) {
      if (I)
        S += ", ";
      S += (*Fields)[I].str();
    }
    return S + "])";
  }
  return T->str();
}

} // namespace prism
