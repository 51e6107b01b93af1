#include "codegen/Runtime.h"

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

} // namespace prism
