#include "codegen/TypeLowering.h"

#include "types/Type.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"

namespace prism {

const TypeLowering::Layout &TypeLowering::layout(Type *T) {
  auto It = Cache.find(T);
  if (It != Cache.end())
    return It->second;

  Layout L;
  if (!T->isDataType() || T->isSingleton() || T->isTypeType() ||
      T->isFunctionType() || T->isNothing()) {
    L.Ghost = true;
  } else if (T->isPrimitive()) {
    if (T->isBool())
      L.Mem = llvm::Type::getInt8Ty(Ctx);
    else if (T->isPointer())
      L.Mem = llvm::PointerType::get(Ctx, GenericAS);
    else if (T->isFloat())
      L.Mem = T->bitWidth() == 16   ? llvm::Type::getHalfTy(Ctx)
              : T->bitWidth() == 32 ? llvm::Type::getFloatTy(Ctx)
                                    : llvm::Type::getDoubleTy(Ctx);
    else
      L.Mem = llvm::Type::getIntNTy(Ctx, T->bitWidth());
  } else if (T->isStruct() || T->isTuple()) {
    std::span<Type *const> Fields =
        T->isTuple() ? T->params() : T->fieldTypes();
    std::vector<llvm::Type *> Elts;
    bool Homogeneous = !Fields.empty();
    for (Type *F : Fields) {
      llvm::Type *FT = memType(F);
      L.FieldMap.push_back(FT ? static_cast<int>(Elts.size()) : -1);
      if (FT)
        Elts.push_back(FT);
      if (F != Fields[0])
        Homogeneous = false;
    }
    if (Elts.empty()) {
      L.Ghost = true;
    } else if (T->isTuple() && Homogeneous) {
      // Julia's layout for NTuple: an array, which also allows indexing it
      // with a run-time index through memory.
      L.ArrayTuple = true;
      L.Mem = llvm::ArrayType::get(Elts[0], Elts.size());
    } else {
      L.Mem = llvm::StructType::get(Ctx, Elts);
    }
  } else {
    // Abstract types and Unions have no layout; validation rejects them
    // before emission.
    L.Ghost = true;
  }
  return Cache.try_emplace(T, std::move(L)).first->second;
}

bool TypeLowering::isGhost(Type *T) { return layout(T).Ghost; }

llvm::Type *TypeLowering::memType(Type *T) { return layout(T).Mem; }

llvm::Type *TypeLowering::regType(Type *T) {
  const Layout &L = layout(T);
  if (L.Ghost)
    return nullptr;
  if (T->isBool())
    return llvm::Type::getInt1Ty(Ctx);
  return L.Mem;
}

int TypeLowering::fieldIndex(Type *Aggregate, unsigned Field) {
  const Layout &L = layout(Aggregate);
  if (Field >= L.FieldMap.size())
    return -1;
  return L.FieldMap[Field];
}

bool TypeLowering::isArrayTuple(Type *T) { return layout(T).ArrayTuple; }

} // namespace prism
