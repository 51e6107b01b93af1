// prism_difftest: random programs (ProgramGenerator) run by the reference
// interpreter and by the host device at -O0 and -O2; any disagreement is a
// bug, written out minimised. Exit status 1 on a mismatch, or when too many
// generated programs were not valid tests (a generator that drifted from
// the language would otherwise test nothing).
#include "Differential.h"
#include "ProgramGenerator.h"

#include "CLI/CLI.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

using namespace prism;
using namespace prism::difftest;

int main(int Argc, char **Argv) {
  CLI::App App{"Differential testing: interpreter vs host -O0 vs host -O2"};
  uint64_t First = 1, Count = 200;
  std::string Mode = "mixed", OutDir = ".";
  bool Verbose = false, NoMinimise = false;
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // progress shows as it happens
  double MaxInvalid = 0.10;
  App.add_option("--first", First, "first seed");
  App.add_option("--count", Count, "number of programs");
  App.add_option("--mode", Mode, "scalar | kernel | mixed (alternating)")
      ->check(CLI::IsMember({"scalar", "kernel", "mixed"}));
  App.add_option("--out", OutDir, "directory for minimised reproducers");
  App.add_option("--max-invalid", MaxInvalid,
                 "fail when more than this fraction of programs is not a valid test");
  App.add_flag("--no-minimise", NoMinimise, "write mismatches as generated");
  App.add_flag("-v,--verbose", Verbose, "print every program's verdict");
  CLI11_PARSE(App, Argc, Argv);

  auto Start = std::chrono::steady_clock::now();
  uint64_t Agree = 0, Mismatches = 0, Invalid = 0, Exceptions = 0;
  for (uint64_t Seed = First; Seed < First + Count; ++Seed) {
    GenOptions O;
    O.Kernel = Mode == "kernel" || (Mode == "mixed" && Seed % 2 == 1);
    GeneratedProgram P = generateProgram(Seed, O);
    Dim3 Grid{P.Blocks, 1, 1}, Block{P.Threads, 1, 1};
    Verdict V = runDifferential(P.Source, P.Call, Grid, Block);
    if (Verbose)
      std::printf("seed %llu: %s\n%s", (unsigned long long)Seed,
                  V.K == Verdict::Agree ? "agree" : V.K == Verdict::Invalid ? "invalid" : "MISMATCH",
                  V.K == Verdict::Agree ? "" : V.summary().c_str());
    if (V.K == Verdict::Invalid) {
      ++Invalid;
      continue;
    }
    if (V.K == Verdict::Agree) {
      ++Agree;
      Exceptions += V.Engines.back().second.K == Outcome::Exception;
      continue;
    }
    ++Mismatches;
    std::string Source = NoMinimise ? P.Source : minimise(P.Source, P.Call, Grid, Block);
    Verdict Min = runDifferential(Source, P.Call, Grid, Block);
    std::string Path = OutDir + "/mismatch-" + std::to_string(Seed) + ".jl";
    std::ofstream Out(Path);
    Out << "# differential mismatch, seed " << Seed << "\n# run: " << P.Call
        << " --blocks " << P.Blocks << " --threads " << P.Threads << "\n";
    std::string Summary = Min.summary();
    for (size_t I = 0, J; I < Summary.size(); I = J + 1) {
      J = Summary.find('\n', I);
      if (J == std::string::npos)
        J = Summary.size();
      Out << "#" << Summary.substr(I, J - I) << "\n";
    }
    Out << Source;
    std::printf("MISMATCH seed %llu (reproducer: %s)\n%s", (unsigned long long)Seed,
                Path.c_str(), Min.summary().c_str());
  }
  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  std::printf("%llu programs (seeds %llu..%llu, %s): %llu agree (%llu of them throw), "
              "%llu mismatch, %llu not valid tests; %.1f s\n",
              (unsigned long long)Count, (unsigned long long)First,
              (unsigned long long)(First + Count - 1), Mode.c_str(),
              (unsigned long long)Agree, (unsigned long long)Exceptions,
              (unsigned long long)Mismatches, (unsigned long long)Invalid, Secs);
  if (Mismatches)
    return 1;
  if (Count && double(Invalid) / double(Count) > MaxInvalid) {
    std::printf("too many programs were not valid tests (%.0f%% > %.0f%%): the "
                "generator has drifted from the language\n",
                100.0 * double(Invalid) / double(Count), 100.0 * MaxInvalid);
    return 1;
  }
  return 0;
}
