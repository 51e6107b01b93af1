/// \file
/// Connects the views to the Workspace: panels post GuiCommands here (never
/// blocking), and once a frame the window loop asks for the latest
/// GuiSnapshot, rebuilt from the Workspace's snapshot only when it changed.
/// Editor changes are debounced here so that typing does not start a
/// compile per keystroke.
#pragma once

#include "ViewModel.h"
#include "workspace/Workspace.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace prism::app {

class WorkspaceSession final : public views::CommandSink {
public:
  /// Autosave off: no recovery state is written or offered (headless).
  explicit WorkspaceSession(const std::string &File, bool Autosave = true);
  ~WorkspaceSession() override;

  void post(views::GuiCommand C) override;
  /// The snapshot for the next frame (cheap when nothing changed).
  views::GuiSnapshotRef update();
  /// Blocks until the Workspace is idle (headless screenshots, tests).
  void waitIdle();
  Workspace &workspace() { return *WS; }

private:
  void apply(views::cmd::SelectJob &C);
  void apply(views::cmd::AddJob &C);
  void apply(views::cmd::RemoveJob &C);
  void apply(views::cmd::Recompile &C);
  void apply(views::cmd::EditSource &C);
  void apply(views::cmd::OpenFile &C);
  void apply(views::cmd::Save &C);
  void apply(views::cmd::RunOnDevice &C);
  void apply(views::cmd::ExportJob &C);
  void apply(views::cmd::SetCheckBounds &C);
  void apply(views::cmd::SetLaunchBlock &C);
  void apply(views::cmd::ShowJob &C);
  /// Selects the job of Spec among Jobs' (a snapshot's), or adds it and
  /// selects it once the Workspace lists it.
  void showJob(const views::GuiSnapshot *Jobs, const views::JobSpec &Spec);
  void flushEdit();

  std::unique_ptr<Workspace> WS;
  views::GuiSnapshotRef Published;
  uint64_t SeenVersion = 0, SourceRevision = 0;
  std::string LastSource;
  views::JobId Selected = 0;
  std::string Status;
  std::string RunningCall; ///< `call on device` while a run is queued
  /// The devices of the runs RunningCall names, to read their outcomes.
  std::vector<std::string> RunningDevices;
  /// Devices whose running call's code to show once it is done.
  std::vector<std::string> ShowRunsOf;
  /// A job ShowJob added: selected once the Workspace lists it.
  std::optional<views::JobSpec> PendingShow;
  bool StatusError = false; ///< Status reports a failure
  /// The world a run's status line speaks of (0: not a run's): an edit
  /// after it makes the line stale.
  uint64_t StatusRunWorld = 0;
  void setStatus(std::string Text, bool Error = false) {
    Status = std::move(Text);
    StatusError = Error;
    StatusRunWorld = 0;
  }
  bool UiChanged = true;
  std::optional<std::string> PendingEdit;
  std::chrono::steady_clock::time_point PendingSince;
  std::vector<views::DeviceEntry> Devices;
  std::vector<std::string> Examples;
  std::string HostSummary;
};

} // namespace prism::app
