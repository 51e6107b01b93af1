/// \file
/// Builds typed code by hand for codegen/validation unit tests that must not
/// depend on the parser or inference: a function is a list of statements
/// with their types, exactly what inference would hand codegen.
#pragma once

#include "infer/Inference.h"
#include "types/Method.h"
#include "types/Type.h"

#include <memory>
#include <string>
#include <vector>

namespace prism::test {

/// One function: a GenericFunction, Method, MethodInstance and CodeInstance.
/// Statement ranges point at line `Line` of the shared source file.
class HandFunction {
public:
  HandFunction(std::string Name, std::vector<std::string> ArgNames,
               std::vector<Type *> ArgTypes, SourceFileRef File)
      : File(File) {
    GF.Name = Symbol::get(Name);
    M.Func = &GF;
    M.Name = GF.Name;
    M.File = File;
    M.Range = lineRange(1);
    Type *Self = TypeContext::get().functionType(&GF);
    M.Sig.push_back(Self);
    for (Type *T : ArgTypes)
      M.Sig.push_back(T);
    MI.Def = &M;
    MI.Sig = M.Sig;
    Code = std::make_shared<TypedCode>();
    Code->File = File;
    Code->NumArgs = ArgTypes.size();
    Code->Slots.push_back({Symbol::get("#self#"), false});
    Code->SlotTypes.push_back(Self);
    for (size_t I = 0; I < ArgTypes.size(); ++I) {
      Code->Slots.push_back({Symbol::get(ArgNames[I]), true});
      Code->SlotTypes.push_back(ArgTypes[I]);
    }
  }

  SrcRange lineRange(unsigned Line) const {
    std::string_view T = File->text();
    uint32_t Off = 0;
    for (unsigned L = 1; L < Line && Off < T.size(); ++Off)
      if (T[Off] == '\n')
        ++L;
    return {Off, Off + 1};
  }

  unsigned local(std::string Name, Type *T) {
    Code->Slots.push_back({Symbol::get(Name), false});
    Code->SlotTypes.push_back(T);
    return Code->Slots.size() - 1;
  }

  unsigned push(Stmt S, LatticeType T, unsigned Line,
                std::vector<LatticeType> ArgTypes = {}) {
    S.Range = lineRange(Line);
    Code->Code.push_back(std::move(S));
    Code->SSATypes.push_back(std::move(T));
    Code->Invokes.push_back(nullptr);
    Code->Builtins.push_back(Builtin::None);
    Code->ArgTypes.push_back(std::move(ArgTypes));
    return Code->Code.size() - 1;
  }

  /// `%n = builtin(args...)`; ArgTypes excludes the callee.
  unsigned builtin(Builtin B, std::vector<IRValue> Args,
                   std::vector<Type *> ArgTypes, Type *Result, unsigned Line) {
    Stmt S;
    S.K = StmtKind::Call;
    S.Args.push_back(IRValue::global(Symbol::get(builtinName(B))));
    for (IRValue &A : Args)
      S.Args.push_back(std::move(A));
    std::vector<LatticeType> ATs;
    ATs.push_back(LatticeType(TypeContext::get().any()));
    for (Type *T : ArgTypes)
      ATs.emplace_back(T);
    unsigned I = push(std::move(S), LatticeType(Result), Line, std::move(ATs));
    Code->Builtins[I] = B;
    return I;
  }

  unsigned invoke(HandFunction &Callee, std::vector<IRValue> Args,
                  std::vector<Type *> ArgTypes, unsigned Line) {
    Stmt S;
    S.K = StmtKind::Call;
    ConstValue F;
    F.K = ConstValue::Func;
    F.Fn = &Callee.GF;
    F.Ty = Callee.M.Sig[0];
    S.Args.push_back(IRValue::constant(F));
    for (IRValue &A : Args)
      S.Args.push_back(std::move(A));
    std::vector<LatticeType> ATs;
    ATs.push_back(LatticeType(Callee.M.Sig[0], F));
    for (Type *T : ArgTypes)
      ATs.emplace_back(T);
    unsigned I = push(std::move(S), LatticeType(Callee.CI.ReturnType), Line,
                      std::move(ATs));
    Code->Invokes[I] = &Callee.MI;
    Edges.push_back(&Callee.MI);
    return I;
  }

  unsigned assign(unsigned Slot, IRValue V, Type *T, unsigned Line) {
    Stmt S;
    S.K = StmtKind::Assign;
    S.Slot = Slot;
    S.Args.push_back(std::move(V));
    return push(std::move(S), LatticeType(T), Line, {LatticeType(T)});
  }

  unsigned gotoIfNot(IRValue Cond, unsigned Label, unsigned Line) {
    Stmt S;
    S.K = StmtKind::GotoIfNot;
    S.Label = Label;
    S.Args.push_back(std::move(Cond));
    return push(std::move(S), LatticeType(TypeContext::get().bottom()), Line,
                {LatticeType(TypeContext::get().boolTy())});
  }

  unsigned jump(unsigned Label, unsigned Line) {
    Stmt S;
    S.K = StmtKind::Goto;
    S.Label = Label;
    return push(std::move(S), LatticeType(TypeContext::get().bottom()), Line);
  }

  unsigned ret(IRValue V, Type *T, unsigned Line) {
    Stmt S;
    S.K = StmtKind::Return;
    S.Args.push_back(std::move(V));
    return push(std::move(S), LatticeType(TypeContext::get().bottom()), Line,
                {LatticeType(T)});
  }

  /// Sets the return type; call before others invoke this function.
  void returns(Type *T) { CI.ReturnType = T; }
  void finish() {
    CI.MI = &MI;
    CI.Code = Code;
    CI.Edges = Edges;
  }

  FunctionSpec spec() const {
    std::vector<Type *> Args(M.Sig.begin() + 1, M.Sig.end());
    return {const_cast<GenericFunction *>(&GF), TypeContext::get().tuple(Args)};
  }

  GenericFunction GF;
  Method M;
  MethodInstance MI;
  CodeInstance CI;
  std::shared_ptr<TypedCode> Code;
  std::vector<MethodInstance *> Edges;
  SourceFileRef File;
};

inline ConstValue intConst(int64_t V, Type *T = nullptr) {
  ConstValue C;
  C.K = ConstValue::Int;
  C.Ty = T ? T : TypeContext::get().int64();
  C.Bits = static_cast<uint64_t>(V);
  if (C.Ty->bitWidth() < 64)
    C.Bits &= (uint64_t(1) << C.Ty->bitWidth()) - 1;
  return C;
}

inline ConstValue floatConst(float F) {
  ConstValue C;
  C.K = ConstValue::Float;
  C.Ty = TypeContext::get().float32();
  uint32_t Bits;
  static_assert(sizeof(Bits) == sizeof(F));
  __builtin_memcpy(&Bits, &F, sizeof(F));
  C.Bits = Bits;
  return C;
}

inline IRValue cst(ConstValue C) { return IRValue::constant(std::move(C)); }

/// Substring checks in order (FileCheck's CHECK lines).
inline bool checkInOrder(const std::string &Text,
                         const std::vector<std::string> &Needles,
                         std::string *Missing = nullptr) {
  size_t Pos = 0;
  for (const std::string &N : Needles) {
    size_t Found = Text.find(N, Pos);
    if (Found == std::string::npos) {
      if (Missing)
        *Missing = N;
      return false;
    }
    Pos = Found + N.size();
  }
  return true;
}

} // namespace prism::test
