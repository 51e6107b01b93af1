// Kept apart from HostValue.cpp so that users of host values that never ask
// for a `Type *` do not pull the type system into their link.
#include "devices/HostValue.h"

#include "types/Type.h"

namespace prism {

Type *scalarType(ScalarKind K) {
  TypeContext &C = TypeContext::get();
  switch (K) {
  case ScalarKind::Bool: return C.boolTy();
  case ScalarKind::Int8: return C.int8();
  case ScalarKind::Int16: return C.int16();
  case ScalarKind::Int32: return C.int32();
  case ScalarKind::Int64: return C.int64();
  case ScalarKind::UInt8: return C.uint8();
  case ScalarKind::UInt16: return C.uint16();
  case ScalarKind::UInt32: return C.uint32();
  case ScalarKind::UInt64: return C.uint64();
  case ScalarKind::Float16: return C.float16();
  case ScalarKind::Float32: return C.float32();
  case ScalarKind::Float64: return C.float64();
  }
  return C.any();
}

HostValue aggregateOf(Type *T, std::vector<HostValue> Elements) {
  if (T->isTuple())
    return HostValue::tuple(std::move(Elements));
  std::vector<std::string> Names;
  for (Symbol N : T->fieldNames())
    Names.emplace_back(N.str());
  return HostValue::record(T->str(), std::move(Names), std::move(Elements));
}

} // namespace prism
