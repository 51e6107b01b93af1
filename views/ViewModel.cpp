#include "ViewModel.h"
#include "Signatures.h"

#include <charconv>

namespace prism::views {

const char *jobStatusName(JobStatus S) {
  switch (S) {
  case JobStatus::Queued:
    return "queued";
  case JobStatus::Compiling:
    return "compiling";
  case JobStatus::Ok:
    return "ok";
  case JobStatus::Failed:
    return "failed";
  case JobStatus::Stale:
    return "stale";
  }
  return "?";
}

const char *deviceStateName(DeviceState S) {
  switch (S) {
  case DeviceState::Available:
    return "available";
  case DeviceState::Busy:
    return "busy";
  case DeviceState::Unavailable:
    return "unavailable";
  }
  return "?";
}

const JobEntry *GuiSnapshot::jobOf(const JobSpec &V) const {
  for (const JobEntry &J : Jobs) {
    const JobSpec &W = J.Spec;
    // `fib(Int)` in the file is `fib(Int64)` in the report; a job not
    // compiled yet has only its text.
    bool SameSig = J.Report && !J.Report->Signature.empty()
                       ? J.Report->Signature == V.Signature
                       : sameSignature(W.Signature, V.Signature);
    // The launch block, which the Workspace sets on every ptx job, aside.
    if (SameSig && W.Target == V.Target && W.Arch == V.Arch &&
        W.OptLevel == V.OptLevel && W.Kernel == V.Kernel &&
        W.AlwaysInline == V.AlwaysInline &&
        W.Bounds.MaxThreads == V.Bounds.MaxThreads &&
        W.Bounds.MinThreads == V.Bounds.MinThreads &&
        W.Bounds.BlocksPerSM == V.Bounds.BlocksPerSM &&
        W.Bounds.MaxRegs == V.Bounds.MaxRegs && W.Checks == V.Checks)
      return &J;
  }
  return nullptr;
}

const JobEntry *GuiSnapshot::job(JobId Id) const {
  if (Id == 0)
    return nullptr;
  for (const JobEntry &J : Jobs)
    if (J.Id == Id)
      return &J;
  return nullptr;
}

const char *commandName(const GuiCommand &C) {
  struct Namer {
    const char *operator()(const cmd::SelectJob &) { return "SelectJob"; }
    const char *operator()(const cmd::AddJob &) { return "AddJob"; }
    const char *operator()(const cmd::RemoveJob &) { return "RemoveJob"; }
    const char *operator()(const cmd::Recompile &) { return "Recompile"; }
    const char *operator()(const cmd::EditSource &) { return "EditSource"; }
    const char *operator()(const cmd::OpenFile &) { return "OpenFile"; }
    const char *operator()(const cmd::Save &) { return "Save"; }
    const char *operator()(const cmd::RunOnDevice &) { return "RunOnDevice"; }
    const char *operator()(const cmd::ExportJob &) { return "ExportJob"; }
    const char *operator()(const cmd::SetCheckBounds &) {
      return "SetCheckBounds";
    }
    const char *operator()(const cmd::SetLaunchBlock &) {
      return "SetLaunchBlock";
    }
    const char *operator()(const cmd::ShowJob &) { return "ShowJob"; }
  };
  return std::visit(Namer{}, C);
}

CommandSink::~CommandSink() = default;

std::array<unsigned, 3> launchBlockOf(std::string_view Threads) {
  std::optional<std::array<unsigned, 3>> T = parseDims(Threads);
  if (!T || uint64_t((*T)[0]) * (*T)[1] * (*T)[2] < 2)
    return {0, 0, 0};
  return *T;
}

std::optional<std::array<unsigned, 3>> parseDims(std::string_view Text) {
  std::array<unsigned, 3> Dims{1, 1, 1};
  auto Trim = [](std::string_view S) {
    while (!S.empty() && S.front() == ' ')
      S.remove_prefix(1);
    while (!S.empty() && S.back() == ' ')
      S.remove_suffix(1);
    return S;
  };
  Text = Trim(Text);
  if (Text.empty())
    return std::nullopt;
  for (unsigned I = 0; I < 3; ++I) {
    size_t Comma = Text.find(',');
    std::string_view Part = Trim(Text.substr(0, Comma));
    unsigned V = 0;
    auto [End, EC] = std::from_chars(Part.data(), Part.data() + Part.size(), V);
    if (Part.empty() || EC != std::errc() || End != Part.data() + Part.size() ||
        V == 0)
      return std::nullopt;
    Dims[I] = V;
    if (Comma == std::string_view::npos)
      return Dims;
    Text.remove_prefix(Comma + 1);
  }
  return std::nullopt; // a fourth dimension
}

std::optional<JobStop> jobStop(const JobReport &R,
                               const std::vector<Diagnostic> &FileDiagnostics) {
  if (R.ok())
    return std::nullopt;
  auto Located = [](const Diagnostic &D) {
    return (D.Loc.Line ? std::to_string(D.Loc.Line) + ":" +
                             std::to_string(D.Loc.Col) + ": "
                       : std::string()) +
           D.Message;
  };
  for (size_t I = 0; I < R.Stages.size(); ++I)
    if (!R.Stages[I].Present) {
      JobStop S{I, std::string("in ") + stageName(Stage(I)), {}};
      const Diagnostic *First =
          R.Diagnostics.empty() ? nullptr : &R.Diagnostics[0];
      for (const Diagnostic &D : FileDiagnostics)
        if (D.Sev == Severity::Error) {
          First = &D; // the cause: the job's own errors follow from it
          break;
        }
      if (First && (First->Kind == "parse" || First->Kind == "lowering"))
        S.Where = First->Kind == "parse" ? "while parsing the file"
                                         : "while lowering";
      if (First)
        S.FirstError = Located(*First);
      return S;
    }
  return std::nullopt;
}

} // namespace prism::views
