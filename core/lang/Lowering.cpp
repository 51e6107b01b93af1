//===- Lowering.cpp - AST to lowered IR (Julia's code_lowered) ------------===//
//
// How each construct lowers (values are IRValues; `%k` a statement result):
//  - names: argument/local -> Slot, `where` name -> StaticParam, `nothing` ->
//    the Nothing constant, anything else -> Global (resolved by inference);
//  - literals -> typed constants (literalConstant);
//  - `f(a, b)` -> Call [f, a, b]; operators are calls of Global("+") etc.;
//    `S{T}` -> apply_type(S, T); `x.f` -> getfield(x, :f); `a[i, j]` ->
//    getindex(a, i, j); `(a, b)` -> tuple(a, b); `x::T` -> typeassert(x, T);
//    `a:b` outside `for` -> Global(":")(a, b);
//  - `x = v` -> slot assignment; `a[i] = v` -> setindex!(a, v, i);
//    `a, b = t` -> getfield(t, 1), getfield(t, 2) assigned in order;
//    `x += v` -> x = +(x, v); `a[i] += v` evaluates a and i once;
//  - `if`/ternary/`&&`/`||` -> gotoifnot, with a `#temp#` slot holding the
//    value when the value is used;
//  - `while` -> head: cond; gotoifnot exit; body; goto head;
//  - `for i in a:b` -> a and b evaluated once into a counter slot and the
//    stop value; head: `<=(counter, stop)`; gotoifnot exit; i = counter;
//    body; counter = +(counter, 1); goto head. `for i in a:s:b` -> r =
//    steprange(a, s, b); st = range_start(r); head: gotoifnot
//    !(range_done(r, st)) exit; i = range_value(r, st); body; st =
//    range_next(r, st); goto head (the prelude's StepRange/StepRangeLen);
//  - `@inbounds` sets SF_InBounds on every statement lowered inside it;
//    `@boundscheck e` -> `if boundscheck() e end`;
//  - the body's last expression is returned; `f(x)::T` wraps every returned
//    value in convert(T, v).
//
//===----------------------------------------------------------------------===//

#include "lang/Lowering.h"
#include "types/Type.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>
#include <unordered_map>

namespace prism {

using namespace ast;

ConstValue literalConstant(LitType T, uint64_t Bits) {
  TypeContext &C = TypeContext::get();
  ConstValue V;
  V.Bits = Bits;
  switch (T) {
  case LitType::Bool: V.K = ConstValue::Bool; V.Ty = C.boolTy(); V.Bits = Bits != 0; break;
  case LitType::Int8: V.K = ConstValue::Int; V.Ty = C.int8(); V.Bits &= 0xFF; break;
  case LitType::Int16: V.K = ConstValue::Int; V.Ty = C.int16(); V.Bits &= 0xFFFF; break;
  case LitType::Int32: V.K = ConstValue::Int; V.Ty = C.int32(); V.Bits &= 0xFFFFFFFF; break;
  case LitType::Int64: V.K = ConstValue::Int; V.Ty = C.int64(); break;
  case LitType::UInt8: V.K = ConstValue::Int; V.Ty = C.uint8(); V.Bits &= 0xFF; break;
  case LitType::UInt16: V.K = ConstValue::Int; V.Ty = C.uint16(); V.Bits &= 0xFFFF; break;
  case LitType::UInt32: V.K = ConstValue::Int; V.Ty = C.uint32(); V.Bits &= 0xFFFFFFFF; break;
  case LitType::UInt64: V.K = ConstValue::Int; V.Ty = C.uint64(); break;
  case LitType::Float16: V.K = ConstValue::Float; V.Ty = C.float16(); V.Bits &= 0xFFFF; break;
  case LitType::Float32: V.K = ConstValue::Float; V.Ty = C.float32(); V.Bits &= 0xFFFFFFFF; break;
  case LitType::Float64: V.K = ConstValue::Float; V.Ty = C.float64(); break;
  }
  return V;
}

namespace {

ConstValue nothingConst() {
  ConstValue V;
  V.K = ConstValue::Nothing;
  V.Ty = TypeContext::get().nothing();
  return V;
}

ConstValue intConst(int64_t I) { return literalConstant(LitType::Int64, uint64_t(I)); }

ConstValue symConst(Symbol S) {
  ConstValue V;
  V.K = ConstValue::Sym;
  V.Name = S;
  return V;
}

class Lowerer {
public:
  Lowerer(const FunctionDef &Def, const SourceFileRef &File,
          std::span<const Symbol> StaticParams)
      : Def(Def), File(File), CI(std::make_shared<CodeInfo>()) {
    CI->File = File;
    CI->FunctionName = Def.Name;
    CI->Range = Def.Range;
    CI->StaticParamNames.assign(StaticParams.begin(), StaticParams.end());
    for (size_t I = 0; I < StaticParams.size(); ++I)
      SParamOf.emplace(StaticParams[I], I);
  }

  llvm::Expected<std::shared_ptr<CodeInfo>> run();

private:
  const FunctionDef &Def;
  const SourceFileRef &File;
  std::shared_ptr<CodeInfo> CI;
  std::unordered_map<Symbol, uint32_t> SlotOf;
  std::unordered_map<Symbol, uint32_t> SParamOf;
  /// Collecting the function body's own scope (not a loop's or a let's).
  bool InFunctionScope = false;
  /// The first slot of the scope being collected: a `local` of a name with
  /// an older slot makes a new one (the older is an enclosing scope's).
  uint32_t ScopeFirst = 0;
  std::vector<Diagnostic> Diags;
  uint32_t Flags = SF_None;
  SrcRange Cur;
  /// False right after a goto/return: the next statement has no fall-through
  /// predecessor (it is reachable only if it becomes a jump target).
  bool Reachable = true;

  struct Loop {
    std::vector<uint32_t> Breaks;
    std::vector<uint32_t> Continues; ///< patched when the target is known
    int64_t ContinueTarget = -1;
    /// While a `while`'s condition lowers, a `break` in it leaves this loop
    /// but a `continue` belongs to the enclosing one (Julia's expand-while
    /// wraps only the body in the loop-cont block).
    bool InCondition = false;
  };
  std::vector<Loop> Loops;

