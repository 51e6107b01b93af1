//===- ParseFuzzer.cpp - libFuzzer target over lex + parse + lower --------===//
//
// Any byte string must parse (with diagnostics) and every parsed method must
// lower or fail with diagnostics, without crashing, hanging or tripping a
// sanitizer. The lowered IR's structural invariants are checked too.
//
//===----------------------------------------------------------------------===//

#include "lang/Lowering.h"
#include "lang/Parser.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace prism;

static void check(bool Cond) {
  if (!Cond)
    __builtin_trap();
}

static void checkInvariants(const CodeInfo &CI) {
  check(!CI.Code.empty());
  check(CI.Slots.size() >= CI.NumArgs + 1);
  for (uint32_t I = 0; I < CI.Code.size(); ++I) {
    const Stmt &S = CI.Code[I];
    if (S.K == StmtKind::Goto || S.K == StmtKind::GotoIfNot)
      check(S.Label < CI.Code.size());
    if (S.K == StmtKind::Assign)
      check(S.Slot < CI.Slots.size());
    for (const IRValue &V : S.Args) {
      if (V.K == IRValue::SSA)
        check(V.Index < I && CI.Code[V.Index].K == StmtKind::Call);
      if (V.K == IRValue::Slot)
        check(V.Index < CI.Slots.size());
      if (V.K == IRValue::StaticParam)
        check(V.Index < CI.StaticParamNames.size());
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto File = SourceFile::create("fuzz.jl", Text);
  auto Parsed = parseFile(File);
  for (const Diagnostic &D : Parsed->Diags)
    check(D.Loc.Line >= 1 && D.Loc.Col >= 1 && !D.Message.empty());
  for (const ast::TopLevel &Def : Parsed->Defs) {
    (void)ast::dumpAST(Def);
    auto *const *Fn = std::get_if<ast::FunctionDef *>(&Def);
    if (!Fn)
      continue;
    std::vector<Symbol> Where;
    for (const ast::WhereVar &W : (*Fn)->Where)
      Where.push_back(W.Name);
    auto CI = lowerMethod(**Fn, File, Where);
    if (!CI) {
      for (const Diagnostic &D : takeDiagnostics(CI.takeError()))
        check(D.Loc.Line >= 1);
      continue;
    }
    checkInvariants(**CI);
    (void)printLowered(**CI);
  }
  // The single-expression entry point (command-line signatures).
  ast::ParsedFile One(File);
  (void)ast::dumpAST(parseExpression(One));
  return 0;
}
