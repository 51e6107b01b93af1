#include "devices/HostValue.h"

#include "lang/Lexer.h"
#include "support/Irrational.h"
#include "support/JsonOutput.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <bit>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace prism {

unsigned scalarBytes(ScalarKind K) {
  switch (K) {
  case ScalarKind::Bool:
  case ScalarKind::Int8:
  case ScalarKind::UInt8:
    return 1;
  case ScalarKind::Int16:
  case ScalarKind::UInt16:
  case ScalarKind::Float16:
    return 2;
  case ScalarKind::Int32:
  case ScalarKind::UInt32:
  case ScalarKind::Float32:
    return 4;
  case ScalarKind::Int64:
  case ScalarKind::UInt64:
  case ScalarKind::Float64:
    return 8;
  }
  return 8;
}

bool isFloatKind(ScalarKind K) {
  return K == ScalarKind::Float16 || K == ScalarKind::Float32 ||
         K == ScalarKind::Float64;
}

bool isSignedKind(ScalarKind K) {
  return K == ScalarKind::Int8 || K == ScalarKind::Int16 ||
         K == ScalarKind::Int32 || K == ScalarKind::Int64;
}

const char *scalarName(ScalarKind K) {
  switch (K) {
  case ScalarKind::Bool: return "Bool";
  case ScalarKind::Int8: return "Int8";
  case ScalarKind::Int16: return "Int16";
  case ScalarKind::Int32: return "Int32";
  case ScalarKind::Int64: return "Int64";
  case ScalarKind::UInt8: return "UInt8";
  case ScalarKind::UInt16: return "UInt16";
  case ScalarKind::UInt32: return "UInt32";
  case ScalarKind::UInt64: return "UInt64";
  case ScalarKind::Float16: return "Float16";
  case ScalarKind::Float32: return "Float32";
  case ScalarKind::Float64: return "Float64";
  }
  return "?";
}

std::optional<ScalarKind> scalarKindFromName(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ScalarKind>>(Name)
      .Case("Bool", ScalarKind::Bool)
      .Case("Int8", ScalarKind::Int8)
      .Case("Int16", ScalarKind::Int16)
      .Case("Int32", ScalarKind::Int32)
      .Cases("Int64", "Int", ScalarKind::Int64)
      .Case("UInt8", ScalarKind::UInt8)
      .Case("UInt16", ScalarKind::UInt16)
      .Case("UInt32", ScalarKind::UInt32)
      .Cases("UInt64", "UInt", ScalarKind::UInt64)
      .Case("Float16", ScalarKind::Float16)
      .Case("Float32", ScalarKind::Float32)
      .Case("Float64", ScalarKind::Float64)
      .Default(std::nullopt);
}

static uint64_t maskBits(ScalarKind K, uint64_t Bits) {
  unsigned B = scalarBytes(K) * 8;
  return B == 64 ? Bits : Bits & ((uint64_t(1) << B) - 1);
}

HostValue HostValue::scalar(ScalarKind K, uint64_t Bits) {
  HostValue V;
  V.K = Kind::Scalar;
  V.SK = K;
  V.Bits = K == ScalarKind::Bool ? (Bits & 1) : maskBits(K, Bits);
  return V;
}

HostValue HostValue::fromInt(ScalarKind K, int64_t I) {
  if (isFloatKind(K))
    return fromDouble(K, static_cast<double>(I));
  if (K == ScalarKind::Bool)
    return scalar(K, I != 0);
  return scalar(K, static_cast<uint64_t>(I));
}

HostValue HostValue::fromDouble(ScalarKind K, double D) {
  switch (K) {
  case ScalarKind::Float64:
    return scalar(K, std::bit_cast<uint64_t>(D));
  case ScalarKind::Float32:
    return scalar(K, std::bit_cast<uint32_t>(static_cast<float>(D)));
  case ScalarKind::Float16: {
    // No portable C++ half type; APFloat rounds to nearest-even like Julia.
    llvm::APFloat F(D);
    bool LosesInfo = false;
    F.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
              &LosesInfo);
    return scalar(K, F.bitcastToAPInt().getZExtValue());
  }
  case ScalarKind::Bool:
    return scalar(K, D != 0);
  default:
    if (isSignedKind(K))
      return scalar(K, static_cast<uint64_t>(static_cast<int64_t>(D)));
    return scalar(K, static_cast<uint64_t>(D));
  }
}

