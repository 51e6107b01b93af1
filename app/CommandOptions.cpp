#include "CommandOptions.h"

#include <CLI/CLI.hpp>

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>

namespace prism::app {

void addFileAndSig(CLI::App &Cmd, CommandOptions &O, const char *SigName,
                   const char *SigHelp) {
  Cmd.add_option("FILE", O.File, "kernel-language source file (.jl)")
      ->required();
  Cmd.add_option(SigName, O.Sig, SigHelp)->required();
}

void addCheckBoundsOption(CLI::App &Cmd, const std::string &Name,
                          std::function<void(prism::CheckBounds)> Set,
                          const std::string &Help) {
  Cmd.add_option_function<std::string>(
         Name,
         [Set = std::move(Set)](const std::string &Value) {
           for (prism::CheckBounds Mode : prism::AllCheckBounds)
             if (Value == checkBoundsName(Mode))
               Set(Mode);
         },
         Help)
      ->check(CLI::IsMember({"auto", "yes", "no"}));
}

void addCheckBounds(CLI::App &Cmd, CommandOptions &O) {
  addCheckBoundsOption(
      Cmd, "--check-bounds", [&O](prism::CheckBounds M) { O.Bounds = M; },
      "bounds checks: auto (skipped inside @inbounds, default), "
      "yes (always), no (never), as Julia's --check-bounds");
}

void addDebugInfo(CLI::App &Cmd, CommandOptions &O) {
  Cmd.add_option("--debuginfo", O.DebugInfo,
                 "source (default): line tables, and the output annotated "
                 "with source lines; none: neither (Julia's debuginfo=:none)")
      ->check(CLI::IsMember({"none", "source"}));
}

/// An integer in [Lo, Hi]; says so for `abc` too (CLI::Range would call it
/// "not in range").
static CLI::Validator integerIn(int Lo, int Hi) {
  return CLI::Validator(
      [Lo, Hi](std::string &S) -> std::string {
        int V = 0;
        if (llvm::StringRef(S).trim().getAsInteger(10, V) || V < Lo || V > Hi)
          return "an integer from " + std::to_string(Lo) + " to " +
                 std::to_string(Hi) + ", got " + S;
        return {};
      },
      std::to_string(Lo) + ".." + std::to_string(Hi));
}

void addTargetOptions(CLI::App &Cmd, CommandOptions &O, bool TargetRequired,
                      const char *Default) {
  auto *T = Cmd.add_option("--target", O.Target,
                           std::string("ptx | gcn | bpf | native (the host)") +
                               (TargetRequired ? "" : Default))
                ->check(CLI::IsMember({"ptx", "gcn", "bpf", "native"}));
  if (TargetRequired)
    T->required();
  Cmd.add_option("--arch", O.Arch,
                 "target architecture: sm_75..sm_90 (ptx, default sm_80), "
                 "gfxNNN (gcn, default gfx90a)");
  auto *Kernel = Cmd.add_flag("--kernel", O.Kernel,
                              "compile as a kernel (default for ptx/gcn)");
  Cmd.add_flag("--no-kernel", O.NoKernel, "compile as a device function")
      ->excludes(Kernel);
  // Launch bounds as the hardware allows them (unset when not given); a
  // negative value must not wrap around into a huge unsigned one.
  Cmd.add_option("--maxthreads", O.MaxThreads,
                 "launch bound: .maxntid (1..1024)")
      ->check(integerIn(1, 1024));
  Cmd.add_option("--minthreads", O.MinThreads,
                 "launch bound: .reqntid (1..1024)")
      ->check(integerIn(1, 1024));
  Cmd.add_option("--blocks-per-sm", O.BlocksPerSM,
                 "launch bound: .minnctapersm (1..32)")
      ->check(integerIn(1, 32));
  Cmd.add_option("--maxregs", O.MaxRegs, "launch bound: .maxnreg (1..255)")
      ->check(integerIn(1, 255));
  Cmd.add_flag("--always-inline", O.AlwaysInline, "inline every call");
  // `-O2` is CLI11's short option `-O` with its value attached.
  Cmd.add_option("-O", O.OptLevel, "optimisation level -O0..-O3 (default -O2)")
      ->check(integerIn(0, 3));
  addCheckBounds(Cmd, O);
}

} // namespace prism::app
