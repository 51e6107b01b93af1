/// \file
/// The `bpf` target: little-endian eBPF (`bpfel`) for the Linux kernel's
/// verifier, CPU `v3` by default (`--arch v1|v2|v3`, what LLVM 16 knows).
///
/// The language subset is smaller than on GPUs: no floating point, no shared
/// memory, no thread indices or barriers (validation reports each with its
/// source line; see Validator.h), and the stack is limited to 512 bytes
/// (checked on the assembly, see BpfTarget::emitAsm).
///
/// Program ABI, shared with the bpf device (devices/BpfDevice.h) through the
/// object file only. An entry of the socket-filter shape
///
///     f(pkt::Ptr{UInt8}, len::UInt32)::UInt32     (assets/examples/filter.jl)
///
/// (a pointer, optionally an integer length, an integer or Bool result) is
/// compiled into a program `int NAME(struct __sk_buff *skb)` in ELF section
/// "socket" (libbpf's SEC("socket") → BPF_PROG_TYPE_SOCKET_FILTER), where
/// NAME is the entry symbol (`julia_accept_ipv4`), so the device finds the
/// program under the name the compile result reports. The program passes
/// `skb->len` (offset 0 of `__sk_buff`) as `len` and stands in a marker for
/// `pkt`; after inlining, every load through the marker becomes a legacy
/// packet load (`llvm.bpf.load.byte/half/word`, LD_ABS/LD_IND), because the
/// verifier forbids direct packet access in socket filters. Those loads
/// return network (big-endian) order, so 16/32/64-bit loads are byte-swapped
/// back: `unsafe_load(Ptr{UInt16}(pkt), 1)` means the same as on the host.
/// A throw inside the program drops the packet (returns 0). The object also
/// gets a `_license` global in section "license" holding "GPL".
///
/// Any other entry (e.g. `plus_one(::UInt64)`) compiles as an ordinary BPF
/// function in `.text`, which is what `code_bpf` shows.
#pragma once

#include "targets/Target.h"

namespace prism {

/// ELF section of the program (libbpf: BPF_PROG_TYPE_SOCKET_FILTER).
inline constexpr const char *BpfProgramSection = "socket";
/// ELF section and symbol of the license string the kernel checks.
inline constexpr const char *BpfLicenseSection = "license";
inline constexpr const char *BpfLicenseSymbol = "_license";
/// The kernel's stack limit for one BPF program frame.
inline constexpr unsigned BpfStackLimit = 512;

/// The singleton bpf target.
const Target &bpfTarget();

/// The deepest stack slot the assembly addresses (`*(u64 *)(r10 - N)`):
/// the frame size in bytes, 0 when the code uses no stack.
unsigned bpfStackBytes(llvm::StringRef Asm);

} // namespace prism
