// The bpf target through the real pipeline: source → inference → LLVM →
// BPF asm and ELF objects, target restrictions as diagnostics with source
// lines, and (where the kernel lets us) the compiled filter.jl loaded with
// libbpf and run with BPF_PROG_TEST_RUN.
#include "core/infer/InferTestUtil.h"

#include "cache/Compiler.h"
#include "targets/BpfTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>

#include <unistd.h>

using namespace prism;

namespace {

class BpfTargetTest : public prism::testing::InferTest {
protected:
  CompileResult compileSig(const std::string &Sig, Stage UpTo = Stage::Asm,
                           const CompileOptions &O = {},
                           const std::string &Arch = "", unsigned Opt = 2) {
    CompilerConfigOptions CO;
    CO.Target = "bpf";
    CO.Arch = Arch;
    CO.OptLevel = Opt;
    auto C = CompilerConfig::create(CO);
    EXPECT_TRUE(!!C) << (C ? "" : prism::testing::renderAll(C.takeError()));
    CompilerJob Job{spec(Sig), *C, Env.currentWorld()};
    return compile(Engine, Job, UpTo, {}, O);
  }

  static std::string diags(const JobReport &R) {
    std::string S;
    for (const Diagnostic &D : R.Diagnostics)
      S += renderDiagnostic(D, {false, false});
    return S;
  }

  static const Diagnostic *findDiag(const JobReport &R, llvm::StringRef Kind,
                                    llvm::StringRef Text) {
    for (const Diagnostic &D : R.Diagnostics)
      if (D.Kind == Kind && llvm::StringRef(D.Message).contains(Text))
        return &D;
    return nullptr;
  }

  /// Section name → contents of an ELF object; fails the test when the
  /// image is not a little-endian BPF ELF relocatable.
  static std::map<std::string, std::string>
  elfSections(const std::vector<uint8_t> &Object,
              std::vector<std::pair<std::string, std::string>> *Symbols = nullptr) {
    std::map<std::string, std::string> Out;
    llvm::StringRef Bytes(reinterpret_cast<const char *>(Object.data()),
                          Object.size());
    auto Obj = llvm::object::ObjectFile::createObjectFile(
        llvm::MemoryBufferRef(Bytes, "obj"));
    if (!Obj) {
      ADD_FAILURE() << llvm::toString(Obj.takeError());
      return Out;
    }
    llvm::object::ObjectFile &O = **Obj;
    EXPECT_TRUE(O.isELF());
    EXPECT_TRUE(O.isRelocatableObject());
    EXPECT_EQ(O.getArch(), llvm::Triple::bpfel);
    for (const llvm::object::SectionRef &S : O.sections()) {
      auto Name = S.getName();
      auto Contents = S.getContents();
      if (Name && Contents)
        Out[Name->str()] = Contents->str();
      else {
        llvm::consumeError(Name.takeError());
        llvm::consumeError(Contents.takeError());
      }
    }
    if (Symbols)
      for (const llvm::object::SymbolRef &Sym : O.symbols()) {
        auto Name = Sym.getName();
        auto Sec = Sym.getSection();
        if (!Name || !Sec || *Sec == O.section_end()) {
          if (!Name)
            llvm::consumeError(Name.takeError());
          if (!Sec)
            llvm::consumeError(Sec.takeError());
          continue;
        }
        auto SecName = (*Sec)->getName();
        Symbols->push_back({Name->str(), SecName ? SecName->str() : ""});
        if (!SecName)
          llvm::consumeError(SecName.takeError());
      }
    return Out;
  }
};

} // namespace

TEST_F(BpfTargetTest, ConfigUsesBpfelAndV3) {
  CompilerConfigOptions CO;
  CO.Target = "bpf";
  auto C = CompilerConfig::create(CO);
  ASSERT_TRUE(!!C) << prism::testing::renderAll(C.takeError());
  EXPECT_EQ((*C)->triple(), "bpfel-unknown-none");
  EXPECT_EQ((*C)->arch(), "v3");
  EXPECT_FALSE((*C)->kernel());
  auto TM = (*C)->targetMachine();
  ASSERT_TRUE(!!TM) << prism::testing::renderAll(TM.takeError());
  // The datalayout is the BPF backend's own, never spelled out by hand.
  EXPECT_EQ((*TM)->createDataLayout().getStringRepresentation(),
            "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128");

  CO.Arch = "v1";
  auto V1 = CompilerConfig::create(CO);
  ASSERT_TRUE(!!V1);
  EXPECT_TRUE(!!(*V1)->targetMachine());

  CO.Arch = "v9";
  auto Bad = CompilerConfig::create(CO);
  ASSERT_FALSE(!!Bad);
  std::string Text = prism::testing::renderAll(Bad.takeError());
  EXPECT_NE(Text.find("unknown BPF CPU `v9`"), std::string::npos) << Text;
  EXPECT_NE(Text.find("v3"), std::string::npos) << Text;
}