HostValue HostValue::tuple(std::vector<HostValue> Elements) {
  HostValue V;
  V.K = Kind::Tuple;
  V.Elements = std::move(Elements);
  return V;
}

HostValue HostValue::record(std::string TypeName,
                            std::vector<std::string> FieldNames,
                            std::vector<HostValue> Fields) {
  HostValue V = tuple(std::move(Fields));
  V.Name = std::move(TypeName);
  V.FieldNames = std::move(FieldNames);
  return V;
}

HostValue HostValue::withElements(std::vector<HostValue> Elements) const {
  HostValue V = *this;
  V.Elements = std::move(Elements);
  return V;
}

HostValue HostValue::array(ScalarKind Elt, std::vector<int64_t> Dims,
                           std::vector<uint8_t> Bytes) {
  HostValue V;
  V.K = Kind::Array;
  V.SK = Elt;
  V.Dims = std::move(Dims);
  V.Bytes = std::move(Bytes);
  assert(V.Bytes.size() == size_t(V.numElements()) * scalarBytes(Elt) &&
         "array bytes must match its dims");
  return V;
}

HostValue HostValue::function(std::string Name) {
  HostValue V;
  V.K = Kind::Function;
  V.Name = std::move(Name);
  return V;
}

HostValue HostValue::type(std::string Name) {
  HostValue V;
  V.K = Kind::Type;
  V.Name = std::move(Name);
  return V;
}

HostValue HostValue::zeros(ScalarKind Elt, std::vector<int64_t> Dims) {
  int64_t N = 1;
  for (int64_t D : Dims)
    N *= D;
  return array(Elt, std::move(Dims),
               std::vector<uint8_t>(size_t(N) * scalarBytes(Elt)));
}

int64_t HostValue::asInt() const {
  if (isFloatKind(SK))
    return static_cast<int64_t>(asDouble());
  if (!isSignedKind(SK))
    return static_cast<int64_t>(Bits);
  unsigned B = scalarBytes(SK) * 8;
  // Sign-extend from the kind's width.
  return static_cast<int64_t>(Bits << (64 - B)) >> (64 - B);
}

uint64_t HostValue::asUInt() const {
  if (isFloatKind(SK))
    return static_cast<uint64_t>(asDouble());
  return isSignedKind(SK) ? static_cast<uint64_t>(asInt()) : Bits;
}

double HostValue::asDouble() const {
  switch (SK) {
  case ScalarKind::Float64:
    return std::bit_cast<double>(Bits);
  case ScalarKind::Float32:
    return std::bit_cast<float>(static_cast<uint32_t>(Bits));
  case ScalarKind::Float16:
    return llvm::APFloat(llvm::APFloat::IEEEhalf(),
                         llvm::APInt(16, Bits))
        .convertToDouble();
  default:
    return isSignedKind(SK) ? static_cast<double>(asInt())
                            : static_cast<double>(Bits);
  }
}

int64_t HostValue::numElements() const {
  int64_t N = 1;
  for (int64_t D : Dims)
    N *= D;
  return N;
}

HostValue HostValue::element(int64_t I) const {
  assert(isArray() && I >= 0 && I < numElements() && "element out of range");
  unsigned B = scalarBytes(SK);
  uint64_t Bits = 0;
  // Host and every supported device are little-endian.
  std::memcpy(&Bits, Bytes.data() + size_t(I) * B, B);
  return scalar(SK, Bits);
}

