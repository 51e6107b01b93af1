//===- TypedPrint.cpp - code_typed / code_warntype printing ----------------===//
//
// Julia's IRShow layout: basic blocks numbered from 1 with `1 ─`, `│` and
// `└──` gutters, `%N = ...::T` per value statement, `invoke f(...)` for
// statically resolved calls and `Base.name`/`Core.name` for builtins, and
// an optional `# file:line` column. code_warntype adds Julia's header
// (Arguments, Locals, Body) and marks every non-concrete type.
//
//===----------------------------------------------------------------------===//

#include "infer/Inference.h"

#include <algorithm>
#include <map>
#include <set>

namespace prism {

namespace {

/// A path's last component: line comments name `40_float.jl`, not its path.
std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

bool needsWarning(Type *T) {
  return T && !T->isConcrete() && !T->isBottom();
}

struct Printer {
  const CodeInstance &CI;
  const TypedCode &C;
  const TypedPrintOptions &Opts;

  std::string typeStr(Type *T) const {
    std::string S = T ? T->str() : "Union{}";
    if (!Opts.WarnType || !needsWarning(T))
      return S;
    return Opts.Color ? "\x1b[31m" + S + "\x1b[39m" : "!" + S + "!";
  }

  std::string latticeStr(const LatticeType &L) const {
    if (L.Const && (L.Const->K == ConstValue::Int ||
                    L.Const->K == ConstValue::Bool ||
                    L.Const->K == ConstValue::Float))
      return "Core.Const(" + L.Const->str() + ")";
    return typeStr(L.T);
  }

  /// Printed slot names, as Julia's sourceinfo_slotnames: a name that
  /// several slots share (an inlined callee's `x` beside the caller's)
  /// becomes `x@_N` on each of them, N the 1-based slot number, and a
  /// lowering temporary (`#temp#`) is `@_N`, as code_lowered prints it. Only
  /// the arguments and the slots the code mentions count: inlining leaves many
  /// callee slots behind that nothing reads.
  std::vector<std::string> Names = slotNames(C);

  static std::vector<std::string> slotNames(const TypedCode &C) {
    std::vector<bool> Used(C.Slots.size(), false);
    for (size_t I = 0; I <= C.NumArgs && I < Used.size(); ++I)
      Used[I] = true;
    for (const Stmt &S : C.Code) {
      if (S.K == StmtKind::Nop)
        continue;
      if (S.K == StmtKind::Assign && S.Slot < Used.size())
        Used[S.Slot] = true;
      for (const IRValue &V : S.Args)
        if (V.K == IRValue::Slot && V.Index < Used.size())
          Used[V.Index] = true;
    }
    std::map<std::string, size_t> Count;
    for (size_t I = 0; I < C.Slots.size(); ++I)
      if (Used[I] && !C.Slots[I].Name.empty())
        ++Count[std::string(C.Slots[I].Name.str())];
    std::vector<std::string> Names(C.Slots.size());
    for (size_t I = 0; I < C.Slots.size(); ++I) {
      std::string Name(C.Slots[I].Name.str());
      Names[I] =
          Name.empty() || (I > 0 && I <= C.NumArgs && Name[0] == '#')
              ? "_" + std::to_string(I + 1)
          : Name[0] == '#' && Name != "#self#" ? "@_" + std::to_string(I + 1)
          : Used[I] && Count[Name] > 1 ? Name + "@_" + std::to_string(I + 1)
                                       : Name;
    }
    return Names;
  }

  std::string slotName(uint32_t I) const {
    return I < Names.size() ? Names[I] : "_" + std::to_string(I + 1);
  }

