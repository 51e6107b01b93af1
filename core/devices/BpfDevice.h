/// \file
/// The `bpf` device: loads a BPF ELF object into the running kernel as a
/// socket-filter program (the kernel's verifier decides; its log is kept)
/// and runs it on a packet with BPF_PROG_TEST_RUN, all through libbpf.
///
/// The artefact's entry must be a program in its own ELF section (libbpf
/// treats functions in `.text` as subprograms); the program type is set to
/// BPF_PROG_TYPE_SOCKET_FILTER whatever the section is called.
///
/// Needs root or CAP_BPF (plus CAP_NET_ADMIN on some kernels): the device
/// probes by loading `r0 = 0; exit` when constructed and is unavailable,
/// with the errno text, when that fails.
#pragma once

#include "devices/Device.h"

#include <optional>

namespace prism {

std::unique_ptr<Device> createBpfDevice();

/// Where a verifier log says a program was rejected.
struct VerifierRejection {
  std::optional<uint32_t> Insn; ///< index of the offending instruction
  std::string InsnText;         ///< "12: (71) r1 = *(u8 *)(r2 +14)"
  std::string Reason;           ///< "invalid access to packet, off=14 ..."
  std::string SourceFile;       ///< from a BTF line note `; ... @ file:line`
  uint32_t SourceLine = 0;
};

/// Reads the offending instruction and the reason from a verifier log (the
/// kernel prints the path that failed, so the last instruction printed is
/// the offending one).
VerifierRejection parseVerifierLog(llvm::StringRef Log);

} // namespace prism
