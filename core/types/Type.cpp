#include "types/Type.h"

#include "types/Method.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <deque>
#include <memory>
#include <shared_mutex>
#include <unordered_map>

namespace prism {

//===----------------------------------------------------------------------===//
// Type queries
//===----------------------------------------------------------------------===//

std::span<const Symbol> Type::fieldNames() const {
  if (K != TypeKind::DataType || !Name || Name->Kind != TypeNameKind::Struct)
    return {};
  return Name->FieldNames;
}

int Type::fieldIndex(Symbol Field) const {
  auto Names = fieldNames();
  for (size_t I = 0; I < Names.size(); ++I)
    if (Names[I] == Field)
      return static_cast<int>(I);
  return -1;
}

bool Type::isAbstract() const {
  return isDataType() && Name->Kind == TypeNameKind::Abstract;
}
bool Type::isPrimitive() const {
  return isDataType() && Name->Kind == TypeNameKind::Primitive;
}
bool Type::isStruct() const {
  return isDataType() && Name->Kind == TypeNameKind::Struct;
}
bool Type::isTuple() const {
  return isDataType() && Name->Kind == TypeNameKind::Tuple;
}
bool Type::isTypeType() const {
  return isDataType() && Name->Kind == TypeNameKind::TypeType;
}
bool Type::isFunctionType() const {
  return isDataType() && Name->Kind == TypeNameKind::Function;
}
bool Type::isInteger() const {
  return isPrimitive() && !Name->IsFloat && !Name->IsPointer && !Name->IsBool;
}
bool Type::isSignedInt() const { return isInteger() && Name->IsSigned; }
bool Type::isUnsignedInt() const { return isInteger() && !Name->IsSigned; }
bool Type::isFloat() const { return isPrimitive() && Name->IsFloat; }
bool Type::isBool() const { return isPrimitive() && Name->IsBool; }
bool Type::isPointer() const { return isPrimitive() && Name->IsPointer; }
bool Type::isNothing() const {
  return isDataType() && Name == TypeContext::get().nothing()->Name;
}
bool Type::isSingleton() const {
  if (!Concrete)
    return false;
  if (isTypeType() || isFunctionType())
    return true;
  if (isStruct())
    return Fields.empty();
  if (isTuple())
    return Params.empty();
  return false;
}
unsigned Type::bitWidth() const { return isPrimitive() ? Name->BitWidth : 0; }

namespace {
struct Layout {
  uint64_t Size = 0, Align = 1;
};
std::optional<Layout> layoutOf(const Type &T) {
  if (!T.isConcrete())
    return std::nullopt;
  if (T.isPrimitive()) {
    uint64_t Bytes = (T.bitWidth() + 7) / 8;
    return Layout{Bytes, std::max<uint64_t>(Bytes, 1)};
  }
  if (T.isSingleton())
    return Layout{0, 1};
  if (!T.isStruct() && !T.isTuple())
    return std::nullopt;
  Layout L;
  for (Type *F : T.isTuple() ? T.params() : T.fieldTypes()) {
    std::optional<Layout> FL = layoutOf(*F);
    if (!FL)
      return std::nullopt;
    L.Size = llvm::alignTo(L.Size, FL->Align) + FL->Size;
    L.Align = std::max(L.Align, FL->Align);
  }
  L.Size = llvm::alignTo(L.Size, L.Align);
  return L;
}
} // namespace

std::optional<uint64_t> Type::juliaSizeOf() const {
  if (std::optional<Layout> L = layoutOf(*this))
    return L->Size;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
/// Synthetic TypeVars standing for "any parameter" in bare `Type`, `Tuple`,
/// `NTuple`: printing drops them as Julia prints the UnionAll by its name.
bool isAnonVar(const Type *T) {
  return T->isTypeVar() && !T->varName().empty() && T->varName().str()[0] == '#';
}

void printType(std::string &Out, const Type *T);

void printParams(std::string &Out, std::span<Type *const> Ps) {
  Out += '{';
  for (size_t I = 0; I < Ps.size(); ++I) {
    if (I)
      Out += ", ";
    printType(Out, Ps[I]);
  }
  Out += '}';
}

void printType(std::string &Out, const Type *T) {
  switch (T->kind()) {
  case TypeKind::Any:
    Out += "Any";
    return;
  case TypeKind::Bottom:
    Out += "Union{}";
    return;
  case TypeKind::IntValue:
    Out += std::to_string(T->intValue());
    return;
  case TypeKind::SymbolValue:
    Out += ':';
    Out += T->symbolValue().str();
    return;
  case TypeKind::TypeVar:
    Out += T->varName().str();
    return;
  case TypeKind::Union:
    Out += "Union";
    printParams(Out, T->members());
    return;
  case TypeKind::DataType:
    break;
  }
  TypeName *N = T->name();
  auto Ps = T->params();
  switch (N->Kind) {
  case TypeNameKind::Function:
    Out += "typeof(";
    Out += N->Name.str();
    Out += ')';
    return;
  case TypeNameKind::Tuple: {
    // Julia prints homogeneous tuples longer than 3 as NTuple{N, T}.
    constexpr size_t MaxN = 3;
    if (Ps.size() > MaxN &&
        std::all_of(Ps.begin(), Ps.end(), [&](Type *P) { return P == Ps[0]; })) {
      Out += "NTuple{" + std::to_string(Ps.size()) + ", ";
      printType(Out, Ps[0]);
      Out += '}';
      return;
    }
    Out += "Tuple";
    printParams(Out, Ps);
    return;
  }
  default:
    break;
  }
  if (N == TypeContext::get().ntupleName() && isAnonVar(Ps[0]) && !isAnonVar(Ps[1])) {
    if (Ps[1]->isAny()) {
      Out += "Tuple";
      return;
    }
    Out += "Tuple{Vararg{";
    printType(Out, Ps[1]);
    Out += "}}";
    return;
  }
  Out += N->Name.str();
  if (Ps.empty())
    return;
  // The UnionAll of a parametric name (`DeviceArray`, `Ptr`, `Type`) prints
  // as the bare name, as in Julia.
  bool Bare = std::equal(Ps.begin(), Ps.end(), N->Params.begin(),
                         N->Params.end()) ||
              std::all_of(Ps.begin(), Ps.end(), isAnonVar);
  if (Bare)
    return;
  // Trailing anonymous variables are the parameters left open, which Julia
  // leaves out: `DeviceArray{Float32}` for `DeviceArray{Float32, #N}`.
  size_t Shown = Ps.size();
  while (Shown > 0 && isAnonVar(Ps[Shown - 1]))
    --Shown;
  // One left open before a given one: Julia's aliases by name
  // (`AbstractVector`), else the UnionAll spelled out (`DeviceArray{T, 1}
  // where T`).
  std::string Open;
  for (size_t I = 0; I < Shown; ++I)
    if (isAnonVar(Ps[I]))
      Open += (Open.empty() ? "" : ", ") + Ps[I]->varName().string().substr(1);
  if (!Open.empty() && N->Name.str() == "AbstractArray" && Shown == 2 &&
      isAnonVar(Ps[0]) && Ps[1]->isIntValue() &&
      (Ps[1]->intValue() == 1 || Ps[1]->intValue() == 2)) {
    Out.resize(Out.size() - N->Name.str().size());
    Out += Ps[1]->intValue() == 1 ? "AbstractVector" : "AbstractMatrix";
    return;
  }
  if (Open.empty()) {
    printParams(Out, Ps.first(Shown));
    return;
  }
  Out += '{';
  for (size_t I = 0; I < Shown; ++I) {
    if (I)
      Out += ", ";
    if (isAnonVar(Ps[I]))
      Out += Ps[I]->varName().string().substr(1);
    else
      printType(Out, Ps[I]);
  }
  Out += "} where " +
         (Open.find(',') == std::string::npos ? Open : "{" + Open + "}");
}
} // namespace

std::string Type::str() const {
  std::string Out;
  printType(Out, this);
  return Out;
}

//===----------------------------------------------------------------------===//
// TypeContext
//===----------------------------------------------------------------------===//

namespace {
struct TypeKey {
  TypeKind K;
  const void *Name; ///< TypeName for DataTypes
  std::vector<Type *> Params;
  int64_t Int = 0;
  friend bool operator==(const TypeKey &A, const TypeKey &B) {
    return A.K == B.K && A.Name == B.Name && A.Int == B.Int &&
           A.Params == B.Params;
  }
};
struct TypeKeyHash {
  size_t operator()(const TypeKey &K) const noexcept {
    uint64_t H = static_cast<uint64_t>(K.K) * 0x9E3779B97F4A7C15ull;
    auto Mix = [&](uint64_t V) {
      H ^= V + 0x9E3779B97F4A7C15ull + (H << 6) + (H >> 2);
    };
    Mix(reinterpret_cast<uintptr_t>(K.Name));
    Mix(static_cast<uint64_t>(K.Int));
    for (Type *P : K.Params)
      Mix(reinterpret_cast<uintptr_t>(P));
    return static_cast<size_t>(H);
  }
};

// Julia's union_sort_cmp: singletons first, then bits types, then other
// DataTypes, then everything else; ties broken by name, parameter count and
// parameters.
int nameCmp(Type *A, Type *B);
int groupOf(Type *T) {
  if (!T->isDataType())
    return 3;
  if (T->isSingleton())
    return 0;
  if (T->isConcrete() && (T->isPrimitive() || T->isStruct() || T->isTuple()))
    return 1;
  return 2;
}
int nameCmp(Type *A, Type *B) {
  if (A == B)
    return 0;
  std::string SA = A->isDataType() ? std::string(A->name()->Name.str()) : A->str();
  std::string SB = B->isDataType() ? std::string(B->name()->Name.str()) : B->str();
  if (A->isFunctionType())
    SA = "typeof(" + SA + ")";
  if (B->isFunctionType())
    SB = "typeof(" + SB + ")";
  if (int C = SA.compare(SB))
    return C < 0 ? -1 : 1;
  if (A->params().size() != B->params().size())
    return A->params().size() < B->params().size() ? -1 : 1;
  for (size_t I = 0; I < A->params().size(); ++I)
    if (int C = nameCmp(A->param(I), B->param(I)))
      return C;
  // Fully equal names (distinct TypeVars with one name): stable by address.
  return std::less<Type *>()(A, B) ? -1 : 1;
}
bool unionLess(Type *A, Type *B) {
  int GA = groupOf(A), GB = groupOf(B);
  if (GA != GB)
    return GA < GB;
  return nameCmp(A, B) < 0;
}
} // namespace

struct TypeContext::Impl {
  std::shared_mutex Lock;
  std::unordered_map<TypeKey, Type *, TypeKeyHash> Interned;
  std::deque<std::unique_ptr<Type>> Types;
  std::deque<std::unique_ptr<TypeName>> Names;
  std::unordered_map<Symbol, TypeName *> Builtins;

