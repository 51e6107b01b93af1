/// \file
/// Interned names. Two Symbols are equal iff their pointers are equal, so
/// they hash and compare in O(1); the text lives for the whole process.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace prism {

class Symbol {
public:
  Symbol() = default;
  /// Thread-safe interning.
  static Symbol get(std::string_view Name);

  std::string_view str() const { return S ? std::string_view(*S) : ""; }
  const std::string &string() const;
  bool empty() const { return !S; }
  explicit operator bool() const { return S != nullptr; }
  const void *opaque() const { return S; }

  friend bool operator==(Symbol A, Symbol B) { return A.S == B.S; }
  friend bool operator!=(Symbol A, Symbol B) { return A.S != B.S; }
  friend bool operator<(Symbol A, Symbol B) { return A.str() < B.str(); }

private:
  explicit Symbol(const std::string *S) : S(S) {}
  const std::string *S = nullptr;
};

} // namespace prism

template <> struct std::hash<prism::Symbol> {
  size_t operator()(prism::Symbol S) const noexcept {
    return std::hash<const void *>()(S.opaque());
  }
};