  std::string valueStr(const IRValue &V) const {
    switch (V.K) {
    case IRValue::None:
      return "nothing";
    case IRValue::SSA:
      return "%" +
             std::to_string(
                 (V.Index < Number.size() ? Number[V.Index] : V.Index) + 1);
    case IRValue::Slot:
      return slotName(V.Index);
    case IRValue::StaticParam: {
      const auto &SP = CI.MI->SparamValues;
      if (V.Index < SP.size() && SP[V.Index])
        return SP[V.Index]->isIntValue() ? std::to_string(SP[V.Index]->intValue())
                                         : SP[V.Index]->str();
      return "$(Expr(:static_parameter, " + std::to_string(V.Index + 1) + "))";
    }
    case IRValue::Const:
      return constStr(V.C);
    case IRValue::Global:
      return globalName(V.Name);
    }
    return "?";
  }

  static std::string constStr(const ConstValue &K) {
    switch (K.K) {
    case ConstValue::TypeVal:
      return K.TypeValue ? K.TypeValue->str() : "?";
    case ConstValue::Func:
      return K.Fn ? std::string(K.Fn->Name.str()) : "?";
    case ConstValue::Nothing:
      return "nothing";
    default:
      return K.str();
    }
  }

  /// An argument of an `invoke`: `%2::Int32`, `1::Int64`.
  std::string typedArg(size_t PC, size_t I) const {
    const Stmt &S = C.Code[PC];
    std::string V = valueStr(S.Args[I]);
    if (PC < C.ArgTypes.size() && I < C.ArgTypes[PC].size() &&
        C.ArgTypes[PC][I].T && S.Args[I].K != IRValue::Global &&
        !(S.Args[I].K == IRValue::Const && S.Args[I].C.K == ConstValue::Sym))
      return V + "::" + typeStr(C.ArgTypes[PC][I].T);
    return V;
  }

  static const char *builtinModule(Builtin B) {
    switch (B) {
    case Builtin::TupleNew: case Builtin::Egal: case Builtin::TypeOf:
    case Builtin::IsA: case Builtin::Throw: case Builtin::TypeAssert:
    case Builtin::ApplyType: case Builtin::NFields: case Builtin::BoundsCheck:
    case Builtin::SizeOf:
      return "Core.";
    default:
      return "Base.";
    }
  }

  std::string callStr(size_t PC) const {
    const Stmt &S = C.Code[PC];
    Builtin B = PC < C.Builtins.size() ? C.Builtins[PC] : Builtin::None;
    MethodInstance *MI = PC < C.Invokes.size() ? C.Invokes[PC] : nullptr;
    std::string R;
    if (MI) {
      std::string Name =
          !MI->Sig.empty() && MI->Sig[0]->isTypeType() && !MI->Sig[0]->params().empty()
              ? MI->Sig[0]->param(0)->str()
              : std::string(MI->Def->Name.str());
      R = "invoke " + Name + "(";
      for (size_t I = 1; I < S.Args.size(); ++I)
        R += (I > 1 ? ", " : "") + typedArg(PC, I);
      return R + ")";
    }
    if (B == Builtin::New) {
      R = "%new(";
      for (size_t I = 1; I < S.Args.size(); ++I)
        R += (I > 1 ? ", " : "") + valueStr(S.Args[I]);
      return R + ")";
    }
    if (B != Builtin::None)
      R = std::string(builtinModule(B)) + builtinName(B) + "(";
    else if (!S.Args.empty() && S.Args[0].K == IRValue::Const &&
             S.Args[0].C.K == ConstValue::Func && S.Args[0].C.Fn)
      // A dynamic call whose function the optimiser resolved: printed as
      // the global it was, the same before and after optimisation.
      R = globalName(S.Args[0].C.Fn->Name) + "(";
    else
      R = (S.Args.empty() ? std::string("?") : valueStr(S.Args[0])) + "(";
    for (size_t I = 1; I < S.Args.size(); ++I)
      R += (I > 1 ? ", " : "") +
           (B == Builtin::None ? typedArg(PC, I) : valueStr(S.Args[I]));
    return R + ")";
  }

