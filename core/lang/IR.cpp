#include "lang/IR.h"
#include "lang/Lexer.h"
#include "lang/LiteralType.h"
#include "types/Method.h"
#include "types/Type.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>

namespace prism {

/// The literal type of a primitive Type*, so that constants print exactly as
/// Julia prints values of that type.
bool litTypeOf(const Type *T, ast::LitType &Out) {
  if (!T)
    return false;
  TypeContext &C = TypeContext::get();
  using ast::LitType;
  const std::pair<Type *, LitType> Table[] = {
      {C.boolTy(), LitType::Bool},     {C.int8(), LitType::Int8},
      {C.int16(), LitType::Int16},     {C.int32(), LitType::Int32},
      {C.int64(), LitType::Int64},     {C.uint8(), LitType::UInt8},
      {C.uint16(), LitType::UInt16},   {C.uint32(), LitType::UInt32},
      {C.uint64(), LitType::UInt64},   {C.float16(), LitType::Float16},
      {C.float32(), LitType::Float32}, {C.float64(), LitType::Float64}};
  for (auto &[Ty, L] : Table)
    if (Ty == T) {
      Out = L;
      return true;
    }
  return false;
}

namespace {

double halfBitsToDouble(uint16_t H) {
  uint32_t Exp = (H >> 10) & 0x1F, Man = H & 0x3FF;
  double V = Exp == 0    ? std::ldexp(double(Man), -24)
             : Exp == 31 ? (Man ? NAN : INFINITY)
                         : std::ldexp(double(Man | 0x400), int(Exp) - 25);
  return (H & 0x8000) ? -V : V;
}

} // namespace

int64_t ConstValue::asSigned() const {
  unsigned W = Ty ? Ty->bitWidth() : 64;
  if (W == 0 || W >= 64)
    return int64_t(Bits);
  uint64_t M = uint64_t(1) << (W - 1);
  uint64_t V = Bits & ((uint64_t(1) << W) - 1);
  return int64_t((V ^ M) - M);
}

double ConstValue::asDouble() const {
  ast::LitType L;
  bool Known = litTypeOf(Ty, L);
  if (K == Float) {
    if (Known && L == ast::LitType::Float32) {
      uint32_t B = uint32_t(Bits);
      float F;
      std::memcpy(&F, &B, 4);
      return F;
    }
    if (Known && L == ast::LitType::Float16)
      return halfBitsToDouble(uint16_t(Bits));
    double D;
    std::memcpy(&D, &Bits, 8);
    return D;
  }
  if (K == Int && Ty && Ty->isUnsignedInt())
    return double(Bits);
  if (K == Int)
    return double(asSigned());
  if (K == Bool)
    return Bits ? 1.0 : 0.0;
  return 0.0;
}

bool operator==(const ConstValue &A, const ConstValue &B) {
  return A.K == B.K && A.Ty == B.Ty && A.Bits == B.Bits &&
         A.TypeValue == B.TypeValue && A.Fn == B.Fn && A.Name == B.Name;
}

std::string ConstValue::str() const {
  switch (K) {
  case Nothing:
    return "nothing";
  case Bool:
    return Bits ? "true" : "false";
  case Int:
  case Float: {
    ast::LitType L;
    if (litTypeOf(Ty, L))
      return formatLiteral(L, Bits);
    return K == Int ? std::to_string(int64_t(Bits))
                    : formatLiteral(ast::LitType::Float64, Bits);
  }
  case TypeVal:
    return TypeValue ? TypeValue->str() : "<type>";
  case Func:
    return Fn ? Fn->Name.string() : "<function>";
  case Sym:
    return ":" + Name.string();
  case Instance:
    // Julia shows an irrational constant by its name: `π`.
    if (std::string_view S = irrationalSymbol(); !S.empty())
      return std::string(S);
    return Ty ? Ty->str() + "()" : "<instance>";
  }
  return "?";
}

std::string_view ConstValue::irrationalSymbol() const {
  if (K != Instance || !Ty || !Ty->isDataType() ||
      Ty->name()->Name.str() != "Irrational" || Ty->params().size() != 1 ||
      !Ty->param(0)->isSymbolValue())
    return {};
  return Ty->param(0)->symbolValue().str();
}

namespace {

bool isOperatorName(std::string_view S) {
  if (S.empty())
    return false;
  if (S == "÷" || S == "⊻" || S == "÷=" || S == "⊻=")
    return true;
  unsigned char C = S[0];
  return C < 0x80 && !std::isalnum(C) && C != '_';
}

} // namespace

std::string globalName(Symbol N) {
  std::string_view S = N.str();
  std::string Mod = builtinByName(S) != Builtin::None ? "Core." : "Main.";
  if (!isOperatorName(S))
    return Mod + std::string(S);
  if (S.find('=') != std::string_view::npos || S.find(':') != std::string_view::npos)
    return Mod + ":(" + std::string(S) + ")";
  return Mod + ":" + std::string(S);
}

std::vector<bool> blockStarts(const std::vector<Stmt> &Code,
                              llvm::function_ref<bool(size_t)> NeverReturns) {
  const size_t N = Code.size();
  std::vector<bool> Starts(N + 1, false);
  Starts[0] = true;
  for (size_t I = 0; I < N; ++I) {
    const Stmt &S = Code[I];
    if (S.K == StmtKind::Goto || S.K == StmtKind::GotoIfNot) {
      Starts[std::min<size_t>(S.Label, N)] = true;
      Starts[I + 1] = true;
    } else if (S.K == StmtKind::Return ||
               (S.K == StmtKind::Call && NeverReturns && NeverReturns(I))) {
      Starts[I + 1] = true;
    }
  }
  return Starts;
}

std::string printLowered(const CodeInfo &CI) {
  const auto &Code = CI.Code;
  // Julia numbers the blocks from 1 in the left gutter.
  std::vector<bool> Starts = blockStarts(Code);
  std::map<uint32_t, uint32_t> BlockOf; // leader index -> block number
  for (uint32_t L = 0; L < Code.size(); ++L)
    if (Starts[L])
      BlockOf.emplace(L, BlockOf.size() + 1);
  auto blockAt = [&](uint32_t Label) {
    auto It = BlockOf.find(Label);
    return It == BlockOf.end() ? BlockOf.size() + 1 : It->second;
  };
  unsigned BW = std::to_string(std::max<size_t>(BlockOf.size(), 1)).size();
  unsigned SW = std::to_string(std::max<size_t>(Code.size(), 1)).size() + 4;

  // A name that several slots share (a loop variable that shadows a local
  // of the function) becomes `i@_N` on each, as Julia prints it.
  std::map<std::string_view, unsigned> NameCount;
  for (const SlotInfo &Slot : CI.Slots)
    ++NameCount[Slot.Name.str()];
  auto val = [&](const IRValue &V) -> std::string {
    switch (V.K) {
    case IRValue::None:
      return "#undef";
    case IRValue::SSA:
      return "%" + std::to_string(V.Index + 1);
    case IRValue::Slot: {
      std::string_view N =
          V.Index < CI.Slots.size() ? CI.Slots[V.Index].Name.str() : "";
      // An unnamed argument (hidden name) prints as Julia's `_2`.
      if (N.empty() || (V.Index > 0 && V.Index <= CI.NumArgs && N[0] == '#'))
        return "_" + std::to_string(V.Index + 1);
      if (N[0] == '#' && N != "#self#")
        return "@_" + std::to_string(V.Index + 1);
      if (NameCount[N] > 1)
        return std::string(N) + "@_" + std::to_string(V.Index + 1);
      return std::string(N);
    }
    case IRValue::StaticParam:
      if (V.Index < CI.StaticParamNames.size() && CI.StaticParamNames[V.Index])
        return CI.StaticParamNames[V.Index].string();
      return "$(Expr(:static_parameter, " + std::to_string(V.Index + 1) + "))";
    case IRValue::Const:
      return V.C.str();
    case IRValue::Global:
      return globalName(V.Name);
    }
    return "?";
  };

  std::string Out = "CodeInfo(\n";
  for (uint32_t I = 0; I < Code.size(); ++I) {
    const Stmt &S = Code[I];
    bool First = BlockOf.count(I);
    bool Last = I + 1 == Code.size() || BlockOf.count(I + 1);
    if (First) {
      std::string B = std::to_string(BlockOf[I]);
      Out += std::string(BW - B.size(), ' ') + B + " ─ ";
    } else if (Last) {
      Out += "└";
      for (unsigned K = 0; K < BW + 1; ++K)
        Out += "─";
      Out += " ";
    } else {
      Out += "│" + std::string(BW + 2, ' ');
    }
    std::string Text;
    if (S.K == StmtKind::Call) {
      std::string Lhs = "%" + std::to_string(I + 1) + " = ";
      Out += std::string(SW - Lhs.size(), ' ') + Lhs;
      const IRValue &Callee = S.Args.empty() ? IRValue() : S.Args[0];
      // As Julia prints it: a global by name, anything else (a local, an
      // argument, `#self#`) in parentheses: `(f)(x)`.
      Text =
          Callee.K == IRValue::Global ? val(Callee) : "(" + val(Callee) + ")";
      Text += "(";
      for (size_t A = 1; A < S.Args.size(); ++A)
        Text += (A > 1 ? ", " : "") + val(S.Args[A]);
      Text += ")";
    } else {
      Out += std::string(SW, ' ');
      switch (S.K) {
      case StmtKind::Assign:
        Text = val(IRValue::slot(S.Slot)) + " = " +
               (S.Args.empty() ? std::string("#undef") : val(S.Args[0]));
        break;
      case StmtKind::Goto:
        Text = "goto #" + std::to_string(blockAt(S.Label));
        break;
      case StmtKind::GotoIfNot:
        Text = "goto #" + std::to_string(blockAt(S.Label)) + " if not " +
               (S.Args.empty() ? std::string("#undef") : val(S.Args[0]));
        break;
      case StmtKind::Return:
        Text = "return " + (S.Args.empty() ? std::string("nothing") : val(S.Args[0]));
        break;
      case StmtKind::NewVar:
        Text = "Core.NewvarNode(:(" + val(IRValue::slot(S.Slot)) + "))";
        break;
      default:
        Text = "nothing";
        break;
      }
    }
    Out += Text + "\n";
  }
  Out += ")";
  return Out;
}

} // namespace prism
