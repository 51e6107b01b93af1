/// \file
/// Differential testing: one program, one call, run by the reference
/// interpreter and by the host device at -O0 and -O2; the outcomes must be
/// identical bit for bit (return value, every array after the run, or the
/// exception and its line). Floats compare by their bits, except that any
/// NaN equals any NaN: IEEE leaves NaN payloads and signs to the hardware
/// (x86 produces a negative quiet NaN, LLVM's constant folder a positive one).
#pragma once

#include "devices/Device.h"

#include <string>
#include <vector>

namespace prism::difftest {

/// What one engine made of the call, normalised for comparison.
struct Outcome {
  enum Kind { Ok, Exception, Fault, Rejected } K = Ok;
  std::string Text; ///< Ok: values; Exception: `BoundsError at f.jl:3`; else the message
};

struct Verdict {
  enum Kind {
    Agree,    ///< every engine gave the same outcome
    Mismatch, ///< a compiler (or interpreter) bug
    Invalid,  ///< the program is not a valid test (does not compile, faults)
  } K = Agree;
  std::vector<std::pair<std::string, Outcome>> Engines; ///< name, outcome
  std::string summary() const;
};

/// Runs Source's Call on every engine (fresh program state for each call).
Verdict runDifferential(const std::string &Source, const std::string &Call,
                        Dim3 Grid, Dim3 Block);

/// Removes source lines while the mismatch persists (each removal is kept
/// only if the program still compiles and still disagrees). Returns the
/// smallest source found.
std::string minimise(const std::string &Source, const std::string &Call,
                     Dim3 Grid, Dim3 Block);

} // namespace prism::difftest