  /// Printed statement numbers: the statements dead code left as Nops
  /// are not shown, and the rest are numbered without gaps, as Julia
  /// renumbers after deleting unreachable code. Indexed by PC; a Nop's
  /// number is that of the next shown statement (where a jump to it lands).
  std::vector<uint32_t> Number = numbers(C);

  static std::vector<uint32_t> numbers(const TypedCode &C) {
    size_t N = C.Code.size();
    std::vector<uint32_t> Num(N + 1, 0);
    uint32_t Next = 0;
    for (size_t PC = 0; PC < N; ++PC)
      if (C.Code[PC].K != StmtKind::Nop)
        Num[PC] = Next++;
    Num[N] = Next;
    for (size_t PC = N; PC-- > 0;)
      if (C.Code[PC].K == StmtKind::Nop)
        Num[PC] = Num[PC + 1];
    return Num;
  }

  std::string print() const {
    size_t N = C.Code.size();
    std::vector<size_t> Shown;
    for (size_t PC = 0; PC < N; ++PC)
      if (C.Code[PC].K != StmtKind::Nop)
        Shown.push_back(PC);
    // Basic blocks over the shown statements: a block starting at a Nop
    // starts at the next shown statement.
    size_t NS = Shown.size();
    std::vector<bool> Leader(NS + 1, false);
    std::vector<bool> Starts = blockStarts(C);
    for (size_t PC = 0; PC <= N; ++PC)
      if (Starts[PC])
        Leader[Number[PC]] = true;
    // BlockOf is indexed by PC (a jump's label included).
    std::vector<uint32_t> BlockOfShown(NS + 1, 0);
    uint32_t NB = 0;
    for (size_t K = 0; K <= NS; ++K) {
      if (Leader[K])
        ++NB;
      BlockOfShown[K] = NB;
    }
    std::vector<uint32_t> BlockOf(N + 1, 0);
    for (size_t PC = 0; PC <= N; ++PC)
      BlockOf[PC] = BlockOfShown[Number[PC]];

    // The widest block number printed: that of the last statement shown
    // (NB also counts a leader past the end, a block with no statement).
    size_t BW =
        std::to_string(
            std::max<uint32_t>(Shown.empty() ? NB : BlockOf[Shown.back()], 1))
            .size();
    size_t SW = std::string("%" + std::to_string(NS) + " = ").size();
    std::vector<std::string> Lines, Comments;
    std::string LastLoc;
    for (size_t K = 0; K < Shown.size(); ++K) {
      size_t PC = Shown[K];
      bool First = K == 0 || BlockOf[Shown[K - 1]] != BlockOf[PC];
      bool Last = K + 1 == Shown.size() || BlockOf[Shown[K + 1]] != BlockOf[PC];
      // A call that never returns (a throw) ends its block with Julia's
      // `unreachable` line, drawn below it, so that the block does not read
      // as falling through into the next.
      const Stmt &S = C.Code[PC];
      bool Unreachable = S.K == StmtKind::Call && PC < C.SSATypes.size() &&
                         C.SSATypes[PC].isBottom();
      if (Unreachable)
        Last = false;
      std::string EndGutter = "└";
      for (size_t I = 0; I < BW + 1; ++I)
        EndGutter += "─";
      EndGutter += " ";
      std::string G;
      if (First) {
        std::string B = std::to_string(BlockOf[PC]);
        G = std::string(BW - B.size(), ' ') + B + " ─ ";
      } else if (Last) {
        G = EndGutter;
      } else {
        G = "│" + std::string(BW + 2, ' ');
      }
      std::string Body;
      switch (S.K) {
      case StmtKind::Call: {
        // Julia pads the SSA name so that the `=` signs line up.
        std::string Lhs = "%" + std::to_string(Number[PC] + 1);
        Lhs += std::string(SW - 3 > Lhs.size() ? SW - 3 - Lhs.size() : 0, ' ') + " = ";
        Body = Lhs + callStr(PC) + "::" + latticeStr(C.SSATypes[PC]);
        break;
      }
      case StmtKind::Assign:
        Body = std::string(SW, ' ') + slotName(S.Slot) + " = " +
               (S.Args.empty() ? "?" : valueStr(S.Args[0]));
        break;
      case StmtKind::Goto:
        Body = std::string(SW, ' ') + "goto #" + std::to_string(BlockOf[S.Label]);
        break;
      case StmtKind::GotoIfNot:
        Body = std::string(SW, ' ') + "goto #" + std::to_string(BlockOf[S.Label]) +
               " if not " + (S.Args.empty() ? "?" : valueStr(S.Args[0]));
        break;
      case StmtKind::Return:
        Body = std::string(SW, ' ') + "return " +
               (S.Args.empty() ? "nothing" : valueStr(S.Args[0]));
        break;
      case StmtKind::NewVar:
        Body = std::string(SW, ' ') + "Core.NewvarNode(:(" + slotName(S.Slot) +
               "))";
        break;
      case StmtKind::Nop:
        break;
      }
      Lines.push_back(G + Body);
      std::string Loc;
      if (Opts.DebugInfo) {
        SourceFileRef F = PC < C.StmtFiles.size() && C.StmtFiles[PC] ? C.StmtFiles[PC] : C.File;
        if (F && S.Range.valid()) {
          std::string Name = baseName(F->name());
          Loc = Name + ":" + std::to_string(F->lineCol(S.Range.Begin).Line);
          // Every call site it was inlined through, innermost first: `@ 1
          // @ 2` in the function's own file, `@ 80_array.jl:93` elsewhere.
          if (PC < C.InlineStacks.size())
            for (auto It = C.InlineStacks[PC].rbegin(),
                      E = C.InlineStacks[PC].rend();
                 It != E; ++It) {
              if (!It->File || !It->CallSite.valid())
                continue;
              Loc += " @ ";
              if (It->File != C.File)
                Loc += baseName(It->File->name()) + ":";
              Loc += std::to_string(It->File->lineCol(It->CallSite.Begin).Line);
            }
        }
      }
      Comments.push_back(Loc != LastLoc ? Loc : "");
      if (!Loc.empty())
        LastLoc = Loc;
      if (Unreachable) {
        Lines.push_back(EndGutter + std::string(SW, ' ') + "unreachable");
        Comments.push_back("");
      }
    }
    size_t Width = 0;
    for (const std::string &L : Lines)
      Width = std::max(Width, displayWidth(L));
    Width = std::min<size_t>(Width + 2, 72);
    std::string Out;
    for (size_t I = 0; I < Lines.size(); ++I) {
      Out += Lines[I];
      if (!Comments[I].empty()) {
        size_t W = displayWidth(Lines[I]);
        Out += std::string(W < Width ? Width - W : 1, ' ') + "# " + Comments[I];
      }
      Out += "\n";
    }
    return Out;
  }

