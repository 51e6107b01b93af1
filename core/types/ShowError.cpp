#include "types/ShowError.h"

#include "types/Type.h"

namespace prism {

namespace {

/// Fields of a struct, elements of a tuple.
std::span<Type *const> fieldsOf(Type *T) {
  return T->isTuple() ? T->params() : T->fieldTypes();
}

bool isScalar(Type *T) {
  return T && (T->isInteger() || T->isFloat() || T->isBool());
}

bool hasName(Type *T, const char *Name) {
  return T && T->isDataType() && T->name() && T->name()->Name.string() == Name;
}

struct Builder {
  ShowErrorTemplate Out;

  /// A value as `show` writes it (an index: `0x05`), or as `print` does
  /// (what InexactError and DomainError say: `255`, `2.5` for 2.5f0).
  void scalar(std::vector<unsigned> Path, Type *T, bool Print = false) {
    Out.Text += (Print ? "%{print:" : "%{") + T->str() + "}";
    Out.Paths.push_back(std::move(Path));
  }

  /// The scalars of tuple T at Path, comma separated; false if one is not a
  /// scalar.
  bool scalars(const std::vector<unsigned> &Path, Type *T) {
    std::span<Type *const> Elts = fieldsOf(T);
    for (unsigned I = 0; I < Elts.size(); ++I) {
      if (!isScalar(Elts[I]))
        return false;
      if (I)
        Out.Text += ", ";
      std::vector<unsigned> P = Path;
      P.push_back(I);
      scalar(std::move(P), Elts[I]);
    }
    return true;
  }
};

/// Julia's `BoundsError: attempt to access 8-element Vector{Float32} at
/// index [9]`, with DeviceArray's sizes read at run time.
std::optional<ShowErrorTemplate> boundsError(Type *Exc) {
  std::span<Type *const> F = Exc->fieldTypes();
  if (F.size() != 2)
    return std::nullopt;
  Type *A = F[0], *I = F[1];
  Builder B;
  B.Out.Text = "BoundsError: attempt to access ";
  if (hasName(A, "DeviceArray") && A->fieldTypes().size() == 2 &&
      A->fieldTypes()[1]->isTuple()) {
    // `dims` is field 2 of DeviceArray; Julia writes `8-element` for a
    // vector and `4×4` otherwise.
    Type *Dims = A->fieldTypes()[1];
    std::span<Type *const> D = Dims->params();
    for (unsigned K = 0; K < D.size(); ++K) {
      if (!isScalar(D[K]))
        return std::nullopt;
      if (K)
        B.Out.Text += "×";
      B.scalar({0, 1, K}, D[K]);
    }
    B.Out.Text += D.size() == 1 ? "-element " : " ";
  }
  B.Out.Text += A->str();
  if (I->isTuple()) {
    B.Out.Text += " at index [";
    if (!B.scalars({1}, I))
      return std::nullopt;
    B.Out.Text += "]";
  } else if (isScalar(I)) {
    B.Out.Text += " at index [";
    B.scalar({1}, I);
    B.Out.Text += "]";
  }
  return std::move(B.Out);
}

/// Julia's `InexactError: trunc(Int8, 300)`: the prelude's
/// `InexactError{F, To, T}` names the conversion in its parameters
/// (F = :call for `Int32(2.5)`; :none, a kernel's own `InexactError(x)`,
/// shows the value alone).
std::optional<ShowErrorTemplate> inexactError(Type *Exc) {
  std::span<Type *const> P = Exc->params();
  std::span<Type *const> F = Exc->fieldTypes();
  if (P.size() != 3 || F.size() != 1 || !isScalar(F[0]))
    return std::nullopt;
  std::string Fn = P[0]->str(), To = P[1]->str();
  if (Fn.empty() || Fn[0] != ':')
    return std::nullopt;
  Builder B;
  B.Out.Text = Fn == ":none"   ? "InexactError("
               : Fn == ":call" ? "InexactError: " + To + "("
                               : "InexactError: " + Fn.substr(1) + "(" + To + ", ";
  B.scalar({0}, F[0], /*Print=*/Fn != ":none");
  B.Out.Text += ")";
  return std::move(B.Out);
}

/// Julia's `DomainError with -1.0:` and the message Base gives it; the
/// prelude's `DomainError{T, M}` names the message in M.
std::optional<ShowErrorTemplate> domainError(Type *Exc) {
  std::span<Type *const> P = Exc->params();
  std::span<Type *const> F = Exc->fieldTypes();
  if (P.size() != 2 || F.size() != 1 || !isScalar(F[0]))
    return std::nullopt;
  std::string M = P[1]->str();
  Builder B;
  if (M == ":none") { // Julia's showerror of a DomainError without a message
    B.Out.Text = "DomainError with ";
    B.scalar({0}, F[0], /*Print=*/true);
    return std::move(B.Out);
  }
  B.Out.Text = "DomainError with ";
  B.scalar({0}, F[0], /*Print=*/true);
  B.Out.Text += ":\n";
  if (M == ":sqrt" || M == ":log" || M == ":log2" || M == ":log10") {
    std::string Fn = M.substr(1);
    B.Out.Text += Fn +
                  " was called with a negative real argument but will only "
                  "return a complex result if called with a complex "
                  "argument. Try " +
                  Fn + "(Complex(x)).";
  } else if (M == ":asin") {
    B.Out.Text += "asin(x) is not defined for |x| > 1.";
  } else if (M == ":acos") {
    B.Out.Text += "acos(x) not defined for |x| > 1";
  } else if (M == ":log1p") {
    B.Out.Text += "log1p was called with a real argument < -1 but will only "
                  "return a complex result if called with a complex "
                  "argument. Try log1p(Complex(x)).";
  } else if (M == ":exp") {
    B.Out.Text += "Exponentiation yielding a complex result requires a "
                  "complex argument.\nReplace x^y with (x+0im)^y, "
                  "Complex(x)^y, or similar.";
  } else if (M == ":powbysq_float") {
    // Base's throw_domerr_powbysq(::Any, p): a float base.
    B.Out.Text += "Cannot raise an integer x to a negative power ";
    B.scalar({0}, F[0], /*Print=*/true);
    B.Out.Text += ".\nConvert input to float.";
  } else if (M == ":powbysq") {
    // Base's advice, less the forms that need arithmetic on the power.
    B.Out.Text += "Cannot raise an integer x to a negative power ";
    B.scalar({0}, F[0], /*Print=*/true);
    B.Out.Text += ".\nMake x or ";
    B.scalar({0}, F[0], /*Print=*/true);
    B.Out.Text += " a float by adding a zero decimal (e.g., 2.0^";
    B.scalar({0}, F[0], /*Print=*/true);
    B.Out.Text += " instead of 2^";
    B.scalar({0}, F[0], /*Print=*/true);
    B.Out.Text += "), or write float(x)^";
    B.scalar({0}, F[0], /*Print=*/true);
    B.Out.Text += ".";
  } else {
    return std::nullopt;
  }
  return std::move(B.Out);
}

/// Julia's messages for the prelude's `OverflowError{M, T}` (fields a, b).
std::optional<ShowErrorTemplate> overflowError(Type *Exc) {
  std::span<Type *const> P = Exc->params();
  std::span<Type *const> F = Exc->fieldTypes();
  if (P.size() != 2 || F.size() != 2 || !isScalar(F[0]) || !isScalar(F[1]))
    return std::nullopt;
  std::string M = P[0]->str();
  Builder B;
  if (M == ":checked_abs") {
    B.Out.Text =
        "OverflowError: checked arithmetic: cannot compute |x| for x = ";
    B.scalar({0}, F[0], /*Print=*/true);
    B.Out.Text += "::" + F[0]->str();
  } else if (M == ":gcd") {
    B.Out.Text = "OverflowError: gcd(";
    B.scalar({0}, F[0], /*Print=*/true);
    B.Out.Text += ", ";
    B.scalar({1}, F[1], /*Print=*/true);
    B.Out.Text += ") overflows";
  } else {
    return std::nullopt;
  }
  return std::move(B.Out);
}

/// Julia's `error(msg)`: the prelude's `ErrorException{M, A}` names the
/// message in M and the types it mentions in the tuple type A.
std::optional<ShowErrorTemplate> errorException(Type *Exc) {
  std::span<Type *const> P = Exc->params();
  if (P.size() != 2 || !P[1]->isTuple())
    return std::nullopt;
  std::span<Type *const> Types = P[1]->params();
  // Base's no_op_err(name, T): "+ not defined for MyNum".
  static constexpr std::pair<const char *, const char *> NoOps[] = {
      {":no_op_add", "+"}, {":no_op_sub", "-"},   {":no_op_mul", "*"},
      {":no_op_div", "/"}, {":no_op_fma", "fma"}, {":no_op_and", "&"},
      {":no_op_or", "|"},  {":no_op_xor", "xor"}, {":no_op_lt", "<"},
      {":no_op_pow", "^"}};
  for (const auto &[M, Op] : NoOps)
    if (P[0]->str() == M && Types.size() == 1) {
      ShowErrorTemplate T;
      T.Text = std::string(Op) + " not defined for " + Types[0]->str();
      return T;
    }
  if (P[0]->str() != ":promotion" || Types.size() < 2)
    return std::nullopt;
  // Base's sametype_error: `join(types, ", ", " and ")`.
  Builder B;
  B.Out.Text = "promotion of types ";
  for (size_t I = 0; I < Types.size(); ++I) {
    if (I)
      B.Out.Text += I + 1 == Types.size() ? " and " : ", ";
    B.Out.Text += Types[I]->str();
  }
  B.Out.Text += " failed to change any arguments";
  return std::move(B.Out);
}

} // namespace

std::optional<ShowErrorTemplate> showErrorTemplate(Type *Exc) {
  // `throw(3)`: Julia's showerror of a number is the number.
  if (isScalar(Exc)) {
    Builder B;
    B.scalar({}, Exc);
    return std::move(B.Out);
  }
  if (!Exc || !Exc->isDataType() || !Exc->isStruct())
    return std::nullopt;
  std::optional<ShowErrorTemplate> T;
  if (hasName(Exc, "BoundsError")) {
    T = boundsError(Exc);
  } else if (hasName(Exc, "InexactError")) {
    T = inexactError(Exc);
  } else if (hasName(Exc, "DomainError")) {
    T = domainError(Exc);
  } else if (hasName(Exc, "ErrorException")) {
    T = errorException(Exc);
  } else if (hasName(Exc, "OverflowError")) {
    T = overflowError(Exc);
  } else if (!Exc->fieldTypes().empty()) {
    // Julia's `show` of the value: `InexactError(3.5f0)`.
    Builder B;
    B.Out.Text = Exc->name()->Name.string() + "(";
    if (!B.scalars({}, Exc))
      return std::nullopt;
    B.Out.Text += ")";
    T = std::move(B.Out);
  }
  if (T && T->Paths.size() > MaxShowErrorValues)
    return std::nullopt;
  return T;
}

std::string inexactErrorText(std::string_view To, std::string_view Value,
                             bool IntToInt, unsigned FromBits,
                             unsigned ToBits) {
  std::string Call = std::string(To) + ", " + std::string(Value) + ")";
  if (!IntToInt)
    return "InexactError: " + std::string(To) + "(" + std::string(Value) + ")";
  return std::string("InexactError: ") +
         (FromBits > ToBits ? "trunc(" : "check_top_bit(") + Call;
}

std::string undefVarErrorText(std::string_view Name) {
  return "UndefVarError: `" + std::string(Name) + "` not defined in local scope";
}

std::string typeAssertErrorText(std::string_view Expected,
                                std::string_view Got) {
  return "TypeError: in typeassert, expected " + std::string(Expected) +
         ", got a value of type " + std::string(Got);
}

std::string tupleBoundsErrorTemplate(std::string_view Tuple,
                                     std::string_view Index) {
  return "BoundsError: attempt to access " + std::string(Tuple) +
         " at index [%{" + std::string(Index) + "}]";
}

} // namespace prism
