/// \file
/// The devices (host JIT, Linux BPF VM, CUDA): what each is, or why it is
/// unavailable; a Run form taking a call in `prism run`'s syntax with
/// blocks/threads (RunOnDevice); and each device's last result and log.
#pragma once

#include "ViewContext.h"

#include <string>

namespace prism::views {

/// The Run form's fields; toCommand validates them (tested without a window).
struct RunForm {
  std::string Device = "host";
  std::string Call;
  std::string Blocks = "1", Threads = "1";
  int Seed = 0;
  /// Also run the call on this device ("interp", "host"; empty: no) and
  /// compare the two results.
  std::string CompareWith;
  std::optional<cmd::RunOnDevice> toCommand(JobId Job, std::string &Error) const;
};

/// Two devices' results of the same call, side by side.
struct RunComparison {
  bool Comparable = false; ///< both ran this call (else Detail says why not)
  bool Agree = false;
  std::string Detail; ///< "same return value and arrays", or the first difference
};
RunComparison compareRuns(const std::string &NameA, const RunResult &A,
                          const std::string &NameB, const RunResult &B);

/// A call to prefill the form from a signature:
/// `saxpy!(Float32, DeviceArray{Float32,1})` → `saxpy!(1f0, rand(Float32,
/// 1024))`. Empty when an argument's type is one a call cannot build (a
/// struct): then *Unbuildable, if given, names it.
std::string exampleCall(std::string_view Signature,
                        std::string *Unbuildable = nullptr);

/// The form the file's own `# run:` header suggests for a function
/// (`# run: map!(square, zeros(Float32, 8), collect(Float32, 1:8)) --threads
/// 8`), else its `# run-fails:` line: the call and its --blocks/--threads/
/// --device. None when the header has no such line for that function.
std::optional<RunForm> runHeaderForm(std::string_view Source,
                                     std::string_view Function);

class DevicesView {
public:
  void draw(ViewContext &Ctx, bool *Open);
  void drawContent(ViewContext &Ctx);

  RunForm Form;
  /// Whether the form has been filled for a job (the panel was drawn with
  /// one selected): before, its block is the default, no launch.
  bool formFilled() const { return !PrefilledFor.empty(); }
  /// Fills the form from the command line (`gui --run CALL --threads T`):
  /// the first job's prefill from the file's `# run:` line keeps it.
  void presetForm(RunForm F) {
    Form = std::move(F);
    Preset = true;
  }

private:
  void drawRunForm(ViewContext &Ctx);
  void drawComparison(ViewContext &Ctx);
  std::string FormError;
  std::string PrefilledFor;
  /// Why no call was prefilled (an argument a call cannot build).
  std::string PrefillNote;
  /// The call field's hint while empty: the selected job's function.
  std::string CallHint = "f(…)";
  bool Preset = false;
};

} // namespace prism::views