  TypeName *TupleName = nullptr, *TypeTypeName = nullptr, *NTupleName = nullptr,
           *FunctionName = nullptr, *PtrName = nullptr;
  Type *AnyT = nullptr, *BottomT = nullptr;
  Type *Prims[16] = {};
  Type *NothingT = nullptr;

  /// Looks up or inserts. \p Build is called without the lock held, so that
  /// it may intern other types (supertypes, field types).
  template <typename BuildFn> Type *intern(TypeKey Key, BuildFn Build) {
    {
      std::shared_lock<std::shared_mutex> G(Lock);
      auto It = Interned.find(Key);
      if (It != Interned.end())
        return It->second;
    }
    std::unique_ptr<Type> New = Build();
    std::unique_lock<std::shared_mutex> G(Lock);
    auto [It, Inserted] = Interned.try_emplace(std::move(Key), New.get());
    if (Inserted)
      Types.push_back(std::move(New));
    return It->second;
  }

  Type *makeFree(std::unique_ptr<Type> T) {
    std::unique_lock<std::shared_mutex> G(Lock);
    Types.push_back(std::move(T));
    return Types.back().get();
  }

  TypeName *addName(TypeName Proto) {
    std::unique_lock<std::shared_mutex> G(Lock);
    Names.push_back(std::make_unique<TypeName>(std::move(Proto)));
    return Names.back().get();
  }
};

namespace {
enum PrimIdx {
  PBool, PInt8, PInt16, PInt32, PInt64, PUInt8, PUInt16, PUInt32, PUInt64,
  PFloat16, PFloat32, PFloat64
};
} // namespace

TypeContext &TypeContext::get() {
  // Never destroyed: types are referenced from static data of other layers.
  static TypeContext *C = new TypeContext;
  return *C;
}

TypeContext::TypeContext() : P(new Impl) {
  auto MakeAny = [&](TypeKind K) {
    auto T = std::make_unique<Type>();
    T->K = K;
    T->Concrete = false;
    return P->makeFree(std::move(T));
  };
  P->AnyT = MakeAny(TypeKind::Any);
  P->BottomT = MakeAny(TypeKind::Bottom);

  auto Abstract = [&](const char *Name, Type *Super) {
    TypeName N;
    N.Name = Symbol::get(Name);
    N.Kind = TypeNameKind::Abstract;
    N.Super = Super;
    TypeName *TN = P->addName(std::move(N));
    P->Builtins[TN->Name] = TN;
    return apply(TN, {});
  };
  Type *Number = Abstract("Number", P->AnyT);
  Type *Real = Abstract("Real", Number);
  Type *Integer = Abstract("Integer", Real);
  Type *Signed = Abstract("Signed", Integer);
  Type *Unsigned = Abstract("Unsigned", Integer);
  Type *AbstractFloat = Abstract("AbstractFloat", Real);
  Type *Function = Abstract("Function", P->AnyT);
  P->FunctionName = Function->name();

  auto Prim = [&](PrimIdx I, const char *Name, Type *Super, unsigned Bits,
                  bool IsSigned, bool IsFloat, bool IsBool) {
    TypeName N;
    N.Name = Symbol::get(Name);
    N.Kind = TypeNameKind::Primitive;
    N.Super = Super;
    N.BitWidth = Bits;
    N.IsSigned = IsSigned;
    N.IsFloat = IsFloat;
    N.IsBool = IsBool;
    TypeName *TN = P->addName(std::move(N));
    P->Builtins[TN->Name] = TN;
    P->Prims[I] = apply(TN, {});
  };
  Prim(PBool, "Bool", Integer, 8, false, false, true);
  Prim(PInt8, "Int8", Signed, 8, true, false, false);
  Prim(PInt16, "Int16", Signed, 16, true, false, false);
  Prim(PInt32, "Int32", Signed, 32, true, false, false);
  Prim(PInt64, "Int64", Signed, 64, true, false, false);
  Prim(PUInt8, "UInt8", Unsigned, 8, false, false, false);
  Prim(PUInt16, "UInt16", Unsigned, 16, false, false, false);
  Prim(PUInt32, "UInt32", Unsigned, 32, false, false, false);
  Prim(PUInt64, "UInt64", Unsigned, 64, false, false, false);
  Prim(PFloat16, "Float16", AbstractFloat, 16, true, true, false);
  Prim(PFloat32, "Float32", AbstractFloat, 32, true, true, false);
  Prim(PFloat64, "Float64", AbstractFloat, 64, true, true, false);
  P->Builtins[Symbol::get("Int")] = P->Prims[PInt64]->name();
  P->Builtins[Symbol::get("UInt")] = P->Prims[PUInt64]->name();

  {
    TypeName N;
    N.Name = Symbol::get("Nothing");
    N.Kind = TypeNameKind::Struct;
    N.Super = P->AnyT;
    TypeName *TN = P->addName(std::move(N));
    P->Builtins[TN->Name] = TN;
    P->NothingT = apply(TN, {});
  }
  {
    TypeName N;
    N.Name = Symbol::get("Ptr");
    N.Kind = TypeNameKind::Primitive;
    N.Params = {typeVar(Symbol::get("T"))};
    N.Super = P->AnyT;
    N.BitWidth = 64;
    N.IsPointer = true;
    P->PtrName = P->addName(std::move(N));
    P->Builtins[P->PtrName->Name] = P->PtrName;
  }
  {
    TypeName N;
    N.Name = Symbol::get("Tuple");
    N.Kind = TypeNameKind::Tuple;
    N.Super = P->AnyT;
    P->TupleName = P->addName(std::move(N));
    P->Builtins[P->TupleName->Name] = P->TupleName;
  }
  {
    TypeName N;
    N.Name = Symbol::get("Type");
    N.Kind = TypeNameKind::TypeType;
    N.Params = {typeVar(Symbol::get("#T"))};
    N.Super = P->AnyT;
    P->TypeTypeName = P->addName(std::move(N));
    P->Builtins[P->TypeTypeName->Name] = P->TypeTypeName;
  }
  {
    // `NTuple{N,T}` with N unbound (a field pattern, a signature); applying
    // it to an IntValue N normalises to Tuple{T, ...}.
    TypeName N;
    N.Name = Symbol::get("NTuple");
    N.Kind = TypeNameKind::Abstract;
    N.Params = {typeVar(Symbol::get("#N")), typeVar(Symbol::get("#T"))};
    N.Super = P->AnyT;
    P->NTupleName = P->addName(std::move(N));
    P->Builtins[P->NTupleName->Name] = P->NTupleName;
  }
  {
    TypeName N;
    N.Name = Symbol::get("AbstractArray");
    N.Kind = TypeNameKind::Abstract;
    N.Params = {typeVar(Symbol::get("T")), typeVar(Symbol::get("N"))};
    N.Super = P->AnyT;
    TypeName *TN = P->addName(std::move(N));
    P->Builtins[TN->Name] = TN;
  }
  (void)Unsigned;
}

Type *TypeContext::any() { return P->AnyT; }
Type *TypeContext::bottom() { return P->BottomT; }
Type *TypeContext::boolTy() { return P->Prims[PBool]; }
Type *TypeContext::int8() { return P->Prims[PInt8]; }
Type *TypeContext::int16() { return P->Prims[PInt16]; }
Type *TypeContext::int32() { return P->Prims[PInt32]; }
Type *TypeContext::int64() { return P->Prims[PInt64]; }
Type *TypeContext::uint8() { return P->Prims[PUInt8]; }
Type *TypeContext::uint16() { return P->Prims[PUInt16]; }
Type *TypeContext::uint32() { return P->Prims[PUInt32]; }
Type *TypeContext::uint64() { return P->Prims[PUInt64]; }
Type *TypeContext::float16() { return P->Prims[PFloat16]; }
Type *TypeContext::float32() { return P->Prims[PFloat32]; }
Type *TypeContext::float64() { return P->Prims[PFloat64]; }
Type *TypeContext::nothing() { return P->NothingT; }

Type *TypeContext::intValue(int64_t V) {
  TypeKey Key{TypeKind::IntValue, nullptr, {}, V};
  return P->intern(std::move(Key), [&] {
    auto T = std::make_unique<Type>();
    T->K = TypeKind::IntValue;
    T->IntVal = V;
    return T;
  });
}

Type *TypeContext::symbolValue(Symbol S) {
  TypeKey Key{TypeKind::SymbolValue, S.opaque(), {}, 0};
  return P->intern(std::move(Key), [&] {
    auto T = std::make_unique<Type>();
    T->K = TypeKind::SymbolValue;
    T->VarName = S;
    return T;
  });
}

Type *TypeContext::ptr(Type *Elt) {
  Type *Ps[] = {Elt};
  return apply(P->PtrName, Ps);
}

Type *TypeContext::tuple(std::span<Type *const> Elts) {
  return apply(P->TupleName, Elts);
}

Type *TypeContext::typeOfType(Type *T) {
  Type *Ps[] = {T};
  return apply(P->TypeTypeName, Ps);
}

Type *TypeContext::unionOf(std::span<Type *const> Members) {
  // Flatten, drop Bottom, and drop members that are subtypes of others (as
  // Julia's simple_union does for types without free variables).
  std::vector<Type *> Flat;
  for (Type *M : Members) {
    assert(M && "null union member");
    if (M->isUnion())
      Flat.insert(Flat.end(), M->members().begin(), M->members().end());
    else if (M->isAny())
      return P->AnyT;
    else if (!M->isBottom())
      Flat.push_back(M);
  }
  std::vector<Type *> Kept;
  for (size_t I = 0; I < Flat.size(); ++I) {
    bool Redundant = false;
    for (size_t J = 0; J < Flat.size() && !Redundant; ++J) {
      if (I == J)
        continue;
      if (Flat[I] == Flat[J])
        Redundant = J < I; // keep the first of duplicates
      else if (!Flat[I]->hasTypeVars() && !Flat[J]->hasTypeVars() &&
               isSubtype(Flat[I], Flat[J]))
        Redundant = true;
    }
    if (!Redundant)
      Kept.push_back(Flat[I]);
  }
  if (Kept.empty())
    return P->BottomT;
  if (Kept.size() == 1)
    return Kept[0];
  std::sort(Kept.begin(), Kept.end(), unionLess);
  TypeKey Key{TypeKind::Union, nullptr, Kept, 0};
  return P->intern(std::move(Key), [&] {
    auto T = std::make_unique<Type>();
    T->K = TypeKind::Union;
    T->Params = Kept;
    T->HasVars = std::any_of(Kept.begin(), Kept.end(),
                             [](Type *M) { return M->hasTypeVars(); });
    return T;
  });
}

Type *TypeContext::apply(TypeName *N, std::span<Type *const> Params) {
  assert(N && "apply of a null TypeName");
  if (N == P->NTupleName) {
    assert(Params.size() == 2 && "NTuple takes {N, T}");
    if (Params[0]->isIntValue()) {
      assert(Params[0]->intValue() >= 0 && "negative NTuple length");
      return ntuple(static_cast<unsigned>(Params[0]->intValue()), Params[1]);
    }
  }
  assert((N->Kind == TypeNameKind::Tuple || Params.size() == N->Params.size()) &&
         "wrong number of type parameters");
  std::vector<Type *> Ps(Params.begin(), Params.end());
  TypeKey Key{TypeKind::DataType, N, Ps, 0};
  return P->intern(std::move(Key), [&] {
    auto T = std::make_unique<Type>();
    T->K = TypeKind::DataType;
    T->Name = N;
    T->Params = Ps;
    T->HasVars = std::any_of(Ps.begin(), Ps.end(), [](Type *X) {
      return X->isTypeVar() || X->hasTypeVars();
    });
    if (N->Super)
      T->Super = N->Params.empty() ? N->Super : substitute(N->Super, N->Params, Ps);
    if (N->Kind == TypeNameKind::Struct) {
      T->Fields.reserve(N->FieldTypes.size());
      for (Type *F : N->FieldTypes)
        T->Fields.push_back(N->Params.empty() ? F : substitute(F, N->Params, Ps));
    }
    switch (N->Kind) {
    case TypeNameKind::Abstract:
      T->Concrete = false;
      break;
    case TypeNameKind::Tuple:
      T->Concrete = std::all_of(Ps.begin(), Ps.end(),
                                [](Type *X) { return X->isConcrete(); });
      break;
    case TypeNameKind::TypeType: {
      // `Type{Point}` (the bare UnionAll as a value, e.g. the callee of
      // `Point(1, 2)`) is as concrete as `Type{Float32}`.
      Type *X = Ps[0];
      bool Bare = X->isDataType() && !X->Params.empty() &&
                  X->Params.size() == X->Name->Params.size() &&
                  std::equal(X->Params.begin(), X->Params.end(), X->Name->Params.begin());
      T->Concrete = !T->HasVars || Bare;
      break;
    }
    default:
      T->Concrete = !T->HasVars;
      break;
    }
    return T;
  });
}

Type *TypeContext::typeVar(Symbol Name, Type *Lower, Type *Upper) {
  auto T = std::make_unique<Type>();
  T->K = TypeKind::TypeVar;
  T->VarName = Name;
  T->Lower = Lower ? Lower : P->BottomT;
  T->Upper = Upper ? Upper : P->AnyT;
  T->HasVars = true;
  return P->makeFree(std::move(T));
}

TypeName *TypeContext::builtinName(Symbol Name) {
  std::shared_lock<std::shared_mutex> G(P->Lock);
  auto It = P->Builtins.find(Name);
  return It == P->Builtins.end() ? nullptr : It->second;
}

TypeName *TypeContext::createTypeName(TypeName Proto) {
  return P->addName(std::move(Proto));
}

Type *TypeContext::functionType(GenericFunction *F) {
  if (Type *T = F->SelfType.load(std::memory_order_acquire))
    return T;
  TypeName N;
  N.Name = F->Name;
  N.Kind = TypeNameKind::Function;
  N.Super = apply(P->FunctionName, {});
  N.Func = F;
  // Several threads may race here; the loser's TypeName is simply unused.
  Type *T = apply(P->addName(std::move(N)), {});
  Type *Expected = nullptr;
  if (!F->SelfType.compare_exchange_strong(Expected, T, std::memory_order_acq_rel))
    return Expected;
  return T;
}

Type *TypeContext::substitute(Type *T, std::span<Type *const> Vars,
                              std::span<Type *const> Values) {
  assert(Vars.size() == Values.size() && "substitute: size mismatch");
  if (!T || !T->hasTypeVars())
    return T;
  switch (T->kind()) {
  case TypeKind::TypeVar:
    for (size_t I = 0; I < Vars.size(); ++I)
      if (Vars[I] == T)
        return Values[I] ? Values[I] : T;
    return T;
  case TypeKind::Union: {
    std::vector<Type *> Ms;
    for (Type *M : T->members())
      Ms.push_back(substitute(M, Vars, Values));
    return unionOf(Ms);
  }
  case TypeKind::DataType: {
    std::vector<Type *> Ps;
    bool Changed = false;
    for (Type *X : T->params()) {
      Ps.push_back(substitute(X, Vars, Values));
      Changed |= Ps.back() != X;
    }
    return Changed ? apply(T->name(), Ps) : T;
  }
  default:
    return T;
  }
}

TypeName *TypeContext::ntupleName() { return P->NTupleName; }
TypeName *TypeContext::tupleName() { return P->TupleName; }
TypeName *TypeContext::typeTypeName() { return P->TypeTypeName; }

Type *TypeContext::anyTuple() {
  Type *Ps[] = {P->NTupleName->Params[0], P->AnyT};
  return apply(P->NTupleName, Ps);
}

Type *TypeContext::bareType(TypeName *N) {
  if (N == P->TupleName)
    return anyTuple();
  return apply(N, N->Params);
}

} // namespace prism