  // --- emission -----------------------------------------------------------
  uint32_t emit(Stmt S) {
    S.Range = Cur;
    S.Flags |= Flags;
    CI->Code.push_back(std::move(S));
    return CI->Code.size() - 1;
  }
  IRValue call(std::vector<IRValue> Args) {
    Stmt S;
    S.K = StmtKind::Call;
    S.Args = std::move(Args);
    return IRValue::ssa(emit(std::move(S)));
  }
  IRValue callGlobal(const char *Name, std::vector<IRValue> Args) {
    Args.insert(Args.begin(), IRValue::global(Symbol::get(Name)));
    return call(std::move(Args));
  }
  void assign(uint32_t Slot, IRValue V) {
    Stmt S;
    S.K = StmtKind::Assign;
    S.Slot = Slot;
    S.Args.push_back(std::move(V));
    emit(std::move(S));
  }
  uint32_t jump() {
    Stmt S;
    S.K = StmtKind::Goto;
    uint32_t I = emit(std::move(S));
    Reachable = false;
    return I;
  }
  uint32_t jumpIfNot(IRValue C) {
    Stmt S;
    S.K = StmtKind::GotoIfNot;
    S.Args.push_back(std::move(C));
    return emit(std::move(S));
  }
  void jumpTo(uint32_t Target) { CI->Code[jump()].Label = Target; }
  /// The index of the next statement, as a jump target.
  uint32_t label() {
    Reachable = true;
    return CI->Code.size();
  }
  void patch(uint32_t Jump, uint32_t Target) { CI->Code[Jump].Label = Target; }
  void emitReturn(IRValue V) {
    if (Def.ReturnType) {
      IRValue T = lower(Def.ReturnType, true);
      V = callGlobal("convert", {T, V});
    }
    Stmt S;
    S.K = StmtKind::Return;
    S.Args.push_back(std::move(V));
    emit(std::move(S));
    Reachable = false;
  }
  uint32_t newTemp() {
    CI->Slots.push_back({Symbol::get("#temp#"), false});
    return CI->Slots.size() - 1;
  }
  /// Whether running N may assign the slot named Name.
  static bool assigns(const Node *N, Symbol Name) {
    if (!N)
      return false;
    if ((N->Kind == NodeKind::Assign || N->Kind == NodeKind::OpAssign) &&
        targets(N->Kids[0], Name))
      return true;
    if (N->Kind == NodeKind::For && N->Name == Name)
      return true;
    for (const Node *K : N->Kids)
      if (assigns(K, Name))
        return true;
    return false;
  }
  static bool targets(const Node *T, Symbol Name) {
    if (T->Kind == NodeKind::Ident)
      return T->Name == Name;
    if (T->Kind == NodeKind::Tuple)
      for (const Node *K : T->Kids)
        if (targets(K, Name))
          return true;
    return false;
  }
  /// A value that stays the same while Region runs: slots are read when
  /// used, so a slot that Region may reassign is copied first (Julia's
  /// lowering does the same).
  IRValue stable(IRValue V, const Node *Region) {
    if (V.K != IRValue::Slot || !assigns(Region, CI->Slots[V.Index].Name))
      return V;
    uint32_t T = newTemp();
    assign(T, V);
    return IRValue::slot(T);
  }

  /// Arguments are evaluated left to right: a slot read for one of them is
  /// copied first where a later one assigns it (`x + (x = 2)` adds the old
  /// x), as Julia's lowering copies such arguments to SSA values.
  std::vector<IRValue> lowerArgs(llvm::ArrayRef<const Node *> Kids,
                                 std::vector<IRValue> Args = {}) {
    for (size_t I = 0; I < Kids.size(); ++I) {
      IRValue V = lower(Kids[I], true);
      for (const Node *Later : Kids.drop_front(I + 1))
        if (V.K == IRValue::Slot && assigns(Later, CI->Slots[V.Index].Name)) {
          V = stable(V, Later);
          break;
        }
      Args.push_back(V);
    }
    return Args;
  }

  void error(SrcRange R, std::string Msg) {
    Diags.push_back(Diagnostic::error("lowering", std::move(Msg),
                                      DiagLoc::fromRange(File, R)));
  }
  IRValue nothing() { return IRValue::constant(nothingConst()); }

