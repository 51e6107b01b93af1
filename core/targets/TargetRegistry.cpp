// lookupTarget: the name → Target table. A target whose LLVM backend is
// missing is still returned here; the Error comes when its TargetMachine is
// created ("AMDGPU not built into this LLVM"), never a crash.
#include "targets/BpfTarget.h"
#include "targets/GcnTarget.h"
#include "targets/NativeTarget.h"
#include "targets/PtxTarget.h"
#include "targets/Target.h"

#include "support/Diagnostic.h"

namespace prism {

llvm::Expected<const Target *> lookupTarget(llvm::StringRef Name) {
  if (Name == "native" || Name == "host")
    return &nativeTarget();
  if (Name == "ptx")
    return &ptxTarget();
  if (Name == "gcn")
    return &gcnTarget();
  if (Name == "bpf")
    return &bpfTarget();
  return makeDiagError(Diagnostic::error(
      "config",
      "unknown target `" + Name.str() + "` (expected ptx, gcn, bpf or native)",
      {}));
}

} // namespace prism
