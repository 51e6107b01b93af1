#include "codegen/Runtime.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"

namespace prism {

static constexpr struct {
  ThrowKind K;
  const char *Name;
} ThrowKinds[] = {
    {ThrowKind::Other, "Exception"},
    {ThrowKind::BoundsError, "BoundsError"},
    {ThrowKind::InexactError, "InexactError"},
    {ThrowKind::DivideError, "DivideError"},
    {ThrowKind::OverflowError, "OverflowError"},
    {ThrowKind::DomainError, "DomainError"},
    {ThrowKind::ArgumentError, "ArgumentError"},
    {ThrowKind::ErrorException, "ErrorException"},
    {ThrowKind::TypeError, "TypeError"},
    {ThrowKind::UndefVarError, "UndefVarError"},
    {ThrowKind::StackOverflowError, "StackOverflowError"},
};

ThrowKind throwKindForTypeName(std::string_view Name) {
  for (const auto &E : ThrowKinds)
    if (Name == E.Name)
      return E.K;
  return ThrowKind::Other;
}

const char *throwKindName(ThrowKind K) {
  for (const auto &E : ThrowKinds)
    if (E.K == K)
      return E.Name;
  return "Exception";
}

ThrowCallInfo readThrowCall(const llvm::CallBase &Call) {
  ThrowCallInfo T;
  if (Call.arg_size() != 4)
    return T;
  if (auto *K = llvm::dyn_cast<llvm::ConstantInt>(Call.getArgOperand(0)))
    T.Kind = int32_t(K->getSExtValue());
  llvm::StringRef S;
  if (llvm::getConstantStringInfo(Call.getArgOperand(1), S))
    T.TypeName = S.str();
  if (llvm::getConstantStringInfo(Call.getArgOperand(2), S))
    T.File = S.str();
  if (auto *L = llvm::dyn_cast<llvm::ConstantInt>(Call.getArgOperand(3)))
    T.Line = int32_t(L->getSExtValue());
  if (T.TypeName.empty())
    T.TypeName = throwKindName(static_cast<ThrowKind>(T.Kind));
  return T;
}

} // namespace prism
