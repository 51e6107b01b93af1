#include "support/JsonOutput.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

namespace prism {

std::string shortestDecimal(double D) {
  if (D == 0)
    return std::signbit(D) ? "-0.0" : "0.0";
  char Buf[64];
  // `%g`-style: plain digits for ordinary magnitudes, an exponent past
  // the digits (`1.23456789012345e+17`, not `123456789012344992`).
  auto R = std::to_chars(Buf, Buf + sizeof(Buf), D, std::chars_format::general);
  std::string S(Buf, R.ptr);
  // Always a float to a reader: `3` would read back as an integer.
  if (S.find_first_of(".en") == std::string::npos)
    S += ".0";
  return S;
}

double shortestAsDouble(const llvm::APFloat &X) {
  bool LosesInfo = false;
  llvm::APFloat Wide = X;
  Wide.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
               &LosesInfo);
  double Exact = Wide.convertToDouble();
  if (!X.isFinite() || &X.getSemantics() == &llvm::APFloat::IEEEdouble())
    return Exact;
  if (&X.getSemantics() == &llvm::APFloat::IEEEsingle()) {
    char Buf[64];
    auto R = std::to_chars(Buf, Buf + sizeof(Buf), X.convertToFloat());
    double D = Exact;
    std::from_chars(Buf, R.ptr, D);
    return D;
  }
  // Other precisions (Float16): the fewest significant digits that read
  // back to the same bits.
  for (int Digits = 1; Digits <= 17; ++Digits) {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.*g", Digits, Exact);
    llvm::APFloat Back(X.getSemantics());
    if (!Back.convertFromString(Buf, llvm::APFloat::rmNearestTiesToEven))
      continue;
    if (Back.bitwiseIsEqual(X))
      return std::strtod(Buf, nullptr);
  }
  return Exact;
}

namespace {

void write(llvm::json::OStream &J, const llvm::json::Value &V) {
  switch (V.kind()) {
  case llvm::json::Value::Object: {
    const llvm::json::Object &O = *V.getAsObject();
    std::vector<const llvm::json::Object::value_type *> Sorted;
    for (const auto &E : O)
      Sorted.push_back(&E);
    std::sort(Sorted.begin(), Sorted.end(),
              [](auto *A, auto *B) { return A->first < B->first; });
    J.object([&] {
      for (const auto *E : Sorted)
        J.attributeBegin(E->first), write(J, E->second), J.attributeEnd();
    });
    return;
  }
  case llvm::json::Value::Array:
    J.array([&] {
      for (const llvm::json::Value &E : *V.getAsArray())
        write(J, E);
    });
    return;
  case llvm::json::Value::Number: {
    // llvm::json keeps whether a number is an integer but does not say:
    // its own text does (a double is `%.17g`, with a `.` or an exponent
    // unless it is a small whole number, which stays as it is).
    std::string Text = llvm::formatv("{0}", V).str();
    double D = *V.getAsNumber();
    if (Text.find_first_of(".eE") == std::string::npos &&
        !(D == 0 && std::signbit(D))) {
      J.value(V);
      return;
    }
    J.rawValue([&](llvm::raw_ostream &OS) { OS << shortestDecimal(D); });
    return;
  }
  default:
    J.value(V);
    return;
  }
}

} // namespace

std::string formatJSON(const llvm::json::Value &V, unsigned Indent) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  {
    llvm::json::OStream J(OS, Indent);
    write(J, V);
  }
  return S;
}

void printJSON(llvm::raw_ostream &OS, const llvm::json::Value &V) {
  OS << formatJSON(V) << "\n";
}

} // namespace prism
