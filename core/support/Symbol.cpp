#include "support/Symbol.h"

#include <memory>
#include <mutex>
#include <unordered_map>

namespace prism {

namespace {
struct SymbolTable {
  std::mutex Lock;
  std::unordered_map<std::string_view, std::unique_ptr<std::string>> Map;
};
SymbolTable &table() {
  static SymbolTable *T = new SymbolTable; // never destroyed: Symbols outlive statics
  return *T;
}
const std::string &emptyString() {
  static const std::string E;
  return E;
}
} // namespace

Symbol Symbol::get(std::string_view Name) {
  SymbolTable &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  auto It = T.Map.find(Name);
  if (It != T.Map.end())
    return Symbol(It->second.get());
  auto Owned = std::make_unique<std::string>(Name);
  const std::string *P = Owned.get();
  T.Map.emplace(std::string_view(*P), std::move(Owned));
  return Symbol(P);
}

const std::string &Symbol::string() const { return S ? *S : emptyString(); }

} // namespace prism