void HostValue::setElement(int64_t I, const HostValue &S) {
  assert(isArray() && S.isScalar() && S.SK == SK && I >= 0 &&
         I < numElements() && "element kind or index mismatch");
  unsigned B = scalarBytes(SK);
  std::memcpy(Bytes.data() + size_t(I) * B, &S.Bits, B);
}

std::string HostValue::typeName() const {
  switch (K) {
  case Kind::Nothing:
    return "Nothing";
  case Kind::Scalar:
    return scalarName(SK);
  case Kind::Function:
    return "typeof(" + Name + ")";
  case Kind::Type:
    return "Type{" + Name + "}";
  case Kind::Array:
    return "DeviceArray{" + std::string(scalarName(SK)) + "," +
           std::to_string(Dims.size()) + "}";
  case Kind::Tuple: {
    if (isRecord())
      return Name;
    std::string S = "Tuple{";
    for (size_t I = 0; I < Elements.size(); ++I)
      S += (I ? "," : "") + Elements[I].typeName();
    return S + "}";
  }
  }
  return "?";
}

/// Julia's printing of one scalar (the literal printer the front end uses
/// for code_typed): `1`, `0x08`, `1.5f0`, `2.0`, `1.0e6`, `Float16(0.1)`,
/// `true`. Inside an array the element type is printed once
/// (`Float32[1.0, 2.5]`), as Julia's typeinfo context does, so Float32
/// elements drop their `f0`.
static ast::LitType litTypeOf(ScalarKind K) {
  static constexpr ast::LitType Lit[] = {
      ast::LitType::Bool,   ast::LitType::Int8,    ast::LitType::Int16,
      ast::LitType::Int32,  ast::LitType::Int64,   ast::LitType::UInt8,
      ast::LitType::UInt16, ast::LitType::UInt32,  ast::LitType::UInt64,
      ast::LitType::Float16, ast::LitType::Float32, ast::LitType::Float64};
  return Lit[static_cast<unsigned>(K)];
}

static void printScalar(llvm::raw_ostream &OS, const HostValue &V,
                        bool InArray = false) {
  std::string S = formatLiteral(litTypeOf(V.scalarKind()), V.bits());
  llvm::StringRef R(S);
  if (InArray && V.scalarKind() == ScalarKind::Float32) {
    if (R.endswith("f0"))
      S.resize(S.size() - 2);
    else if (R.endswith("NaN32") || R.endswith("Inf32"))
      S.resize(S.size() - 2);
  } else if (InArray && V.scalarKind() == ScalarKind::Float16) {
    if (R.consume_front("Float16(") && R.consume_back(")"))
      S = R.str(); // Float16(1.5) → 1.5
    else if (R.endswith("NaN16") || R.endswith("Inf16"))
      S.resize(S.size() - 2);
  }
  OS << S;
}

std::string arrayElementStr(const HostValue &Scalar) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printScalar(OS, Scalar, /*InArray=*/true);
  return OS.str();
}

std::string printedScalar(const HostValue &Scalar) {
  return printLiteral(litTypeOf(Scalar.scalarKind()), Scalar.bits());
}

std::optional<std::string_view> HostValue::irrationalSymbol() const {
  if (!isRecord() || !Elements.empty())
    return std::nullopt;
  return irrationalSymbolOf(Name);
}

std::string HostValue::str() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  switch (K) {
  case Kind::Nothing:
    OS << "nothing";
    break;
  case Kind::Scalar:
    printScalar(OS, *this);
    break;
  case Kind::Function:
  case Kind::Type:
    OS << Name;
    break;
  case Kind::Tuple:
    // An irrational constant shows as its name (`π`), as Julia's `print`.
    if (std::optional<std::string_view> S = irrationalSymbol()) {
      OS << *S;
      break;
    }
    OS << Name << "(";
    for (size_t I = 0; I < Elements.size(); ++I)
      OS << (I ? ", " : "") << Elements[I].str();
    OS << (Elements.size() == 1 && !isRecord() ? ",)" : ")");
    break;
  case Kind::Array: {
    OS << scalarName(SK) << "[";
    int64_t N = numElements();
    for (int64_t I = 0; I < N; ++I) {
      OS << (I ? ", " : "");
      printScalar(OS, element(I), /*InArray=*/true);
    }
    OS << "]";
    if (Dims.size() != 1) {
      OS << " (dims";
      for (int64_t D : Dims)
        OS << " " << D;
      OS << ")";
    }
    break;
  }
  }
  return OS.str();
}

