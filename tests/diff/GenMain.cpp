//===- GenMain.cpp - prism_gen: print one generated program -------------===//
//
// Usage: prism_gen SEED [--kernel] [--max-stmts N] [--max-helpers N]
// Prints the program's source, then `# call: CALL`, `# threads: N` and
// `# blocks: N` (the launch for `prism run FILE CALL --threads N --blocks N`).
//
//===----------------------------------------------------------------------===//

#include "ProgramGenerator.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int Argc, char **Argv) {
  using namespace prism::difftest;
  GenOptions O;
  const char *SeedArg = nullptr;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--kernel"))
      O.Kernel = true;
    else if (!std::strcmp(Argv[I], "--max-stmts") && I + 1 < Argc)
      O.MaxStmts = (unsigned)std::strtoul(Argv[++I], nullptr, 10);
    else if (!std::strcmp(Argv[I], "--max-helpers") && I + 1 < Argc)
      O.MaxHelpers = (unsigned)std::strtoul(Argv[++I], nullptr, 10);
    else if (!SeedArg && Argv[I][0] != '-')
      SeedArg = Argv[I];
    else {
      std::fprintf(stderr, "usage: prism_gen SEED [--kernel] [--max-stmts N] "
                           "[--max-helpers N]\n");
      return 2;
    }
  }
  if (!SeedArg) {
    std::fprintf(stderr, "usage: prism_gen SEED [--kernel] [--max-stmts N] "
                         "[--max-helpers N]\n");
    return 2;
  }
  uint64_t Seed = std::strtoull(SeedArg, nullptr, 0);
  GeneratedProgram P = generateProgram(Seed, O);
  std::fputs(P.Source.c_str(), stdout);
  std::printf("# call: %s\n# threads: %u\n# blocks: %u\n", P.Call.c_str(),
              P.Threads, P.Blocks);
  return 0;
}
