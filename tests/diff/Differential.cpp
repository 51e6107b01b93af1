#include "Differential.h"

#include "devices/CallRunner.h"
#include "lang/Parser.h"
#include "types/Loader.h"

#include <cmath>
#include <memory>
#include <optional>
#include <sstream>

namespace prism::difftest {

namespace {

/// A value as comparison text: floats by their bits, every NaN alike.
void valueText(const HostValue &V, std::string &Out) {
  switch (V.kind()) {
  case HostValue::Kind::Nothing: Out += "nothing"; return;
  case HostValue::Kind::Function: Out += V.functionName(); return;
  case HostValue::Kind::Type:
    Out += "Type{" + V.typeValueName() + "}";
    return;
  case HostValue::Kind::Scalar:
    Out += V.typeName() + "(";
    if (isFloatKind(V.scalarKind()) && std::isnan(V.asDouble()))
      Out += "NaN";
    else
      Out += std::to_string(V.bits());
    Out += ")=" + V.str();
    return;
  case HostValue::Kind::Tuple:
    Out += "(";
    for (const HostValue &E : V.elements()) {
      valueText(E, Out);
      Out += ", ";
    }
    Out += ")";
    return;
  case HostValue::Kind::Array:
    Out += V.typeName() + "[";
    for (int64_t I = 0; I < V.numElements(); ++I) {
      valueText(V.element(I), Out);
      Out += ", ";
    }
    Out += "]";
    return;
  }
}

/// The program loaded once for all engines (they share its typed IR: what
/// is compared is everything after inference).
struct LoadedProgram {
  GlobalEnv Env;
  std::unique_ptr<InferenceEngine> Engine;
  std::optional<Outcome> Failure; ///< Rejected when it does not load
};

std::unique_ptr<LoadedProgram> load(const std::string &Source) {
  auto P = std::make_unique<LoadedProgram>();
  Outcome O;
  O.K = Outcome::Rejected;
  if (llvm::Error E = loadPrelude(P->Env)) {
    O.Text = "the prelude does not load";
    llvm::consumeError(std::move(E));
    P->Failure = O;
    return P;
  }
  auto Loaded = loadFile(P->Env, parseFile(SourceFile::create("prog.jl", Source)));
  if (!Loaded) {
    auto Ds = takeDiagnostics(Loaded.takeError());
    O.Text = Ds.empty() ? "load error" : Ds[0].Loc.str() + ": " + Ds[0].Message;
    P->Failure = O;
    return P;
  }
  P->Engine = std::make_unique<InferenceEngine>(P->Env);
  return P;
}

Outcome runOne(LoadedProgram &P, const std::string &Call, Dim3 Grid, Dim3 Block,
               const std::string &Device, unsigned OptLevel) {
  if (P.Failure)
    return *P.Failure;
  Outcome O;
  GlobalEnv &Env = P.Env;
  InferenceEngine &Engine = *P.Engine;
  RunRequest R;
  R.Device = Device;
  R.Call = Call;
  R.Grid = Grid;
  R.Block = Block;
  R.Config.OptLevel = OptLevel;
  RunOutcome Run = runCall(Env, Engine, R);
  if (Run.ok()) {
    valueText(Run.Launch.Return, O.Text);
    for (const HostValue &A : Run.Launch.Args) {
      O.Text += " | ";
      valueText(A, O.Text);
    }
    return O;
  }
  const Diagnostic *D = Run.Diagnostics.empty() ? nullptr : &Run.Diagnostics[0];
  std::string Msg = D ? D->Message : "failed without a diagnostic";
  if (Run.Status == RunStatus::DeviceError && D && D->Kind == "launch") {
    // `BoundsError at prog.jl:3 (thread ...) in `f``: the exception and its
    // line are compared; which thread threw first is the host's scheduling.
    O.K = Msg.rfind("fault", 0) == 0 ? Outcome::Fault : Outcome::Exception;
    O.Text = Msg.substr(0, Msg.find(" ("));
    O.Text = O.Text.substr(0, O.Text.find(" in `"));
    return O;
  }
  O.K = Outcome::Rejected;
  O.Text = (D ? D->Loc.str() + ": " : std::string()) + Msg;
  return O;
}

/// Exceptions agree on their type, and on their line where both name one
/// in the program: unoptimised host code that throws inside a prelude
/// function (not inlined at -O0) can only name the prelude's line, since
/// the runtime sees no caller frame.
bool sameOutcomeText(const Outcome &A, const Outcome &B) {
  if (A.K != Outcome::Exception)
    return A.Text == B.Text;
  auto Split = [](const std::string &T) {
    size_t At = T.find(" at ");
    return std::pair(T.substr(0, At),
                     At == std::string::npos ? std::string() : T.substr(At + 4));
  };
  auto [TA, LA] = Split(A.Text);
  auto [TB, LB] = Split(B.Text);
  if (TA != TB)
    return false;
  bool InProgA = LA.rfind("prog.jl:", 0) == 0, InProgB = LB.rfind("prog.jl:", 0) == 0;
  return !(InProgA && InProgB) || LA == LB;
}

} // namespace

std::string Verdict::summary() const {
  static const char *KindName[] = {"ok", "exception", "fault", "rejected"};
  std::string S;
  for (const auto &[Name, O] : Engines)
    S += "  " + Name + ": " + KindName[O.K] + ": " + O.Text + "\n";
  return S;
}

Verdict runDifferential(const std::string &Source, const std::string &Call,
                        Dim3 Grid, Dim3 Block) {
  Verdict V;
  std::unique_ptr<LoadedProgram> P = load(Source);
  V.Engines.emplace_back("host -O0", runOne(*P, Call, Grid, Block, "host", 0));
  // A program the compiler rejects is not a test (the generator's fault,
  // or a front-end bug that other tests catch).
  if (V.Engines[0].second.K == Outcome::Rejected) {
    V.K = Verdict::Invalid;
    return V;
  }
  V.Engines.emplace_back("host -O2", runOne(*P, Call, Grid, Block, "host", 2));
  V.Engines.emplace_back("interp", runOne(*P, Call, Grid, Block, InterpDeviceName, 0));
  const Outcome &Ref = V.Engines.back().second;
  // A fault in the oracle (an @inbounds access out of range, the step
  // limit) means the program's behaviour is undefined: not a test either.
  if (Ref.K == Outcome::Fault) {
    V.K = Verdict::Invalid;
    return V;
  }
  for (const auto &[Name, O] : V.Engines)
    if (O.K != Ref.K || !sameOutcomeText(O, Ref))
      V.K = Verdict::Mismatch;
  return V;
}

std::string minimise(const std::string &Source, const std::string &Call,
                     Dim3 Grid, Dim3 Block) {
  std::vector<std::string> Lines;
  std::istringstream In(Source);
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  auto Join = [](const std::vector<std::string> &Ls) {
    std::string S;
    for (const std::string &L : Ls)
      S += L + "\n";
    return S;
  };
  // One line at a time, last to first, until a whole pass removes nothing;
  // then pairs (an `if` with its `end`). Bounded: each try is three runs.
  unsigned Budget = 400;
  auto StillFails = [&](const std::vector<std::string> &Try) {
    if (Budget == 0)
      return false;
    --Budget;
    return runDifferential(Join(Try), Call, Grid, Block).K == Verdict::Mismatch;
  };
  bool Changed = true;
  while (Changed && Budget > 0) {
    Changed = false;
    for (size_t I = Lines.size(); I-- > 0;) {
      std::vector<std::string> Try = Lines;
      Try.erase(Try.begin() + I);
      if (StillFails(Try)) {
        Lines = std::move(Try);
        Changed = true;
      }
    }
    for (size_t I = 0; I < Lines.size() && !Changed; ++I)
      for (size_t J = I + 1; J < Lines.size() && J <= I + 30 && !Changed; ++J) {
        std::vector<std::string> Try = Lines;
        Try.erase(Try.begin() + J);
        Try.erase(Try.begin() + I);
        if (StillFails(Try)) {
          Lines = std::move(Try);
          Changed = true;
        }
      }
  }
  return Join(Lines);
}

} // namespace prism::difftest