TEST_F(BpfTargetTest, PlusOneIsThreeInstructions) {
  loadText("plus.jl", "plus_one(x::UInt64) = x + UInt64(1)\n");
  CompileOptions O;
  O.RawAsm = true;
  CompileResult R = compileSig("plus_one(UInt64)", Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = R.Report->stage(Stage::Asm).Text;
  size_t Mov = Asm.find("r0 = r1");
  size_t Add = Asm.find("r0 += 1", Mov);
  size_t Exit = Asm.find("exit", Add);
  EXPECT_NE(Mov, std::string::npos) << Asm;
  EXPECT_NE(Add, std::string::npos) << Asm;
  EXPECT_NE(Exit, std::string::npos) << Asm;
  EXPECT_NE(Asm.find("julia_plus_one:"), std::string::npos) << Asm;
  // An ordinary function: no program section, no license.
  EXPECT_EQ(Asm.find("\"socket\""), std::string::npos) << Asm;
  EXPECT_EQ(R.Report->Resources.Instructions, 3) << Asm;
  EXPECT_EQ(R.Report->Resources.StackBytes, 0);
}

TEST_F(BpfTargetTest, FloatIsADiagnosticWithTheLine) {
  loadText("fl.jl", "function fl(pkt::Ptr{UInt8}, len::UInt32)\n"
                    "    x = Float32(len) * Float32(2)\n"
                    "    return x > Float32(100) ? len : UInt32(0)\n"
                    "end\n");
  CompileResult R = compileSig("fl(Ptr{UInt8}, UInt32)");
  ASSERT_FALSE(R.ok());
  const Diagnostic *D =
      findDiag(*R.Report, "target-restriction", "floating-point");
  ASSERT_NE(D, nullptr) << diags(*R.Report);
  EXPECT_NE(D->Message.find("bpf"), std::string::npos) << D->Message;
  EXPECT_EQ(D->Loc.Line, 2u) << diags(*R.Report);
  EXPECT_NE(D->Loc.str().find("fl.jl"), std::string::npos) << D->Loc.str();
  // Never a backend error.
  EXPECT_EQ(findDiag(*R.Report, "backend", ""), nullptr) << diags(*R.Report);
}

TEST_F(BpfTargetTest, ThreadIdxIsADiagnostic) {
  loadText("tid.jl", "function tid(x::UInt32)\n"
                     "    return x + UInt32(threadIdx().x)\n"
                     "end\n");
  CompileResult R = compileSig("tid(UInt32)");
  ASSERT_FALSE(R.ok());
  const Diagnostic *D =
      findDiag(*R.Report, "target-restriction", "`threadIdx()`");
  ASSERT_NE(D, nullptr) << diags(*R.Report);
  EXPECT_NE(D->Message.find("bpf"), std::string::npos) << D->Message;
  // The user's line is the diagnostic's location or in its backtrace.
  bool UserLine = D->Loc.Line == 2 && D->Loc.str().find("tid.jl") != std::string::npos;
  for (const BacktraceFrame &F : D->Backtrace)
    UserLine |= F.Loc.Line == 2 && F.Loc.str().find("tid.jl") != std::string::npos;
  EXPECT_TRUE(UserLine) << diags(*R.Report);
  EXPECT_EQ(findDiag(*R.Report, "backend", ""), nullptr) << diags(*R.Report);
}

TEST_F(BpfTargetTest, PacketWritesAreDiagnostics) {
  loadText("w.jl", "function w(pkt::Ptr{UInt8}, len::UInt32)\n"
                   "    unsafe_store!(pkt, UInt8(1), 3)\n"
                   "    return len\n"
                   "end\n");
  CompileResult R = compileSig("w(Ptr{UInt8}, UInt32)");
  ASSERT_FALSE(R.ok());
  const Diagnostic *D =
      findDiag(*R.Report, "target-restriction", "cannot write to the packet");
  ASSERT_NE(D, nullptr) << diags(*R.Report);
  bool UserLine = D->Loc.Line == 2;
  for (const BacktraceFrame &F : D->Backtrace)
    UserLine |= F.Loc.Line == 2 && F.Loc.str().find("w.jl") != std::string::npos;
  EXPECT_TRUE(UserLine) << diags(*R.Report);
}

TEST_F(BpfTargetTest, AtomicsOnPacketDataAreDiagnostics) {
  loadText("a.jl", "function a(pkt::Ptr{UInt32}, len::UInt32)\n"
                   "    atomic_add!(pkt, UInt32(1))\n"
                   "    return len\n"
                   "end\n");
  CompileResult R = compileSig("a(Ptr{UInt32}, UInt32)");
  ASSERT_FALSE(R.ok());
  const Diagnostic *D =
      findDiag(*R.Report, "target-restriction", "atomic operations on packet data");
  ASSERT_NE(D, nullptr) << diags(*R.Report);
  bool UserLine = D->Loc.Line == 2;
  for (const BacktraceFrame &F : D->Backtrace)
    UserLine |= F.Loc.Line == 2 && F.Loc.str().find("a.jl") != std::string::npos;
  EXPECT_TRUE(UserLine) << diags(*R.Report);
}

TEST_F(BpfTargetTest, FilterBecomesASocketProgramWithPacketLoads) {
  loadExample("filter.jl");
  CompileOptions O;
  O.EmitObject = true;
  O.RawAsm = true;
  CompileResult R = compileSig("accept_ipv4(Ptr{UInt8}, UInt32)", Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_EQ(R.EntrySymbol, "julia_accept_ipv4");

  // Optimised IR: legacy packet loads at the 0-based offsets 12 and 13,
  // the length from skb->len, no marker left.
  const std::string &IR = R.Report->stage(Stage::LLVMOpt).Text;
  EXPECT_NE(IR.find("section \"socket\""), std::string::npos) << IR;
  EXPECT_NE(IR.find("@llvm.bpf.load.byte(ptr %skb, i64 12)"), std::string::npos) << IR;
  EXPECT_NE(IR.find("@llvm.bpf.load.byte(ptr %skb, i64 13)"), std::string::npos) << IR;
  EXPECT_EQ(IR.find("prism_bpf_packet"), std::string::npos) << IR;
  EXPECT_NE(IR.find("@_license = global [4 x i8] c\"GPL\\00\", section \"license\""),
            std::string::npos) << IR;

  const std::string &Asm = R.Report->stage(Stage::Asm).Text;
  EXPECT_NE(Asm.find("r0 = *(u8 *)skb[12]"), std::string::npos) << Asm;
  EXPECT_NE(Asm.find("r0 = *(u8 *)skb[13]"), std::string::npos) << Asm;
  EXPECT_NE(Asm.find("julia_accept_ipv4:"), std::string::npos) << Asm;
  ASSERT_TRUE(R.Report->Resources.Instructions.has_value());
  EXPECT_GT(*R.Report->Resources.Instructions, 4);
  EXPECT_LE(R.Report->Resources.StackBytes.value_or(0), int(BpfStackLimit));

  ASSERT_FALSE(R.Object.empty());
  std::vector<std::pair<std::string, std::string>> Symbols;
  auto Sections = elfSections(R.Object, &Symbols);
  ASSERT_TRUE(Sections.count("socket")) << "sections: " << Sections.size();
  EXPECT_FALSE(Sections["socket"].empty());
  ASSERT_TRUE(Sections.count("license"));
  EXPECT_EQ(Sections["license"], std::string("GPL\0", 4));
  bool ProgInSocket = false;
  for (auto &[Name, Sec] : Symbols)
    ProgInSocket |= Name == "julia_accept_ipv4" && Sec == "socket";
  EXPECT_TRUE(ProgInSocket);
}

// The kernel's verdict is a u32: an entry returning more would be cut to
// 32 bits as a program, so it stays a plain function and a warning says why.
TEST_F(BpfTargetTest, WideResultIsAPlainFunctionWithAWarning) {
  loadText("wide.jl", "function wide(pkt::Ptr{UInt8}, len::UInt32)\n"
                      "    return UInt64(len) << 33\n"
                      "end\n"
                      "narrow(pkt::Ptr{UInt8}, len::UInt32) = len % Int32\n");
  CompileResult R = compileSig("wide(Ptr{UInt8}, UInt32)");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &IR = R.Report->stage(Stage::LLVMOpt).Text;
  EXPECT_EQ(IR.find("section \"socket\""), std::string::npos) << IR;
  EXPECT_NE(IR.find("shl i64"), std::string::npos) << IR;
  const Diagnostic *D =
      findDiag(*R.Report, "target-restriction", "returns a 64-bit integer");
  ASSERT_NE(D, nullptr) << diags(*R.Report);
  EXPECT_EQ(D->Sev, Severity::Warning);
  EXPECT_NE(D->Message.find("`wide`"), std::string::npos) << D->Message;
  EXPECT_EQ(D->Loc.Line, 1u);

  CompileResult N = compileSig("narrow(Ptr{UInt8}, UInt32)");
  ASSERT_TRUE(N.ok()) << diags(*N.Report);
  EXPECT_NE(N.Report->stage(Stage::LLVMOpt).Text.find("section \"socket\""),
            std::string::npos);
  EXPECT_TRUE(N.Report->Diagnostics.empty()) << diags(*N.Report);
}

TEST_F(BpfTargetTest, FilterCompilesAtEveryOptLevel) {
  loadExample("filter.jl");
  for (unsigned Opt : {0u, 1u, 3u}) {
    CompileResult R = compileSig("accept_ipv4(Ptr{UInt8}, UInt32)", Stage::Asm,
                                 {}, "", Opt);
    ASSERT_TRUE(R.ok()) << "O" << Opt << "\n" << diags(*R.Report);
    const std::string &IR = R.Report->stage(Stage::LLVMOpt).Text;
    EXPECT_NE(IR.find("@llvm.bpf.load.byte(ptr %skb"), std::string::npos)
        << "O" << Opt << "\n" << IR;
  }
}

TEST_F(BpfTargetTest, WiderPacketLoadsKeepHostByteOrder) {
  // unsafe_load of a UInt16 means little-endian memory order, as on the
  // host; LD_ABS returns network order, so the target swaps it back.
  loadText("w16.jl", "function w16(pkt::Ptr{UInt16}, len::UInt32)\n"
                     "    return UInt32(unsafe_load(pkt, 7))\n"
                     "end\n");
  CompileResult R = compileSig("w16(Ptr{UInt16}, UInt32)");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &IR = R.Report->stage(Stage::LLVMOpt).Text;
  EXPECT_NE(IR.find("@llvm.bpf.load.half(ptr %skb, i64 12)"), std::string::npos) << IR;
  EXPECT_NE(IR.find("@llvm.bswap.i16"), std::string::npos) << IR;
}

TEST_F(BpfTargetTest, LeadingAndTrailingZerosCompile) {
  // LLVM 16's BPF backend selects no ctlz/cttz (it aborted the process);
  // the target rewrites them over ctpop at the end of the pipeline.
  loadText("bits.jl", "lz(pkt::Ptr{UInt8}, len::UInt32)::UInt32 =\n"
                      "    UInt32(leading_zeros(len))\n"
                      "lz8(pkt::Ptr{UInt8}, len::UInt32)::UInt32 =\n"
                      "    UInt32(leading_zeros(len % UInt8))\n"
                      "tz(pkt::Ptr{UInt64}, len::UInt32)::UInt32 =\n"
                      "    UInt32(trailing_zeros(unsafe_load(pkt, 1)))\n");
  for (const char *Sig : {"lz(Ptr{UInt8}, UInt32)", "lz8(Ptr{UInt8}, UInt32)",
                          "tz(Ptr{UInt64}, UInt32)"})
    for (unsigned Opt : {0u, 2u}) {
      CompileResult R = compileSig(Sig, Stage::Asm, {}, "", Opt);
      ASSERT_TRUE(R.ok()) << Sig << " O" << Opt << "\n" << diags(*R.Report);
      const std::string &IR = R.Report->stage(Stage::LLVMOpt).Text;
      EXPECT_EQ(IR.find("@llvm.ctlz"), std::string::npos) << IR;
      EXPECT_EQ(IR.find("@llvm.cttz"), std::string::npos) << IR;
      EXPECT_NE(IR.find("@llvm.ctpop"), std::string::npos) << IR;
    }
}

TEST_F(BpfTargetTest, StackOverTheLimitIsADiagnostic) {
  // A tuple of 80 UInt64 indexed at run time lives in a 640-byte stack slot.
  std::string Src = "function big(pkt::Ptr{UInt8}, len::UInt32)\n"
                    "    x = UInt64(len)\n"
                    "    t = (";
  for (int I = 0; I < 80; ++I)
    Src += (I ? ", x * UInt64(" : "x * UInt64(") + std::to_string(I + 3) + ")";
  Src += ")\n    return UInt32(t[Int(len % UInt32(80)) + 1] % UInt64(1000))\n"
         "end\n";
  loadText("big.jl", Src);
  CompileResult R = compileSig("big(Ptr{UInt8}, UInt32)");
  ASSERT_FALSE(R.ok()) << R.Report->stage(Stage::Asm).Text;
  const Diagnostic *D =
      findDiag(*R.Report, "target-restriction", "stack is limited to 512 bytes");
  ASSERT_NE(D, nullptr) << diags(*R.Report);
  EXPECT_NE(D->Message.find("julia_big"), std::string::npos) << D->Message;
  EXPECT_EQ(D->Loc.Line, 1u) << diags(*R.Report);
  EXPECT_NE(D->Loc.FileName.find("big.jl"), std::string::npos) << D->Loc.FileName;
}

TEST_F(BpfTargetTest, LoopSumsCompile) {
  // IndVarSimplify's closed form of the sum multiplies in 65 bits, which
  // the backend made a call of __multi3 and rejected.
  loadText("tri.jl", "function tri(pkt::Ptr{UInt8}, len::UInt32)::UInt32\n"
                     "    s = 0\n"
                     "    for i in 1:Int(len)\n"
                     "        s += i\n"
                     "    end\n"
                     "    return s > 100000 ? UInt32(1) : UInt32(0)\n"
                     "end\n");
  CompileResult R = compileSig("tri(Ptr{UInt8}, UInt32)");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &IR = R.Report->stage(Stage::LLVMOpt).Text;
  EXPECT_EQ(IR.find("mul i65"), std::string::npos) << IR;
  EXPECT_EQ(R.Report->stage(Stage::Asm).Text.find("__multi3"),
            std::string::npos);
}

TEST_F(BpfTargetTest, BackendErrorsHaveASourcePlace) {
  // BPF passes at most 5 arguments; the backend's error names no
  // instruction, so it is placed at the function's definition (it was
  // `<unknown>:0:0: in function julia_six i64 (i64, ...): ...`).
  loadText("six.jl", "function six(a::UInt64, b::UInt64, c::UInt64,\n"
                     "             d::UInt64, e::UInt64, f::UInt64)\n"
                     "    return a + b + c + d + e + f\n"
                     "end\n");
  CompileResult R =
      compileSig("six(UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)");
  ASSERT_FALSE(R.ok());
  const Diagnostic *D = findDiag(*R.Report, "backend", "too many args");
  ASSERT_NE(D, nullptr) << diags(*R.Report);
  EXPECT_EQ(D->Message.find("in function"), std::string::npos) << D->Message;
  EXPECT_EQ(D->Loc.Line, 1u) << diags(*R.Report);
  EXPECT_NE(D->Loc.FileName.find("six.jl"), std::string::npos)
      << D->Loc.FileName;
}

TEST_F(BpfTargetTest, StackOffsetsAreParsed) {
  EXPECT_EQ(bpfStackBytes("\tr0 = r1\n\texit\n"), 0u);
  EXPECT_EQ(bpfStackBytes("\t*(u64 *)(r10 - 8) = r1\n"
                          "\tr2 = *(u32 *)(r10 - 520)\n"
                          "\t*(u8 *)(r10 - 16) = r3\n"),
            520u);
}

//===----------------------------------------------------------------------===//
// The kernel: load filter.jl's object with libbpf and run it.
//===----------------------------------------------------------------------===//

namespace {

/// libbpf prints to stderr by default; keep its messages for failures.
std::string LibbpfLog;
int captureLibbpf(enum libbpf_print_level, const char *Fmt, va_list Args) {
  char Buf[1024];
  vsnprintf(Buf, sizeof Buf, Fmt, Args);
  LibbpfLog += Buf;
  return 0;
}

/// Why this process cannot load a socket filter, or "" when it can: loads
/// `r0 = 0; exit` as the bpf device does.
std::string bpfUnavailableReason() {
  struct bpf_insn Insns[] = {
      {0xb7, 0, 0, 0, 0}, // r0 = 0
      {0x95, 0, 0, 0, 0}, // exit
  };
  int Fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "probe", "GPL", Insns, 2,
                         nullptr);
  if (Fd >= 0) {
    close(Fd);
    return "";
  }
  return std::string("cannot load a BPF socket filter: ") + strerror(errno);
}

/// An Ethernet frame with `EtherType` at bytes 13..14 (1-based), as a
/// packet socket's filter sees it.
std::vector<uint8_t> frame(uint16_t EtherType, size_t Len = 60) {
  std::vector<uint8_t> B(std::max<size_t>(Len, 15), 0); // then cut to Len
  for (int I = 0; I < 6; ++I)
    B[I] = 0x02, B[6 + I] = 0x04;
  B[12] = EtherType >> 8;
  B[13] = EtherType & 0xff;
  B[14] = 0x45;
  B.resize(Len);
  return B;
}

} // namespace

TEST_F(BpfTargetTest, FilterRunsInTheKernel) {
  std::string Why = bpfUnavailableReason();
  if (!Why.empty())
    GTEST_SKIP() << Why;
  loadExample("filter.jl");
  CompileOptions O;
  O.EmitObject = true;
  CompileResult R = compileSig("accept_ipv4(Ptr{UInt8}, UInt32)", Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);

  LibbpfLog.clear();
  libbpf_print_fn_t Old = libbpf_set_print(captureLibbpf);
  bpf_object_open_opts Opts;
  std::memset(&Opts, 0, sizeof Opts);
  Opts.sz = sizeof Opts;
  Opts.object_name = "accept_ipv4";
  bpf_object *Obj = bpf_object__open_mem(R.Object.data(), R.Object.size(), &Opts);
  ASSERT_NE(Obj, nullptr) << LibbpfLog;
  bpf_program *Prog = bpf_object__find_program_by_name(Obj, "julia_accept_ipv4");
  ASSERT_NE(Prog, nullptr) << LibbpfLog;
  // SEC("socket") is how libbpf knows the type; check it agrees.
  EXPECT_EQ(bpf_program__type(Prog), BPF_PROG_TYPE_SOCKET_FILTER);
  std::vector<char> VerifierLog(1 << 16);
  bpf_program__set_log_buf(Prog, VerifierLog.data(), VerifierLog.size());
  bpf_program__set_log_level(Prog, 1);
  int Err = bpf_object__load(Obj);
  libbpf_set_print(Old);
  ASSERT_EQ(Err, 0) << "verifier:\n" << VerifierLog.data() << "\nlibbpf:\n" << LibbpfLog;
  int Fd = bpf_program__fd(Prog);
  ASSERT_GE(Fd, 0);

  // BPF_PROG_TEST_RUN runs eth_type_trans on the input and starts a socket
  // filter at the network header. A packet socket's filter sees the whole
  // Ethernet frame, which is what filter.jl expects: prepend a 14-byte
  // header for the kernel to consume, so that the program sees the frame.
  auto Run = [&](const std::vector<uint8_t> &Frame) -> std::optional<uint32_t> {
    std::vector<uint8_t> In = frame(0x0800, 14);
    In.insert(In.end(), Frame.begin(), Frame.end());
    LIBBPF_OPTS(bpf_test_run_opts, T, .data_in = In.data(),
                .data_size_in = static_cast<uint32_t>(In.size()), .repeat = 1);
    if (int E = bpf_prog_test_run_opts(Fd, &T)) {
      ADD_FAILURE() << "BPF_PROG_TEST_RUN: " << strerror(-E);
      return std::nullopt;
    }
    return T.retval;
  };
  EXPECT_EQ(Run(frame(0x0800)), std::optional<uint32_t>(60u));
  EXPECT_EQ(Run(frame(0x0800, 98)), std::optional<uint32_t>(98u));
  EXPECT_EQ(Run(frame(0x0806)), std::optional<uint32_t>(0u));
  bpf_object__close(Obj);
}
