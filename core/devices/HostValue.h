/// \file
/// Host-side values: the arguments of `prism run` and what comes back from a
/// launch. A `HostValue` is a scalar (a primitive kind plus its bits), a
/// tuple of values, an array (element kind, dims, column-major bytes, as a
/// `DeviceArray{T,N}` holds them on the device), a function (the zero-size
/// singleton of `typeof(square)`, passed to generic kernels such as `map!`),
/// a type (the singleton of `Type{Float32}`, for `zero(::Type{T})`-style
/// code) or `nothing`.
///
/// Values carry a `ScalarKind` rather than a `Type *`: the device layer only
/// needs widths and number classes, and keeping it free of the type system
/// lets devices be loaded, launched and tested on their own. `scalarType()`
/// (HostValueType.cpp) maps a kind to the interned `Type *` when the driver
/// needs the argument types of a `FunctionSpec`.
///
/// The JSON form is the stable `prism run --json` output (CLI.md): a scalar
/// is a JSON number or boolean, a tuple a JSON array, an array
/// `{"type": "DeviceArray{Float32,1}", "dims": [..], "data": [..]}`.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prism {

class Type;

/// The primitive types a host value can hold (the kernel language's
/// `Bool`, `Int8`..`UInt64`, `Float16`..`Float64`).
enum class ScalarKind : uint8_t {
  Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
  Float16, Float32, Float64
};

/// Size of one element in bytes (Bool is one byte, as in Julia).
unsigned scalarBytes(ScalarKind K);
bool isFloatKind(ScalarKind K);
bool isSignedKind(ScalarKind K);
/// Julia's name: "Float32", "UInt8", ...
const char *scalarName(ScalarKind K);
/// The kind for a type name (`Int` and `UInt` are aliases); none if the
/// name is not a primitive type.
std::optional<ScalarKind> scalarKindFromName(llvm::StringRef Name);
/// The interned type of a kind (needs the type system; HostValueType.cpp).
Type *scalarType(ScalarKind K);

class HostValue {
public:
  enum class Kind : uint8_t { Nothing, Scalar, Tuple, Array, Function, Type };

  HostValue() = default; ///< `nothing`

  /// A scalar from its bits (the low scalarBytes(K)*8 bits are used).
  static HostValue scalar(ScalarKind K, uint64_t Bits);
  /// A scalar of kind K holding the integer V (wrapping, as `V % T`).
  static HostValue fromInt(ScalarKind K, int64_t V);
  /// A scalar of kind K holding V rounded to nearest (floats), truncated
  /// towards zero (integers), or V != 0 (Bool).
  static HostValue fromDouble(ScalarKind K, double V);
  static HostValue tuple(std::vector<HostValue> Elements);
  /// An instance of a struct type: a tuple that carries the type's name
  /// and field names, printed as Julia prints it (`Pair(1.5f0, 2)`).
  static HostValue record(std::string TypeName,
                          std::vector<std::string> FieldNames,
                          std::vector<HostValue> Fields);
  /// This tuple or record with other elements (same type name, fields).
  HostValue withElements(std::vector<HostValue> Elements) const;
  /// An array; Bytes.size() must equal product(Dims) * scalarBytes(Elt).
  static HostValue array(ScalarKind Elt, std::vector<int64_t> Dims,
                         std::vector<uint8_t> Bytes);
  /// The singleton value of `typeof(Name)`.
  static HostValue function(std::string Name);
  /// The type Name (as Julia prints it) as a value: the singleton of
  /// `Type{Name}`.
  static HostValue type(std::string Name);
  /// A zero-filled array.
  static HostValue zeros(ScalarKind Elt, std::vector<int64_t> Dims);

