/// \file
/// The selected job's figures: wall time and allocations per stage as a bar
/// chart, the cache figures (hits, misses, invalidations, allocations per
/// hit), resource usage (registers, spills, memory, instructions — or why
/// they are unknown), and a short history over recompiles kept per job.
#pragma once

#include "ViewContext.h"

#include "targets/Occupancy.h"

#include <algorithm>
#include <array>
#include <memory>
#include <cfloat>
#include <unordered_map>

namespace prism::views {

/// A fixed-size ring of the last N values (UI state, not data).
template <size_t N> class Ring {
public:
  void push(float V) {
    Values[Next] = V;
    Next = (Next + 1) % N;
    Count = std::min(Count + 1, N);
  }
  size_t size() const { return Count; }
  /// I-th oldest value.
  float at(size_t I) const { return Values[(Next + N - Count + I) % N]; }
  float last() const { return Count ? at(Count - 1) : 0; }
  /// Replaces the newest value (none: pushes V).
  void setLast(float V) {
    if (!Count)
      return push(V);
    Values[(Next + N - 1) % N] = V;
  }
  float max() const {
    float M = 0;
    for (size_t I = 0; I < Count; ++I)
      M = std::max(M, at(I));
    return M;
  }
  float min() const {
    float M = Count ? at(0) : 0;
    for (size_t I = 1; I < Count; ++I)
      M = std::min(M, at(I));
    return M;
  }

private:
  std::array<float, N> Values{};
  size_t Next = 0, Count = 0;
};

class StatsView {
public:
  static constexpr size_t HistoryLen = 64;
  void draw(ViewContext &Ctx, bool *Open);
  void drawContent(ViewContext &Ctx);
  /// Records every job's new reports, selected or not: each frame does,
  /// and the app for a state no frame drew (the one before --then-edit).
  void record(const GuiSnapshot &Snap);
  /// Compile times recorded for a job so far (tests).
  size_t historySize(JobId Id) const {
    auto It = History.find(Id);
    return It == History.end() ? 0 : It->second.CompileMs.size();
  }
  /// The block size of the launch to mark on the occupancy chart (the Run
  /// form's; 0: none).
  void setLaunchThreads(uint64_t N) { LaunchThreads = N; }
  /// Its occupancy, as last drawn (tests).
  const std::optional<Occupancy> &launchOccupancy() const { return AtLaunch; }
  /// Opens the Resources tab on the next frame (`gui --show-resources`).
  void showResources() { SelectResources = true; }
  /// Opens the Cache tab on the next frame (`gui --show-cache`).
  void showCache() { SelectCache = true; }
  /// Opens the History tab on the next frame (`gui --show-history`).
  void showHistory() { SelectHistory = true; }
  /// The occupancy curve the Resources tab last drew, and the block size
  /// under the mouse (0: none) (tests).
  const std::vector<Occupancy> &occupancy() const { return Occ; }
  int hoveredBlockSize() const { return HoveredBlock; }

private:
  struct JobHistory {
    /// Weak, so that a report freed and a new one allocated at the same
    /// address still count as a new compile.
    std::weak_ptr<const JobReport> Last;
    /// JobEntry::Compiles of Last: a later report of the same compile
    /// (ptxas's registers, the cache's figures) updates its entry.
    uint64_t Compile = 0;
    /// Instructions has a point per compile whose count is known (ptxas
    /// reports it after the code); the compile of its newest point.
    uint64_t CountedCompile = 0;
    Ring<HistoryLen> CompileMs, AllocsK, Instructions;
  };
  void drawStages(ViewContext &Ctx, const JobReport &R);
  void drawCache(ViewContext &Ctx, const JobEntry &J, const JobReport &R);
  void drawResources(ViewContext &Ctx, const JobReport &R);
  void drawOccupancy(ViewContext &Ctx, const JobReport &R);
  void drawHistory(ViewContext &Ctx, const JobEntry &J);

  std::unordered_map<JobId, JobHistory> History;
  bool SelectResources = false;
  bool SelectCache = false;
  bool SelectHistory = false;
  /// The occupancy curve of OccFor (recomputed when the report changes).
  std::weak_ptr<const JobReport> OccFor;
  std::vector<Occupancy> Occ;
  std::string OccNote; ///< gcn: why the backend's figure differs, if it does
  uint64_t LaunchThreads = 0, AtLaunchFor = 0;
  std::optional<Occupancy> AtLaunch; ///< of LaunchThreads on OccFor
  int HoveredBlock = 0;
};

/// Sum of the stages' wall time.
double totalWallMs(const JobReport &R);
uint64_t totalAllocs(const JobReport &R);

} // namespace prism::views
