/// \file
/// The watched jobs: one row each with its status colour, target, arch,
/// -O level, --check-bounds mode and cache hits; click to select
/// (SelectJob), a context menu to recompile, compare, copy in another
/// --check-bounds mode, export or remove; and the Add job dialog (AddJob).
#pragma once

#include "ViewContext.h"

#include <optional>
#include <string>
#include <vector>

namespace prism::views {

/// The Add job dialog's fields, separate from drawing so that turning them
/// into a command is tested without a window.
struct AddJobForm {
  std::string Signature;
  int TargetIndex = 0; ///< into targets()
  std::string Arch;
  int OptLevel = 2;
  bool Kernel = true;
  bool AlwaysInline = false;
  int ChecksIndex = 0; ///< into AllCheckBounds
  int MaxThreads = 0, MinThreads = 0, BlocksPerSM = 0, MaxRegs = 0;

  static const std::vector<const char *> &targets(); ///< ptx gcn bpf native
  /// The target's default arch, shown as the arch field's hint.
  static const char *defaultArch(std::string_view Target);
  /// Nullopt with Error set when a field is invalid.
  std::optional<cmd::AddJob> toCommand(std::string &Error) const;
};

class JobsView {
public:
  void draw(ViewContext &Ctx, bool *Open);
  void drawContent(ViewContext &Ctx);
  /// Opens the Add job dialog (menu, Ctrl+J), prefilled from the source.
  void openAddDialog() { WantAddDialog = true; }
  /// Compare view's request: which two jobs the user picked in the menu.
  std::optional<std::pair<JobId, JobId>> takeCompareRequest() {
    return std::exchange(CompareRequest, std::nullopt);
  }
  /// Export requests go through the shell's folder dialog.
  JobId takeExportRequest() { return std::exchange(ExportRequest, 0); }
  /// Opens Compare on two jobs, as the context menu's item does.
  void requestCompare(JobId A, JobId B) { CompareRequest = std::make_pair(A, B); }

  AddJobForm Form;

private:
  void drawAddDialog(ViewContext &Ctx);

  bool WantAddDialog = false;
  std::string FormError;
  std::vector<std::string> Suggestions;
  std::optional<std::pair<JobId, JobId>> CompareRequest;
  JobId ExportRequest = 0;
};

} // namespace prism::views