  Kind kind() const { return K; }
  bool isNothing() const { return K == Kind::Nothing; }
  bool isScalar() const { return K == Kind::Scalar; }
  bool isTuple() const { return K == Kind::Tuple; }
  bool isArray() const { return K == Kind::Array; }
  bool isFunction() const { return K == Kind::Function; }
  bool isType() const { return K == Kind::Type; }
  /// Zero-size values (nothing, functions, types) are not passed to kernels.
  bool isGhost() const {
    return K == Kind::Nothing || K == Kind::Function || K == Kind::Type;
  }
  /// The function's name (Function only).
  const std::string &functionName() const { return Name; }
  /// The type's name, `Float32` (Type only).
  const std::string &typeValueName() const { return Name; }
  /// A record: a tuple with a struct type's name.
  bool isRecord() const { return K == Kind::Tuple && !Name.empty(); }
  const std::string &recordName() const { return Name; }
  /// A record of `Irrational{:s}` (Base's `π`): its symbol; else none.
  std::optional<std::string_view> irrationalSymbol() const;
  llvm::ArrayRef<std::string> fieldNames() const { return FieldNames; }

  /// Scalar kind, or the element kind of an array.
  ScalarKind scalarKind() const { return SK; }
  /// Scalar bits, zero-extended.
  uint64_t bits() const { return Bits; }
  /// The scalar's value as a signed integer / unsigned / double.
  int64_t asInt() const;
  uint64_t asUInt() const;
  double asDouble() const;

  llvm::ArrayRef<HostValue> elements() const { return Elements; }
  llvm::MutableArrayRef<HostValue> elements() { return Elements; }
  llvm::ArrayRef<int64_t> dims() const { return Dims; }
  int64_t numElements() const;
  llvm::ArrayRef<uint8_t> bytes() const { return Bytes; }
  llvm::MutableArrayRef<uint8_t> bytes() { return Bytes; }
  /// Element I (0-based, column-major) of an array, as a scalar.
  HostValue element(int64_t I) const;
  void setElement(int64_t I, const HostValue &Scalar);

  /// The type as Julia prints it, without spaces after commas (CLI.md's
  /// JSON form): `Float32`, `DeviceArray{Float32,1}`, `Tuple{Int64,Bool}`,
  /// `Nothing`, `typeof(square)`, `Type{Float32}`, a record's struct name.
  std::string typeName() const;
  /// A short human form: `1.5f0`, `0x08`, `Float32[1.0, 2.0]`, `(1, 2)`.
  std::string str() const;

  friend bool operator==(const HostValue &A, const HostValue &B);

private:
  Kind K = Kind::Nothing;
  ScalarKind SK = ScalarKind::Int64;
  uint64_t Bits = 0;
  std::vector<HostValue> Elements;
  std::vector<int64_t> Dims;
  std::vector<uint8_t> Bytes;
  std::string Name; ///< a function's, a type value's, or a record's type
  std::vector<std::string> FieldNames; ///< a record's
};

/// A value of tuple or struct type T from its elements: a tuple, or a
/// record with T's name and field names (HostValueType.cpp).
HostValue aggregateOf(Type *T, std::vector<HostValue> Elements);

/// An array's element as Julia prints it inside `T[...]`, where the type is
/// said once: `1.5` for a Float32 or a Float16, `Inf`, `0x08`.
std::string arrayElementStr(const HostValue &Scalar);
/// A scalar as Julia's `print` writes it, which exception messages use
/// (`InexactError: check_top_bit(Int8, 255)`, `DomainError with -2.5:`):
/// unsigned integers in decimal, floats without their type's marks.
std::string printedScalar(const HostValue &Scalar);

/// A scalar as JSON (number or boolean), a tuple as a JSON array, an array
/// as {"type", "dims", "data"}, a record as {"type", "fields": {name: V}},
/// nothing as null, a function as its name.
llvm::json::Value toJSON(const HostValue &V);

/// The object `prism run --json` prints:
/// `{"device": D, "return": V, "args": [V, ...], "time_ms": t}`.
llvm::json::Object runResultJSON(llvm::StringRef Device, const HostValue &Return,
                                 llvm::ArrayRef<HostValue> Args, double TimeMs);

} // namespace prism