  /// Code points, not bytes (the gutters are multi-byte box characters),
  /// ignoring ANSI escapes.
  static size_t displayWidth(const std::string &S) {
    size_t W = 0;
    for (size_t I = 0; I < S.size(); ++I) {
      unsigned char Ch = S[I];
      if (Ch == 0x1b) {
        while (I < S.size() && S[I] != 'm')
          ++I;
        continue;
      }
      if ((Ch & 0xC0) != 0x80)
        ++W;
    }
    return W;
  }

  std::string header() const {
    std::string Out = "MethodInstance for " + CI.MI->str() + "\n";
    const Method &M = *CI.MI->Def;
    DiagLoc L = M.location();
    Out += "  from " + M.signatureString();
    if (L.known())
      Out += " @ " + L.str();
    // The values of the method's `where` variables, as Julia lists them.
    const auto &SP = CI.MI->SparamValues;
    if (!M.Sparams.empty() && SP.size() == M.Sparams.size()) {
      Out += "\nStatic Parameters";
      for (size_t I = 0; I < SP.size(); ++I) {
        Out += "\n  " + std::string(M.Sparams[I]->varName().str());
        // A variable is known only when it runs (an abstract signature's
        // `x::T`): Julia writes its bound.
        if (SP[I] && SP[I]->isTypeVar())
          Out += " <: " + SP[I]->upperBound()->str();
        else
          Out +=
              " = " + (!SP[I]                ? std::string("#undef")
                       : SP[I]->isIntValue() ? std::to_string(SP[I]->intValue())
                                             : SP[I]->str());
      }
    }
    Out += "\nArguments\n";
    for (uint32_t I = 0; I <= C.NumArgs && I < C.Slots.size(); ++I) {
      Type *T = I < C.SlotTypes.size() ? C.SlotTypes[I] : nullptr;
      Out += "  " + slotName(I) + "::" + latticeStr(latticeOfSlot(I, T)) + "\n";
    }
    std::string Locals;
    for (uint32_t I = C.NumArgs + 1; I < C.Slots.size(); ++I) {
      Type *T = I < C.SlotTypes.size() ? C.SlotTypes[I] : nullptr;
      // A lowering temporary never assigned (the value of an `if` whose
      // branches all return) is not a variable of the program; Julia's
      // lowering does not make it.
      std::string_view Name = C.Slots[I].Name.str();
      if ((Name.empty() || Name[0] == '#') && (!T || T->isBottom()))
        continue;
      Locals += "  " + slotName(I) + "::" + typeStr(T) + "\n";
    }
    if (!Locals.empty())
      Out += "Locals\n" + Locals;
    Out += "Body::" + typeStr(CI.ReturnType) + "\n";
    return Out;
  }

