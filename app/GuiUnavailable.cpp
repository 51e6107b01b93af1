// `prism gui` in a build configured with -DPRISM_BUILD_GUI=OFF (the
// sanitizer build): every other command works; this one says why not.
#include "CommandOptions.h"
#include "Commands.h"

#include "llvm/Support/raw_ostream.h"

namespace prism::app {

int runGui(const CommandOptions &) {
  llvm::errs() << "prism: this build has no GUI (configured with "
                  "-DPRISM_BUILD_GUI=OFF)\n";
  return ExitUsage;
}

} // namespace prism::app
