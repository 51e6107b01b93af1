#include "workspace/DefinitionSync.h"

#include "lang/AST.h"

#include "llvm/ADT/STLExtras.h"

#include <set>

namespace prism {

namespace {
/// A definition's key: its first line and its text. A definition that moved
/// keeps its text but not its lines, and stale debug lines would misplace
/// the source correlation of every stage pane: it is loaded again.
std::string defText(const ast::ParsedFile &F, const ast::TopLevel &D) {
  SrcRange R = std::visit([](auto *Def) { return Def->Range; }, D);
  std::string_view T = F.File->text();
  if (R.End > T.size() || R.Begin > R.End)
    return {};
  return std::to_string(F.File->lineCol(R.Begin).Line) + ":" +
         std::string(T.substr(R.Begin, R.End - R.Begin));
}

bool isVisible(const Method *M) {
  return M->DeletedWorld.load(std::memory_order_acquire) == WorldInfinity;
}

/// The method M replaced when it was defined, if any.
const Method *overwrittenBy(const Method &M) {
  for (const Method *O : M.Func->methodsIn(M.PrimaryWorld - 1))
    if (sameSignature(*O, M))
      return O;
  return nullptr;
}
} // namespace

llvm::Error
DefinitionSync::load(GlobalEnv &Env,
                     const std::shared_ptr<const ast::ParsedFile> &F,
                     const std::vector<size_t> &Defs, LoadResult &Into) {
  auto Part = std::make_shared<ast::ParsedFile>(F->File);
  for (size_t I : Defs)
    Part->Defs.push_back(F->Defs[I]);
  auto R = loadFile(Env, Part);
  if (!R)
    return R.takeError();
  Keep.push_back(F); // Part's nodes live in F's arena
  for (size_t I : Defs) {
    std::vector<Method *> &Ms = Loaded[defText(*F, F->Defs[I])];
    Ms.clear();
    for (Method *M : R->Added)
      if (const auto *const *Fn = std::get_if<ast::FunctionDef *>(&F->Defs[I]);
          Fn && M->Def == *Fn)
        Ms.push_back(M);
  }
  if (!Into.FirstWorld)
    Into.FirstWorld = R->FirstWorld;
  Into.LastWorld = std::max(Into.LastWorld, R->LastWorld);
  llvm::append_range(Into.Added, R->Added);
  llvm::append_range(Into.Replaced, R->Replaced);
  return llvm::Error::success();
}

llvm::Expected<LoadResult>
DefinitionSync::apply(GlobalEnv &Env,
                      std::shared_ptr<const ast::ParsedFile> F) {
  std::vector<std::string> Keys;
  std::map<std::string, size_t> Position;
  for (const ast::TopLevel &D : F->Defs) {
    Keys.push_back(defText(*F, D));
    Position.emplace(Keys.back(), Keys.size() - 1);
  }
  LastDeleted.clear();

  // The definitions whose text is new.
  LoadResult All;
  std::vector<size_t> New;
  for (size_t I = 0; I < Keys.size(); ++I)
    if (!Loaded.count(Keys[I]))
      New.push_back(I);
  if (!New.empty())
    if (llvm::Error E = load(Env, F, New, All))
      return E;

  // The methods of definitions that left the file, in a world of their own.
  for (auto It = Loaded.begin(); It != Loaded.end();) {
    if (Position.count(It->first)) {
      ++It;
      continue;
    }
    for (Method *M : It->second)
      if (isVisible(M))
        LastDeleted.push_back(M);
    It = Loaded.erase(It);
  }
  if (!LastDeleted.empty()) {
    World W = Env.nextWorld();
    All.FirstWorld = All.FirstWorld ? All.FirstWorld : W;
    All.LastWorld = W;
    for (Method *M : LastDeleted) {
      M->DeletedWorld.store(W, std::memory_order_release);
      All.Replaced.push_back(M);
    }
  }

  // A definition the file keeps whose method is now overwritten from above
  // it (an edit of the first of two `f(x::Int)`), or gone (the second was
  // deleted): loading it again makes it the one, as in the file.
  std::map<const Method *, size_t> DefOf;
  for (size_t I = 0; I < Keys.size(); ++I)
    if (auto It = Loaded.find(Keys[I]); It != Loaded.end())
      for (const Method *M : It->second)
        DefOf[M] = I;
  std::vector<size_t> Again;
  for (size_t I = 0; I < Keys.size(); ++I) {
    auto It = Loaded.find(Keys[I]);
    if (It == Loaded.end() || llvm::is_contained(New, I))
      continue;
    bool Lost = llvm::any_of(It->second, [&](const Method *M) {
      if (isVisible(M))
        return false;
      for (const Method *Now : M->Func->methodsIn(Env.currentWorld()))
        if (sameSignature(*Now, *M)) {
          auto D = DefOf.find(Now);
          return D == DefOf.end() || D->second < I;
        }
      return true;
    });
    if (Lost)
      Again.push_back(I);
  }
  if (!Again.empty())
    if (llvm::Error E = load(Env, F, Again, All))
      return E;

  findWarnings(Keys);
  return All;
}

void DefinitionSync::findWarnings(const std::vector<std::string> &Keys) {
  Warnings.clear();
  for (size_t I = 0; I < Keys.size(); ++I) {
    auto It = Loaded.find(Keys[I]);
    if (It == Loaded.end())
      continue;
    for (const Method *M : It->second) {
      // The nearest definition above it in the file with the signature.
      const Method *Above = nullptr;
      for (size_t J = I; J-- > 0 && !Above;)
        if (auto Jt = Loaded.find(Keys[J]); Jt != Loaded.end())
          for (const Method *O : Jt->second)
            if (O->Func == M->Func && sameSignature(*O, *M))
              Above = O;
      // Else the prelude's, through the methods earlier edits replaced.
      const Method *Base = Above ? nullptr : overwrittenBy(*M);
      for (size_t Steps = 0; Base && !Base->IsPrelude && Steps < 1000; ++Steps)
        Base = overwrittenBy(*Base);
      if (const Method *Old = Above ? Above : Base)
        Warnings.push_back(overwriteWarning(*M, *Old));
      // A body the language cannot compile is that method's error when a
      // job compiles it; the file loads, and the editor shows it.
      if (M->Def)
        for (Diagnostic D : M->Def->Unsupported) {
          // Once, not again for each forwarder of optional arguments.
          if (llvm::any_of(Warnings, [&](const Diagnostic &W) {
                return W.Message == D.Message && W.Loc.Line == D.Loc.Line &&
                       W.Loc.Col == D.Loc.Col;
              }))
            continue;
          D.Sev = Severity::Warning;
          D.note("`" + M->Name.string() +
                 "` does not compile; the file's other functions do");
          Warnings.push_back(std::move(D));
        }
    }
  }
}

} // namespace prism