  LatticeType latticeOfSlot(uint32_t I, Type *T) const {
    LatticeType L(T);
    if (I == 0 && T && T->isFunctionType())
      return L; // `#self#::typeof(f)`
    return L;
  }

  std::string trailer() const {
    std::string Out;
    // Arguments first: a non-concrete one is an abstract signature, whose
    // calls on it cannot be resolved until run time.
    for (uint32_t I = 1; I <= C.NumArgs && I < C.SlotTypes.size(); ++I) {
      if (!needsWarning(C.SlotTypes[I]))
        continue;
      if (Out.empty())
        Out = "Non-concrete variables:\n";
      Out += "  " + slotName(I) + "::" + C.SlotTypes[I]->str() +
             "  (argument: the signature is abstract)\n";
    }
    for (uint32_t I = C.NumArgs + 1; I < C.Slots.size() && I < C.SlotTypes.size(); ++I) {
      if (!needsWarning(C.SlotTypes[I]))
        continue;
      if (Out.empty())
        Out = "Non-concrete variables:\n";
      Out += "  " + slotName(I) + "::" + C.SlotTypes[I]->str();
      uint32_t PC = I < C.SlotFirstAssign.size() ? C.SlotFirstAssign[I] : UINT32_MAX;
      if (PC != UINT32_MAX && PC < C.Code.size()) {
        SourceFileRef F = PC < C.StmtFiles.size() && C.StmtFiles[PC] ? C.StmtFiles[PC] : C.File;
        Out += "  (first assigned at " +
               DiagLoc::fromRange(F, C.Code[PC].Range).str() + ")";
      }
      Out += "\n";
    }
    return Out;
  }
};

} // namespace

std::string printTyped(const CodeInstance &CI, const TypedCode &Code,
                       const TypedPrintOptions &Opts) {
  Printer P{CI, Code, Opts};
  if (Opts.WarnType)
    return P.header() + P.print() + P.trailer();
  return "CodeInfo(\n" + P.print() + ") => " + P.typeStr(CI.ReturnType) + "\n";
}

} // namespace prism