  // --- traversal ----------------------------------------------------------
  void collectLocals(const Node *N);
  void declareLocal(const Node *D);
  /// The locals of a loop body: the `for` variable and the names the body
  /// assigns that no enclosing scope has. The caller restores SlotOf after.
  std::vector<uint32_t> enterLoopScope(const Node *Body, const Node *For);
  void newIteration(const Node *Body, llvm::ArrayRef<uint32_t> Own);
  void declareTarget(const Node *Target);
  IRValue lower(const Node *N, bool NeedValue);
  IRValue lowerName(const Node *N);
  IRValue lowerIf(const Node *N, bool NeedValue);
  std::vector<uint32_t> lowerCondition(const Node *C, SrcRange At);
  /// The operands a comparison chain under And shares between two calls,
  /// each lowered once (its value then reused): ChainValues' keys.
  void markChainOperands(const Node *And);
  std::unordered_map<const Node *, std::optional<IRValue>> ChainValues;
  IRValue lowerShortCircuit(const Node *N, bool NeedValue);
  void lowerWhile(const Node *N);
  IRValue lowerLet(const Node *N, bool NeedValue);
  void lowerFor(const Node *N);
  void lowerStepFor(const Node *N);
  void lowerIterFor(const Node *N, IRValue Iterable);
  /// The loop variable's assignment and the body, in the body's scope;
  /// the label `continue` jumps to, or UINT32_MAX when nothing reaches it.
  uint32_t lowerLoopBody(const Node *N, IRValue Value);
  /// Pops the loop, patching its exits (and `Last`, if any) to after it;
  /// the inner loop of `for i in a, j in b` (For's Bits = 1) hands its
  /// `break`s to the enclosing loop, which they leave too.
  void finishLoop(uint32_t Exit, uint32_t Last, bool BreaksLeaveOuter = false);
  IRValue lowerAssign(const Node *N);
  IRValue lowerOpAssign(const Node *N);
  void assignTo(const Node *Target, IRValue V);
};

void Lowerer::declareTarget(const Node *T) {
  if (T->Kind == NodeKind::Ident) {
    if (SlotOf.count(T->Name)) // a local, perhaps shadowing a static parameter
      return;
    if (SParamOf.count(T->Name)) {
      error(T->Range, "cannot assign to static parameter `" + T->Name.string() + "`");
      return;
    }
    if (!SlotOf.count(T->Name)) {
      SlotOf.emplace(T->Name, CI->Slots.size());
      CI->Slots.push_back({T->Name, false});
    }
  } else if (T->Kind == NodeKind::Tuple) {
    for (const Node *K : T->Kids)
      declareTarget(K);
  }
}

/// Julia's scoping: a name assigned in a scope is a local of the outermost
/// scope that assigns it. The function body is one scope and each loop body
/// another, so a name first assigned inside a loop is the loop's own and
/// does not exist after it (Julia: UndefVarError). Declares the names N
/// assigns outside loop bodies that no enclosing scope has; lowerFor and
/// lowerWhile collect their bodies when they enter them.
void Lowerer::collectLocals(const Node *N) {
  if (!N || N->Kind == NodeKind::Let) // a scope of its own (lowerLet)
    return;
  if (N->Kind == NodeKind::Assign || N->Kind == NodeKind::OpAssign)
    declareTarget(N->Kids[0]);
  if (N->Kind == NodeKind::Local) {
    declareLocal(N->Kids[0]);
    return;
  }
  bool Loop = N->Kind == NodeKind::For || N->Kind == NodeKind::While;
  for (size_t I = 0; I < N->Kids.size(); ++I)
    if (!Loop || I == 0) // a loop's range or condition is the outer scope's
      collectLocals(N->Kids[I]);
}

/// `local x` (or names, or an assignment to them): each name is this
/// scope's own, new where only an enclosing scope has it; an argument or a
/// static parameter is Julia's error.
void Lowerer::declareLocal(const Node *D) {
  const Node *Target =
      D->Kind == NodeKind::Assign || D->Kind == NodeKind::OpAssign ? D->Kids[0]
                                                                   : D;
  llvm::SmallVector<const Node *, 4> Names;
  if (Target->Kind == NodeKind::Tuple)
    Names.append(Target->Kids.begin(), Target->Kids.end());
  else
    Names.push_back(Target);
  for (const Node *Name : Names) {
    auto Old = SlotOf.find(Name->Name);
    if (Old != SlotOf.end() && Old->second >= ScopeFirst)
      continue; // already this scope's
    if (InFunctionScope && Old != SlotOf.end() && Old->second <= CI->NumArgs) {
      error(Name->Range, "local variable name `" + Name->Name.string() +
                             "` conflicts with an argument");
      continue;
    }
    if (Old == SlotOf.end() && SParamOf.count(Name->Name)) {
      error(Name->Range, "local variable name `" + Name->Name.string() +
                             "` conflicts with a static parameter");
      continue;
    }
    SlotOf[Name->Name] = CI->Slots.size();
    CI->Slots.push_back({Name->Name, false});
  }
  if (D != Target)
    collectLocals(D->Kids[1]);
}

/// Declares the loop body's scope; returns the body's own locals (not the
/// loop variable), which newIteration starts afresh.
std::vector<uint32_t> Lowerer::enterLoopScope(const Node *Body,
                                              const Node *For) {
  if (For && For->Name && !SParamOf.count(For->Name)) {
    // The loop variable is new in each loop, even where the enclosing
    // scope has a local of that name (Julia without `outer`).
    SlotOf[For->Name] = CI->Slots.size();
    CI->Slots.push_back({For->Name, false});
  }
  // So are the names of `for (i, x) in ...`.
  if (For && For->Kind == NodeKind::For && For->Kids.size() > 2)
    for (const Node *P : For->Kids[2]->Kids)
      if (P->Kind == NodeKind::Ident && !SParamOf.count(P->Name)) {
        SlotOf[P->Name] = CI->Slots.size();
        CI->Slots.push_back({P->Name, false});
      }
  uint32_t First = CI->Slots.size();
  uint32_t OuterFirst = ScopeFirst;
  ScopeFirst = First;
  collectLocals(Body);
  ScopeFirst = OuterFirst;
  std::vector<uint32_t> Own;
  for (uint32_t S = First; S < CI->Slots.size(); ++S)
    Own.push_back(S);
  return Own;
}

/// Whether N mentions Name anywhere (read, assigned, or as a loop variable).
static bool mentions(const Node *N, Symbol Name) {
  if (!N)
    return false;
  if ((N->Kind == NodeKind::Ident || N->Kind == NodeKind::For) &&
      N->Name == Name)
    return true;
  for (const Node *K : N->Kids)
    if (mentions(K, Name))
      return true;
  return false;
}

/// Whether every iteration assigns Name before anything can read it: the
/// first statement of Body that mentions it is `Name = value` (value not
/// mentioning it) at the body's top level.
static bool assignedFirst(const Node *Body, Symbol Name) {
  if (!Body || Body->Kind != NodeKind::Block)
    return false;
  for (const Node *S : Body->Kids) {
    // `@inbounds x = a[i]` assigns as `x = a[i]` does.
    while (S && S->Kind == NodeKind::Macro && S->Kids.size() == 1)
      S = S->Kids[0];
    if (!mentions(S, Name))
      continue;
    return S->Kind == NodeKind::Assign && S->Kids[0]->Kind == NodeKind::Ident &&
           S->Kids[0]->Name == Name && !mentions(S->Kids[1], Name);
  }
  return true; // never mentioned
}

/// Julia's `NewvarNode`: a body's own local starts each iteration without
/// a value, so reading it before this iteration assigns it is an
/// UndefVarError (not the previous iteration's value). Locals every
/// iteration assigns first need none, as in Julia's lowering.
void Lowerer::newIteration(const Node *Body, llvm::ArrayRef<uint32_t> Own) {
  for (uint32_t Slot : Own) {
    if (assignedFirst(Body, CI->Slots[Slot].Name))
      continue;
    Stmt S;
    S.K = StmtKind::NewVar;
    S.Slot = Slot;
    emit(std::move(S));
  }
}

IRValue Lowerer::lowerName(const Node *N) {
  // `_` (and `__`) may be assigned, never read, as in Julia.
  if (N->Name &&
      N->Name.str().find_first_not_of('_') == std::string_view::npos) {
    error(N->Range, "all-underscore identifiers are write-only and their "
                    "values cannot be used in expressions");
    return nothing();
  }
  auto S = SlotOf.find(N->Name);
  if (S != SlotOf.end())
    return IRValue::slot(S->second);
  auto P = SParamOf.find(N->Name);
  if (P != SParamOf.end())
    return IRValue::staticParam(P->second);
  if (N->Name.str() == "nothing")
    return nothing();
  return IRValue::global(N->Name);
}

IRValue Lowerer::lower(const Node *N, bool NeedValue) {
  // A chain's middle operand (`0 < f(a) < x`) is one node in two calls:
  // computed once, by the first (which runs first and always), as Julia's
  // expand-compare-chain binds it.
  if (N->Kind == NodeKind::And)
    markChainOperands(N);
  if (auto It = ChainValues.find(N); It != ChainValues.end() && It->second)
    return *It->second;
  SrcRange Saved = Cur;
  Cur = N->Range;
  IRValue V;
  switch (N->Kind) {
  case NodeKind::Literal:
    V = IRValue::constant(literalConstant(N->Lit, N->Bits));
    break;
  case NodeKind::Ident:
    V = lowerName(N);
    break;
  case NodeKind::Quote:
    // Kernels have no Symbol values: a symbol is only a type parameter
    // (handled with Curly below).
    error(N->Range, "a symbol (`:" + N->Name.string() +
                        "`) can only be a type parameter, as in `Irrational{:" +
                        N->Name.string() + "}`");
    V = nothing();
    break;
  case NodeKind::Call: {
    // `x^2` with an integer literal power: Julia's
    // `literal_pow(^, x, Val{2}())` (core/prelude/60_math.jl).
    if (N->Kids.size() == 3 && N->Kids[0]->Kind == NodeKind::Ident &&
        N->Kids[0]->Name.str() == "^" &&
        N->Kids[2]->Kind == NodeKind::Literal &&
        N->Kids[2]->Lit == LitType::Int64) {
      IRValue Pow = lower(N->Kids[0], true);
      IRValue X = lower(N->Kids[1], true);
      Cur = N->Range;
      IRValue ValT =
          callGlobal("apply_type", {IRValue::global(Symbol::get("Val")),
                                    IRValue::constant(literalConstant(
                                        N->Kids[2]->Lit, N->Kids[2]->Bits))});
      V = callGlobal("literal_pow", {Pow, X, call({ValT})});
      break;
    }
    for (const Node *K : llvm::drop_begin(N->Kids))
      if (K->Kind == NodeKind::Assign)
        error(K->Range, "keyword arguments are not supported");
    std::vector<IRValue> Args = lowerArgs(N->Kids);
    Cur = N->Range;
    // `+(a, b, c, ...)` from a chain: Julia's left fold, (a + b) + c ...
    if (Args.size() > 3 && N->Kids[0]->Kind == NodeKind::Ident &&
        (N->Kids[0]->Name.str() == "+" || N->Kids[0]->Name.str() == "*")) {
      IRValue Acc = call({Args[0], Args[1], Args[2]});
      for (size_t K = 3; K < Args.size(); ++K)
        Acc = call({Args[0], Acc, Args[K]});
      V = Acc;
      break;
    }
    V = call(std::move(Args));
    break;
  }
  case NodeKind::Curly: {
    std::vector<IRValue> Args{IRValue::global(Symbol::get("apply_type"))};
    for (const Node *K : N->Kids)
      Args.push_back(K->Kind == NodeKind::Quote
                         ? IRValue::constant(symConst(K->Name))
                         : lower(K, true));
    Cur = N->Range;
    V = call(std::move(Args));
    break;
  }
  case NodeKind::Dot: {
    IRValue Obj = lower(N->Kids[0], true);
    Cur = N->Range;
    V = callGlobal("getfield", {Obj, IRValue::constant(symConst(N->Name))});
    break;
  }
  case NodeKind::Index: {
    std::vector<IRValue> Args =
        lowerArgs(N->Kids, {IRValue::global(Symbol::get("getindex"))});
    Cur = N->Range;
    V = call(std::move(Args));
    break;
  }
  case NodeKind::Tuple: {
    if (int64_t(N->Kids.size()) > MaxTupleLength) {
      error(N->Range, "a tuple of " + std::to_string(N->Kids.size()) +
                          " elements is over Prism's limit of " +
                          std::to_string(MaxTupleLength) +
                          " (write a loop over an array instead)");
      V = nothing();
      break;
    }
    // `(x = 1, y = 2)` is a NamedTuple in Julia, not two assignments.
    if (auto A = llvm::find_if(
            N->Kids, [](const Node *K) { return K->Kind == NodeKind::Assign; });
        A != N->Kids.end()) {
      error((*A)->Range, "named tuples (`(x = 1, y = 2)`) are not supported: "
                         "write a plain tuple, or a struct with named fields");
      V = nothing();
      break;
    }
    std::vector<IRValue> Args =
        lowerArgs(N->Kids, {IRValue::global(Symbol::get("tuple"))});
    Cur = N->Range;
    V = call(std::move(Args));
    break;
  }
  case NodeKind::Ternary:
  case NodeKind::If:
    V = lowerIf(N, NeedValue);
    break;
  case NodeKind::And:
  case NodeKind::Or:
    V = lowerShortCircuit(N, NeedValue);
    break;
  case NodeKind::Assign:
    V = lowerAssign(N);
    break;
  case NodeKind::OpAssign:
    V = lowerOpAssign(N);
    break;
  case NodeKind::TypeAssert:
    if (N->Kids.size() != 2) {
      error(N->Range, "`::T` without a value is only allowed in a parameter list");
      V = nothing();
      break;
    }
    {
      IRValue X = lower(N->Kids[0], true);
      IRValue T = lower(N->Kids[1], true);
      Cur = N->Range;
      V = callGlobal("typeassert", {X, T});
    }
    break;
  case NodeKind::Range: {
    std::vector<IRValue> Args =
        lowerArgs(N->Kids, {IRValue::global(Symbol::get(":"))});
    Cur = N->Range;
    V = call(std::move(Args));
    break;
  }
  case NodeKind::Macro:
    if (N->Name.str() == "inbounds") {
      uint32_t SavedFlags = Flags;
      Flags |= SF_InBounds;
      V = lower(N->Kids[0], NeedValue);
      Flags = SavedFlags;
    } else if (N->Name.str() == "boundscheck") {
      IRValue C = callGlobal("boundscheck", {});
      uint32_t J = jumpIfNot(C);
      lower(N->Kids[0], false);
      Cur = N->Range;
      patch(J, label());
      V = nothing();
    } else {
      error(N->Range, "unsupported macro `@" + N->Name.string() + "`");
      V = nothing();
    }
    break;
  case NodeKind::Block:
    if (N->Kids.empty()) {
      V = nothing();
      break;
    }
    for (size_t I = 0; I < N->Kids.size(); ++I)
      V = lower(N->Kids[I], NeedValue && I + 1 == N->Kids.size());
    break;
  case NodeKind::While:
    lowerWhile(N);
    V = nothing();
    break;
  case NodeKind::For:
    lowerFor(N);
    V = nothing();
    break;
  case NodeKind::Break:
  case NodeKind::Continue: {
    bool IsBreak = N->Kind == NodeKind::Break;
    if (Loops.empty()) {
      error(N->Range, IsBreak ? "`break` outside a loop" : "`continue` outside a loop");
      V = nothing();
      break;
    }
    auto It = Loops.end() - 1;
    if (!IsBreak)
      while (It->InCondition && It != Loops.begin())
        --It;
    if (!IsBreak && It->InCondition) {
      error(N->Range, "`continue` outside a loop");
      V = nothing();
      break;
    }
    Loop &L = *It;
    if (IsBreak)
      L.Breaks.push_back(jump());
    else if (L.ContinueTarget >= 0)
      jumpTo(uint32_t(L.ContinueTarget));
    else
      L.Continues.push_back(jump());
    V = nothing();
    break;
  }
  case NodeKind::Return: {
    IRValue R = N->Kids.empty() ? nothing() : lower(N->Kids[0], true);
    Cur = N->Range;
    emitReturn(R);
    V = nothing();
    break;
  }
  case NodeKind::Let:
    V = lowerLet(N, NeedValue);
    break;
  case NodeKind::Local:
    // The names are the scope's (declareLocal); what is left is the
    // assignment, whose value the statement has (Julia's).
    V = N->Kids[0]->Kind == NodeKind::Assign ||
                N->Kids[0]->Kind == NodeKind::OpAssign
            ? lower(N->Kids[0], NeedValue)
            : nothing();
    break;
  case NodeKind::Where:
    error(N->Range, "`where` is only allowed in a method signature");
    V = nothing();
    break;
  case NodeKind::Error:
    // Only made where the lexer or parser already reported the problem.
    V = nothing();
    break;
  }
  Cur = Saved;
  if (NeedValue && V.K == IRValue::None)
    V = nothing();
  if (auto It = ChainValues.find(N); It != ChainValues.end())
    It->second = V;
  return V;
}

/// Where a branch's value is written: its last expression, so that a note
/// about the value's type underlines `1`, not the whole `c ? 1 : 1.0f0`.
static SrcRange valueRange(const Node *B) {
  while (B->Kind == NodeKind::Block && !B->Kids.empty())
    B = B->Kids.back();
  return B->Range;
}

void Lowerer::markChainOperands(const Node *And) {
  // The parser builds `a < b <= c` as And(Call(<, a, b), Call(<=, b, c)),
  // right-nested for longer chains; b is the same node in both.
  const Node *Left = And->Kids[0], *Right = And->Kids[1];
  while (Right->Kind == NodeKind::And)
    Right = Right->Kids[0];
  if (Left->Kind != NodeKind::Call || Right->Kind != NodeKind::Call ||
      Left->Kids.size() != 3 || Right->Kids.size() != 3 ||
      Left->Kids[2] != Right->Kids[1])
    return;
  const Node *Shared = Left->Kids[2];
  // A name or a literal reads the same twice; only a computation is bound.
  if (Shared->Kind != NodeKind::Ident && Shared->Kind != NodeKind::Literal)
    ChainValues.try_emplace(Shared);
}

/// The condition of an `if`, a ternary or a `while` as Julia lowers it:
/// `a && b` and `a || b` become jumps, not a Bool value tested again, so
/// that each test stands right before the code it guards (`if x isa Int64
/// && x > 0` narrows x for both `x > 0` and the body). Falls through when
/// C holds; returns the jumps to patch to where it does not. At places the
/// tests' diagnostics (a non-Bool condition).
std::vector<uint32_t> Lowerer::lowerCondition(const Node *C, SrcRange At) {
  if (C->Kind == NodeKind::And) {
    markChainOperands(C);
    std::vector<uint32_t> False = lowerCondition(C->Kids[0], At);
    llvm::append_range(False, lowerCondition(C->Kids[1], At));
    return False;
  }
  if (C->Kind == NodeKind::Or) {
    std::vector<uint32_t> LeftFalse = lowerCondition(C->Kids[0], At);
    Cur = At;
    uint32_t ToBody = jump();
    uint32_t Right = label();
    for (uint32_t J : LeftFalse)
      patch(J, Right);
    std::vector<uint32_t> False = lowerCondition(C->Kids[1], At);
    patch(ToBody, label());
    return False;
  }
  IRValue V = lower(C, true);
  Cur = At;
  return {jumpIfNot(V)};
}

IRValue Lowerer::lowerIf(const Node *N, bool NeedValue) {
  const Node *Then = N->Kids[1];
  const Node *Else = N->Kids.size() > 2 ? N->Kids[2] : nullptr;
  uint32_t Tmp = NeedValue ? newTemp() : 0;
  std::vector<uint32_t> ToElse = lowerCondition(N->Kids[0], N->Range);
  std::vector<uint32_t> ToEnd;
  IRValue TV = lower(Then, NeedValue);
  if (Reachable) {
    if (NeedValue) {
      Cur = valueRange(Then);
      assign(Tmp, TV);
    }
    Cur = N->Range;
    ToEnd.push_back(jump());
  }
  uint32_t ElseStart = label();
  for (uint32_t J : ToElse)
    patch(J, ElseStart);
  if (Else) {
    IRValue EV = lower(Else, NeedValue);
    if (Reachable && NeedValue) {
      Cur = valueRange(Else);
      assign(Tmp, EV);
    }
  } else if (NeedValue) {
    assign(Tmp, nothing());
  }
  if (!ToEnd.empty()) {
    uint32_t End = label();
    for (uint32_t J : ToEnd)
      patch(J, End);
  }
  return NeedValue ? IRValue::slot(Tmp) : IRValue();
}

IRValue Lowerer::lowerShortCircuit(const Node *N, bool NeedValue) {
  bool IsAnd = N->Kind == NodeKind::And;
  IRValue L = lower(N->Kids[0], true);
  Cur = N->Range;
  if (!NeedValue) {
    // `a && b`: b only when a; `a || b`: b only when !a.
    uint32_t Skip;
    if (IsAnd) {
      Skip = jumpIfNot(L);
      lower(N->Kids[1], false);
    } else {
      uint32_t ToRhs = jumpIfNot(L);
      Cur = N->Range;
      Skip = jump();
      patch(ToRhs, label());
      lower(N->Kids[1], false);
    }
    patch(Skip, label());
    return IRValue();
  }
  uint32_t Tmp = newTemp();
  ConstValue Short = literalConstant(LitType::Bool, IsAnd ? 0 : 1);
  uint32_t J = jumpIfNot(L);
  std::vector<uint32_t> ToEnd;
  if (IsAnd) {
    IRValue R = lower(N->Kids[1], true);
    if (Reachable) {
      assign(Tmp, R);
      Cur = N->Range;
      ToEnd.push_back(jump());
    }
    patch(J, label());
    Cur = N->Range;
    assign(Tmp, IRValue::constant(Short));
  } else {
    assign(Tmp, IRValue::constant(Short));
    ToEnd.push_back(jump());
    patch(J, label());
    IRValue R = lower(N->Kids[1], true);
    if (Reachable)
      assign(Tmp, R);
  }
  uint32_t End = label();
  for (uint32_t E : ToEnd)
    patch(E, End);
  return IRValue::slot(Tmp);
}

/// `let a = e, b; body end`: a scope of its own. Each binding is a new
/// local, its value computed before it exists (`let x = x` reads the outer
/// x); the body's own locals are new too, and start unassigned each time
/// the let runs (in a loop, as a loop body's do).
IRValue Lowerer::lowerLet(const Node *N, bool NeedValue) {
  auto Outer = SlotOf;
  uint32_t OuterFirst = ScopeFirst;
  ScopeFirst = CI->Slots.size();
  for (const Node *D : N->Kids[0]->Kids) {
    const Node *Target = D->Kind == NodeKind::Assign ? D->Kids[0] : D;
    llvm::SmallVector<const Node *, 4> Names;
    if (Target->Kind == NodeKind::Tuple)
      Names.append(Target->Kids.begin(), Target->Kids.end());
    else
      Names.push_back(Target);
    auto Declare = [&] {
      for (const Node *Name : Names) {
        SlotOf[Name->Name] = CI->Slots.size();
        CI->Slots.push_back({Name->Name, false});
      }
    };
    // Julia's expand-let: a value that does not mention its names is
    // computed inside the let's scope (`let a = b = x` makes b the let's
    // own), one that does before they exist (`let x = x` reads the outer).
    bool Mentions = false;
    for (const Node *Name : Names)
      Mentions |= D != Target && mentions(D->Kids[1], Name->Name);
    if (D == Target) {
      Declare();
      for (const Node *Name : Names) {
        Stmt S;
        S.K = StmtKind::NewVar;
        S.Slot = SlotOf[Name->Name];
        Cur = D->Range;
        emit(std::move(S));
      }
      continue;
    }
    if (!Mentions) {
      Declare();
      collectLocals(D->Kids[1]);
    }
    IRValue Init = lower(D->Kids[1], true);
    if (Mentions)
      Declare();
    assignTo(Target, Init);
  }
  uint32_t Body = CI->Slots.size();
  collectLocals(N->Kids[1]);
  std::vector<uint32_t> Own;
  for (uint32_t S = Body; S < CI->Slots.size(); ++S)
    Own.push_back(S);
  newIteration(N->Kids[1], Own);
  IRValue V = lower(N->Kids[1], NeedValue);
  SlotOf = std::move(Outer);
  ScopeFirst = OuterFirst;
  return V;
}

void Lowerer::lowerWhile(const Node *N) {
  uint32_t Head = label();
  Loops.push_back({});
  Loops.back().InCondition = true;
  std::vector<uint32_t> Exits = lowerCondition(N->Kids[0], N->Range);
  Loops.back().InCondition = false;
  Loops.back().ContinueTarget = Head;
  auto Outer = SlotOf;
  newIteration(N->Kids[1], enterLoopScope(N->Kids[1], nullptr));
  lower(N->Kids[1], false);
  SlotOf = std::move(Outer);
  Cur = N->Range;
  if (Reachable)
    jumpTo(Head);
  Loop L = std::move(Loops.back());
  Loops.pop_back();
  uint32_t End = label();
  for (uint32_t E : Exits)
    patch(E, End);
  for (uint32_t B : L.Breaks)
    patch(B, End);
}

void Lowerer::lowerFor(const Node *N) {
  const Node *Iter = N->Kids[0];
  if (Iter->Kind != NodeKind::Range) {
    // Anything else iterates through the prelude's protocol: arrays,
    // tuples, eachindex (85_iterate.jl).
    IRValue R = lower(Iter, true);
    Cur = N->Range;
    return lowerIterFor(N, R);
  }
  if (Iter->Kids.size() == 3)
    return lowerStepFor(N);
  // Julia's ranges promote their ends to one type, which is the loop
  // variable's: `Int32(1):n` counts in Int32 when n is an Int32.
  std::vector<IRValue> Ends = lowerArgs(Iter->Kids);
  Cur = N->Range;
  IRValue Promoted = callGlobal("promote", Ends);
  auto Part = [&](unsigned I) {
    return callGlobal("getfield", {Promoted, IRValue::constant(intConst(I))});
  };
  uint32_t Counter = newTemp();
  assign(Counter, Part(1));
  IRValue Stop = Part(2);
  uint32_t Head = label();
  uint32_t Exit = jumpIfNot(callGlobal("<=", {IRValue::slot(Counter), Stop}));
  uint32_t Next = lowerLoopBody(N, IRValue::slot(Counter));
  uint32_t Last = UINT32_MAX;
  if (Next != UINT32_MAX) {
    // `a:typemax(T)` ends at the stop instead of wrapping past it (Julia's
    // UnitRange stops at `i == last`); the test at the head still ends
    // float ranges such as 1.0:2.5.
    Last = jumpIfNot(callGlobal("<", {IRValue::slot(Counter), Stop}));
    IRValue One = callGlobal(
        "oftype", {IRValue::slot(Counter), IRValue::constant(intConst(1))});
    assign(Counter, callGlobal("+", {IRValue::slot(Counter), One}));
    jumpTo(Head);
  }
  finishLoop(Exit, Last, N->Bits == 1);
}

void Lowerer::lowerStepFor(const Node *N) {
  // The prelude's steprange is Julia's `a:s:b` (a StepRange for integers,
  // a StepRangeLen for floats); the loop walks it through a state, as
  // Julia's `iterate` does, so that it ends at the range's last element.
  std::vector<IRValue> Parts =
      lowerArgs(N->Kids[0]->Kids, {IRValue::global(Symbol::get("steprange"))});
  Cur = N->Range;
  lowerIterFor(N, call(std::move(Parts)));
}

void Lowerer::lowerIterFor(const Node *N, IRValue R) {
  // The iterable is evaluated once, as Julia's `iterate` sees it: a
  // variable the body reassigns does not change what the loop walks.
  if (R.K == IRValue::Slot) {
    uint32_t Held = newTemp();
    assign(Held, R);
    R = IRValue::slot(Held);
  }
  uint32_t State = newTemp();
  assign(State, callGlobal("range_start", {R}));
  uint32_t Head = label();
  IRValue Done = callGlobal("range_done", {R, IRValue::slot(State)});
  uint32_t Exit = jumpIfNot(callGlobal("!", {Done}));
  IRValue Value = callGlobal("range_value", {R, IRValue::slot(State)});
  if (lowerLoopBody(N, Value) != UINT32_MAX) {
    assign(State, callGlobal("range_next", {R, IRValue::slot(State)}));
    jumpTo(Head);
  }
  finishLoop(Exit, UINT32_MAX, N->Bits == 1);
}

uint32_t Lowerer::lowerLoopBody(const Node *N, IRValue Value) {
  auto Outer = SlotOf;
  std::vector<uint32_t> Own = enterLoopScope(N->Kids[1], N);
  auto VarSlot = SlotOf.find(N->Name);
  if (VarSlot != SlotOf.end() && !SParamOf.count(N->Name)) {
    assign(VarSlot->second, Value);
    if (N->Kids.size() > 2) // `for (i, x) in ...`: taken apart
      assignTo(N->Kids[2], IRValue::slot(VarSlot->second));
  } else {
    error(N->Range, "cannot use static parameter `" + N->Name.string() + "` as a loop variable");
  }
  newIteration(N->Kids[1], Own);
  Loops.push_back({});
  lower(N->Kids[1], false);
  SlotOf = std::move(Outer);
  Cur = N->Range;
  if (!Reachable && Loops.back().Continues.empty())
    return UINT32_MAX;
  uint32_t Next = label();
  for (uint32_t C : Loops.back().Continues)
    patch(C, Next);
  return Next;
}

void Lowerer::finishLoop(uint32_t Exit, uint32_t Last, bool BreaksLeaveOuter) {
  Loop L = std::move(Loops.back());
  Loops.pop_back();
  uint32_t End = label();
  patch(Exit, End);
  if (Last != UINT32_MAX)
    patch(Last, End);
  if (BreaksLeaveOuter && !Loops.empty()) {
    llvm::append_range(Loops.back().Breaks, L.Breaks);
    return;
  }
  for (uint32_t B : L.Breaks)
    patch(B, End);
}

void Lowerer::assignTo(const Node *Target, IRValue V) {
  SrcRange Saved = Cur;
  Cur = Target->Range;
  switch (Target->Kind) {
  case NodeKind::Ident: {
    auto S = SlotOf.find(Target->Name);
    if (S != SlotOf.end())
      assign(S->second, V);
    break; // static parameters were reported by collectLocals
  }
  case NodeKind::Index: {
    std::vector<IRValue> Args{IRValue::global(Symbol::get("setindex!"))};
    IRValue Arr = lower(Target->Kids[0], true);
    Args.push_back(Arr);
    Args.push_back(V);
    for (size_t I = 1; I < Target->Kids.size(); ++I)
      Args.push_back(lower(Target->Kids[I], true));
    Cur = Target->Range;
    call(std::move(Args));
    break;
  }
  case NodeKind::Dot: {
    // Julia's setfield!, which inference reports for immutable structs.
    IRValue Obj = lower(Target->Kids[0], true);
    Cur = Target->Range;
    callGlobal("setfield!",
               {Obj, IRValue::constant(symConst(Target->Name)), V});
    break;
  }
  case NodeKind::Tuple:
    for (size_t I = 0; I < Target->Kids.size(); ++I) {
      Cur = Target->Range;
      IRValue E = callGlobal("getfield", {V, IRValue::constant(intConst(I + 1))});
      assignTo(Target->Kids[I], E);
    }
    break;
  case NodeKind::TypeAssert: {
    // What to write instead: the value converted once, which fixes the
    // variable's type as Julia's declaration would (`acc = Float32(0)`).
    std::string Msg = "typed local declarations (`x::T = v`) are not supported";
    if (Target->Kids.size() == 2 && Target->Kids[0]->Kind == NodeKind::Ident &&
        File) {
      SrcRange TR = Target->Kids[1]->Range;
      std::string_view Ty = File->text().substr(TR.Begin, TR.End - TR.Begin);
      Msg += llvm::formatv(": write `{0} = {1}(...)`, converting the value; "
                           "the variable keeps that type if every later "
                           "assignment has it",
                           Target->Kids[0]->Name.str(), Ty)
                 .str();
    }
    error(Target->Range, std::move(Msg));
    break;
  }
  case NodeKind::Call:
    // `g(y) = y + 1` in a body: a short-form definition, as the long form
    // says.
    error(Target->Range,
          "a function cannot be defined inside another: kernels have no "
          "closures; define " +
              (Target->Kids.empty() || Target->Kids[0]->Kind != NodeKind::Ident
                   ? std::string()
                   : "`" + Target->Kids[0]->Name.string() + "` ") +
              "at the top level and pass it what it uses as arguments");
    break;
  case NodeKind::Error:
    break; // the parser reported it
  default:
    error(Target->Range, "invalid assignment target");
    break;
  }
  Cur = Saved;
}

IRValue Lowerer::lowerAssign(const Node *N) {
  const Node *Lhs = N->Kids[0];
  IRValue V = lower(N->Kids[1], true);
  // Destructuring reads the right-hand side several times: keep it fixed.
  if (Lhs->Kind == NodeKind::Tuple)
    V = stable(V, Lhs);
  Cur = N->Range;
  assignTo(Lhs, V);
  return V;
}

IRValue Lowerer::lowerOpAssign(const Node *N) {
  const Node *Lhs = N->Kids[0];
  IRValue Op = IRValue::global(N->Name);
  switch (Lhs->Kind) {
  case NodeKind::Ident: {
    IRValue Old = stable(lower(Lhs, true), N->Kids[1]);
    IRValue R = lower(N->Kids[1], true);
    Cur = N->Range;
    IRValue New = call({Op, Old, R});
    assignTo(Lhs, New);
    return New;
  }
  case NodeKind::Index: {
    // a[i] += v: evaluate a and i once.
    IRValue Arr = stable(lower(Lhs->Kids[0], true), N);
    std::vector<IRValue> Idx;
    for (size_t I = 1; I < Lhs->Kids.size(); ++I)
      Idx.push_back(stable(lower(Lhs->Kids[I], true), N));
    Cur = Lhs->Range;
    std::vector<IRValue> Get{IRValue::global(Symbol::get("getindex")), Arr};
    Get.insert(Get.end(), Idx.begin(), Idx.end());
    IRValue Old = call(std::move(Get));
    IRValue R = lower(N->Kids[1], true);
    Cur = N->Range;
    IRValue New = call({Op, Old, R});
    std::vector<IRValue> Set{IRValue::global(Symbol::get("setindex!")), Arr, New};
    Set.insert(Set.end(), Idx.begin(), Idx.end());
    call(std::move(Set));
    return New;
  }
  case NodeKind::Dot: {
    // x.f += v: evaluate x once.
    IRValue Obj = stable(lower(Lhs->Kids[0], true), N);
    IRValue Name = IRValue::constant(symConst(Lhs->Name));
    Cur = Lhs->Range;
    IRValue Old = callGlobal("getfield", {Obj, Name});
    IRValue R = lower(N->Kids[1], true);
    Cur = N->Range;
    IRValue New = call({Op, Old, R});
    Cur = Lhs->Range;
    callGlobal("setfield!", {Obj, Name, New});
    return New;
  }
  default:
    error(Lhs->Range, "invalid target for `" + N->Name.string() + "=`");
    return nothing();
  }
}

llvm::Expected<std::shared_ptr<CodeInfo>> Lowerer::run() {
  CI->Slots.push_back({Symbol::get("#self#"), true});
  // The function itself, which only synthesized code names (a `#` starts
  // a comment in source): optional arguments' forwarders call it.
  SlotOf.emplace(Symbol::get("#self#"), 0);
  for (const Param &P : Def.Params) {
    CI->Slots.push_back({P.Name, true});
    if (P.Name)
      SlotOf.emplace(P.Name, CI->Slots.size() - 1);
  }
  CI->NumArgs = Def.Params.size();
  if (!Def.Body) {
    error(Def.Range, "method has no body");
    return makeDiagError(std::move(Diags));
  }
  InFunctionScope = true;
  ScopeFirst = CI->NumArgs + 1;
  collectLocals(Def.Body);
  InFunctionScope = false;
  Cur = Def.Body->Range;
  IRValue V = lower(Def.Body, true);
  if (Reachable) {
    Cur = Def.Body->Kids.empty() ? Def.Body->Range : Def.Body->Kids.back()->Range;
    emitReturn(V);
  }
  if (!Diags.empty())
    return makeDiagError(std::move(Diags));
  return CI;
}

} // namespace

llvm::Expected<std::shared_ptr<CodeInfo>>
lowerMethod(const FunctionDef &Def, const SourceFileRef &File,
            std::span<const Symbol> StaticParams) {
  return Lowerer(Def, File, StaticParams).run();
}

} // namespace prism
