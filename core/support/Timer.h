/// \file
/// A monotonic stage timer, and the measurement every stage records.
#pragma once

#include "support/Allocation.h"

#include <chrono>
#include <cstdint>

namespace prism {

class StageTimer {
public:
  StageTimer() : Start(std::chrono::steady_clock::now()) {}
  double elapsedMs() const {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - Start)
        .count();
  }
  uint64_t elapsedNs() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now() - Start)
        .count();
  }

private:
  std::chrono::steady_clock::time_point Start;
};

/// Wall time and allocations of one stage of a job.
struct StageMeasure {
  double WallMs = 0;
  AllocationStats Allocs;
};

/// Measures a region: wall time plus this thread's allocations.
class StageProbe {
public:
  StageMeasure finish() const { return {Timer.elapsedMs(), Scope.elapsed()}; }

private:
  StageTimer Timer;
  AllocationScope Scope;
};

} // namespace prism
