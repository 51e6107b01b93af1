#include "CommandOptions.h"

#include <CLI/CLI.hpp>

namespace prism::app {

void addFileAndSig(CLI::App &Cmd, CommandOptions &O, const char *SigName,
                   const char *SigHelp) {
  Cmd.add_option("FILE", O.File, "kernel-language source file (.jl)")
      ->required();
  Cmd.add_option(SigName, O.Sig, SigHelp)->required();
}

void addTargetOptions(CLI::App &Cmd, CommandOptions &O, bool TargetRequired) {
  auto *T = Cmd.add_option("--target", O.Target,
                           "ptx | gcn | bpf | native (the host)")
                ->check(CLI::IsMember({"ptx", "gcn", "bpf", "native"}));
  if (TargetRequired)
    T->required();
  Cmd.add_option("--arch", O.Arch,
                 "target architecture: sm_75..sm_90 (ptx, default sm_80), "
                 "gfxNNN (gcn, default gfx90a)");
  Cmd.add_flag("--kernel", O.Kernel, "compile as a kernel (default for ptx/gcn)");
  Cmd.add_flag("--no-kernel", O.NoKernel, "compile as a device function");
  Cmd.add_option("--maxthreads", O.MaxThreads, "launch bound: .maxntid");
  Cmd.add_option("--minthreads", O.MinThreads, "launch bound: .reqntid");
  Cmd.add_option("--blocks-per-sm", O.BlocksPerSM, "launch bound: .minnctapersm");
  Cmd.add_option("--maxregs", O.MaxRegs, "launch bound: .maxnreg");
  Cmd.add_flag("--always-inline", O.AlwaysInline, "inline every call");
  for (int L = 0; L <= 3; ++L)
    Cmd.add_flag_callback("-O" + std::to_string(L), [&O, L] { O.OptLevel = L; },
                          "optimisation level " + std::to_string(L) +
                              (L == 2 ? " (default)" : ""));
}

} // namespace prism::app
