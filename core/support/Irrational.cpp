#include "support/Irrational.h"

#include "llvm/Support/Error.h"

namespace prism {

std::optional<std::string_view> irrationalSymbolOf(std::string_view TypeName) {
  llvm::StringRef R(TypeName.data(), TypeName.size());
  if (!R.consume_front("Irrational{:") || !R.consume_back("}") || R.empty())
    return std::nullopt;
  return std::string_view(R.data(), R.size());
}

std::optional<llvm::APFloat> irrationalValue(std::string_view Symbol,
                                             const llvm::fltSemantics &Sem) {
  // 50 significant digits: far more than one rounding into a 53-bit
  // significand needs to be correct.
  const char *Digits = nullptr;
  if (Symbol == "π")
    Digits = "3.14159265358979323846264338327950288419716939937510";
  else if (Symbol == "ℯ")
    Digits = "2.71828182845904523536028747135266249775724709369995";
  if (!Digits)
    return std::nullopt;
  llvm::APFloat X(Sem);
  auto St = X.convertFromString(Digits, llvm::APFloat::rmNearestTiesToEven);
  if (!St) { // cannot happen for a well-formed literal
    llvm::consumeError(St.takeError());
    return std::nullopt;
  }
  return X;
}

} // namespace prism