bool operator==(const HostValue &A, const HostValue &B) {
  return A.K == B.K && A.SK == B.SK && A.Bits == B.Bits &&
         A.Elements == B.Elements && A.Dims == B.Dims && A.Bytes == B.Bytes &&
         A.Name == B.Name && A.FieldNames == B.FieldNames;
}

static llvm::json::Value scalarJSON(const HostValue &V) {
  ScalarKind SK = V.scalarKind();
  if (SK == ScalarKind::Bool)
    return V.bits() != 0;
  if (isFloatKind(SK)) {
    // A Float32 or Float16 as the double its shortest decimal reads as, so
    // that the JSON shows `0.1` for 0.1f0.
    double D = V.asDouble();
    if (SK != ScalarKind::Float64) {
      bool F32 = SK == ScalarKind::Float32;
      D = shortestAsDouble(llvm::APFloat(F32 ? llvm::APFloat::IEEEsingle()
                                             : llvm::APFloat::IEEEhalf(),
                                         llvm::APInt(F32 ? 32 : 16, V.bits())));
    }
    // JSON has no NaN or infinities: Julia's names as strings, which keep
    // the output parseable and apart from `nothing` (null).
    if (std::isnan(D))
      return "NaN";
    if (std::isinf(D))
      return D > 0 ? "Inf" : "-Inf";
    return D;
  }
  if (isSignedKind(SK))
    return V.asInt();
  return V.bits(); // uint64_t keeps the full unsigned range
}

llvm::json::Value toJSON(const HostValue &V) {
  switch (V.kind()) {
  case HostValue::Kind::Nothing:
    return nullptr;
  case HostValue::Kind::Scalar:
    return scalarJSON(V);
  case HostValue::Kind::Function:
    return V.functionName();
  case HostValue::Kind::Type:
    return V.typeValueName();
  case HostValue::Kind::Tuple: {
    // An irrational has no fields to show: its Float64 value, for scripts.
    if (std::optional<std::string_view> S = V.irrationalSymbol())
      if (auto X = irrationalValue(*S, llvm::APFloat::IEEEdouble()))
        return llvm::json::Object{{"type", V.recordName()},
                                  {"value", X->convertToDouble()}};
    if (V.isRecord()) {
      llvm::json::Object Fields;
      for (size_t I = 0; I < V.elements().size(); ++I)
        Fields[V.fieldNames()[I]] = toJSON(V.elements()[I]);
      return llvm::json::Object{{"type", V.recordName()},
                                {"fields", std::move(Fields)}};
    }
    llvm::json::Array A;
    for (const HostValue &E : V.elements())
      A.push_back(toJSON(E));
    return A;
  }
  case HostValue::Kind::Array: {
    llvm::json::Array Dims, Data;
    for (int64_t D : V.dims())
      Dims.push_back(D);
    int64_t N = V.numElements();
    for (int64_t I = 0; I < N; ++I)
      Data.push_back(scalarJSON(V.element(I)));
    return llvm::json::Object{{"type", V.typeName()},
                              {"dims", std::move(Dims)},
                              {"data", std::move(Data)}};
  }
  }
  return nullptr;
}

llvm::json::Object runResultJSON(llvm::StringRef Device,
                                 const HostValue &Return,
                                 llvm::ArrayRef<HostValue> Args,
                                 double TimeMs) {
  llvm::json::Array A;
  for (const HostValue &V : Args)
    A.push_back(toJSON(V));
  return llvm::json::Object{{"device", Device},
                            {"return", toJSON(Return)},
                            {"args", std::move(A)},
                            {"time_ms", TimeMs}};
}

} // namespace prism
