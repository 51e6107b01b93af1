// The bpf device against the running kernel: programs are compiled for
// real with clang-16 and judged by the kernel's verifier. Skips (with the
// reason) without clang-16 or without permission to load BPF programs.
#include "devices/BpfDevice.h"

#include "DeviceTestUtil.h"

#include <gtest/gtest.h>

using namespace prism;

namespace {

// Only the __sk_buff fields we read: the verifier checks ctx accesses by
// offset, so a prefix of the kernel's struct is enough and keeps the test
// free of kernel headers (which need the host's asm/ include dir).
const char *Prelude = R"(
#define SEC(name) __attribute__((section(name), used))
struct __sk_buff { unsigned len, pkt_type, mark, queue_mapping, protocol; };
static long (*bpf_skb_load_bytes)(const void *skb, unsigned off, void *to,
                                  unsigned len) = (void *)26;
char LICENSE[] SEC("license") = "GPL";
)";

// skb->protocol is the EtherType in network byte order.
const char *FilterSource = R"(
SEC("socket") int accept_ipv4(struct __sk_buff *skb) {
  if (skb->protocol != __builtin_bswap16(0x0800))
    return 0;
  return skb->len;
}
SEC("socket") int first_byte(struct __sk_buff *skb) {
  unsigned char b;
  if (bpf_skb_load_bytes(skb, 0, &b, 1) < 0)
    return -1;
  return b;
}
)";

// Line 4 of this text reads far beyond the context: the verifier rejects it.
const char *RejectedSource = R"(
SEC("socket") int out_of_bounds(struct __sk_buff *skb) {
  unsigned x = skb->len;
  return x + *(volatile unsigned *)((char *)skb + 4000);
}
)";

// A loop the verifier cannot bound.
const char *LoopSource = R"(
SEC("socket") int spin(struct __sk_buff *skb) {
  volatile unsigned n = 0;
  while (skb->len)
    n++;
  return n;
}
)";

class BpfDeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    Clang = test::findTool("clang-16");
    if (!Clang)
      GTEST_SKIP() << "clang-16 not found: cannot compile BPF test programs";
    Dev = createBpfDevice();
    if (!Dev->available())
      GTEST_SKIP() << "bpf device unavailable: " << Dev->unavailableReason();
  }

  /// Compiles C source (after Prelude) to a BPF object; the prelude's lines
  /// are counted so that Line numbers refer to Source.
  DeviceArtefact compile(const char *Name, llvm::StringRef Source,
                         llvm::StringRef Entry) {
    std::string C = Dir.write(std::string(Name) + ".c",
                              (llvm::Twine(Prelude) + "#line 1\n" + Source).str());
    std::string O = Dir.file(std::string(Name) + ".o");
    std::string Out;
    int RC = test::runTool(*Clang, {"-target", "bpf", "-O2", "-g", "-c", C, "-o", O},
                           Dir, Out);
    EXPECT_EQ(RC, 0) << Out;
    DeviceArtefact A;
    A.Target = "bpf";
    A.Entry = Entry.str();
    A.Object = test::readBytes(O);
    return A;
  }

  static HostValue frame(uint16_t EtherType, size_t Len = 60) {
    // Sized to at least the header it writes (short frames are test cases
    // too: ASan found the writes past their end), then cut to Len.
    std::vector<uint8_t> B(std::max<size_t>(Len, 15), 0);
    for (int I = 0; I < 6; ++I)
      B[I] = 0xff, B[6 + I] = 0x02;
    B[12] = EtherType >> 8;
    B[13] = EtherType & 0xff;
    B[14] = 0x45; // IPv4 version/IHL (or ARP hardware type's first byte)
    B.resize(Len);
    return HostValue::array(ScalarKind::UInt8, {int64_t(Len)}, std::move(B));
  }

  std::optional<std::string> Clang;
  std::unique_ptr<Device> Dev;
  test::TempDir Dir;
};

} // namespace

TEST_F(BpfDeviceTest, ReportsItself) {
  EXPECT_EQ(Dev->name(), "bpf");
  EXPECT_EQ(Dev->target(), "bpf");
  EXPECT_NE(Dev->description().find("BPF"), std::string::npos);
  llvm::json::Object O = deviceJSON(*Dev);
  EXPECT_EQ(O.getBoolean("available"), true);
  EXPECT_FALSE(O.get("reason"));
}

TEST_F(BpfDeviceTest, RunsSocketFilterOnIpv4AndArp) {
  DeviceArtefact A = compile("filter", FilterSource, "accept_ipv4");
  std::string Log;
  auto K = Dev->load(A, Log);
  ASSERT_TRUE(bool(K)) << test::diagText(K.takeError());
  EXPECT_NE(Log.find("processed"), std::string::npos) << Log;
  EXPECT_EQ((*K)->log(), Log);
  EXPECT_EQ((*K)->entry(), "accept_ipv4");

  // BPF_PROG_TEST_RUN consumes the Ethernet header (eth_type_trans) before
  // a socket filter runs: skb->len is the frame length minus 14.
  HostValue Len = HostValue::scalar(ScalarKind::UInt32, 60);
  auto R = Dev->launch(**K, {}, {}, {frame(0x0800), Len});
  ASSERT_TRUE(bool(R)) << test::diagText(R.takeError());
  EXPECT_EQ(R->Return.typeName(), "UInt32");
  EXPECT_EQ(R->Return.asUInt(), 46u);
  EXPECT_EQ(R->Args.size(), 2u);
  EXPECT_EQ(R->Args[0], frame(0x0800));
  EXPECT_GE(R->TimeMs, 0.0);

  auto Arp = Dev->launch(**K, {}, {}, {frame(0x0806)});
  ASSERT_TRUE(bool(Arp)) << test::diagText(Arp.takeError());
  EXPECT_EQ(Arp->Return.asUInt(), 0u);
}

TEST_F(BpfDeviceTest, PacketStartsAtTheNetworkHeader) {
  // Documents what a socket filter sees under BPF_PROG_TEST_RUN: offset 0
  // is the first byte after the Ethernet header.
  DeviceArtefact A = compile("first", FilterSource, "first_byte");
  std::string Log;
  auto K = Dev->load(A, Log);
  ASSERT_TRUE(bool(K)) << test::diagText(K.takeError());
  auto R = Dev->launch(**K, {}, {}, {frame(0x0800)});
  ASSERT_TRUE(bool(R)) << test::diagText(R.takeError());
  EXPECT_EQ(R->Return.asUInt(), 0x45u);
}

TEST_F(BpfDeviceTest, VerifierRejectionCarriesLogAndSourceLine) {
  DeviceArtefact A = compile("bad", RejectedSource, "out_of_bounds");
  std::string Log;
  auto K = Dev->load(A, Log);
  ASSERT_FALSE(bool(K));
  Diagnostic D = test::firstDiag(K.takeError());
  EXPECT_EQ(D.Kind, "verifier");
  EXPECT_NE(D.Message.find("rejected `out_of_bounds` at instruction"),
            std::string::npos) << D.Message;
  EXPECT_NE(D.Message.find("invalid bpf_context access"), std::string::npos)
      << D.Message;
  // The BTF line info in the object names the C line.
  EXPECT_EQ(D.Loc.Line, 4u) << Log;
  EXPECT_NE(D.Loc.FileName.find("bad.c"), std::string::npos);
  ASSERT_FALSE(D.Notes.empty());
  EXPECT_NE(D.Notes[0].Message.find("offending instruction: "),
            std::string::npos);
  EXPECT_NE(D.Notes[0].Message.find("+4000)"), std::string::npos)
      << D.Notes[0].Message;
  // The whole log comes back to the caller too.
  EXPECT_NE(Log.find("invalid bpf_context access"), std::string::npos);

  // A caller-supplied line table wins over BTF.
  VerifierRejection R = parseVerifierLog(Log);
  ASSERT_TRUE(R.Insn.has_value());
  DiagLoc Mapped;
  Mapped.FileName = "bad.jl";
  Mapped.Line = 42;
  A.LineTable = {{0, DiagLoc{}}, {*R.Insn, Mapped}};
  A.LineTable[0].Loc.FileName = "bad.jl";
  A.LineTable[0].Loc.Line = 1;
  auto K2 = Dev->load(A, Log);
  ASSERT_FALSE(bool(K2));
  Diagnostic D2 = test::firstDiag(K2.takeError());
  EXPECT_EQ(D2.Loc.FileName, "bad.jl");
  EXPECT_EQ(D2.Loc.Line, 42u);
}

TEST_F(BpfDeviceTest, UnboundedLoopIsRejected) {
  DeviceArtefact A = compile("loop", LoopSource, "spin");
  std::string Log;
  auto K = Dev->load(A, Log);
  ASSERT_FALSE(bool(K));
  Diagnostic D = test::firstDiag(K.takeError());
  EXPECT_EQ(D.Kind, "verifier");
  EXPECT_NE(D.Message.find("at instruction"), std::string::npos) << D.Message;
  EXPECT_FALSE(Log.empty());
}

TEST_F(BpfDeviceTest, BadArgumentsAndArtefactsAreDiagnostics) {
  DeviceArtefact A = compile("filter", FilterSource, "accept_ipv4");
  std::string Log;
  auto K = Dev->load(A, Log);
  ASSERT_TRUE(bool(K)) << test::diagText(K.takeError());
  auto Short = Dev->launch(**K, {}, {}, {frame(0x0800, 10)});
  ASSERT_FALSE(bool(Short));
  EXPECT_NE(test::diagText(Short.takeError()).find("at least 14"), std::string::npos);
  auto NoPacket = Dev->launch(**K, {}, {}, {HostValue::scalar(ScalarKind::UInt32, 1)});
  ASSERT_FALSE(bool(NoPacket));
  EXPECT_NE(test::diagText(NoPacket.takeError()).find("UInt8[...]"), std::string::npos);
  auto Grid = Dev->launch(**K, {2, 1, 1}, {}, {frame(0x0800)});
  EXPECT_FALSE(bool(Grid));
  llvm::consumeError(Grid.takeError());

  DeviceArtefact Missing = A;
  Missing.Entry = "nope";
  auto M = Dev->load(Missing, Log);
  ASSERT_FALSE(bool(M));
  EXPECT_NE(test::diagText(M.takeError()).find("accept_ipv4, first_byte"),
            std::string::npos);

  DeviceArtefact Garbage;
  Garbage.Target = "bpf";
  Garbage.Entry = "x";
  Garbage.Object = {1, 2, 3, 4};
  auto G = Dev->load(Garbage, Log);
  ASSERT_FALSE(bool(G));
  EXPECT_NE(test::diagText(G.takeError()).find("cannot open"), std::string::npos);
}

TEST_F(BpfDeviceTest, NoFileDescriptorLeaks) {
  DeviceArtefact Good = compile("filter", FilterSource, "accept_ipv4");
  DeviceArtefact Bad = compile("bad", RejectedSource, "out_of_bounds");
  DeviceArtefact Garbage;
  Garbage.Target = "bpf";
  Garbage.Entry = "x";
  Garbage.Object = {0x7f, 'E', 'L', 'F'};
  std::string Log;
  auto Cycle = [&] {
    {
      auto K = Dev->load(Good, Log);
      ASSERT_TRUE(bool(K));
      auto R = Dev->launch(**K, {}, {}, {frame(0x0800)});
      ASSERT_TRUE(bool(R));
      auto Short = Dev->launch(**K, {}, {}, {frame(0x0800, 4)});
      llvm::consumeError(Short.takeError());
    }
    llvm::consumeError(Dev->load(Bad, Log).takeError());
    llvm::consumeError(Dev->load(Garbage, Log).takeError());
  };
  Cycle(); // libbpf probes kernel features once; let that settle first
  int Before = test::countOpenFds();
  for (int I = 0; I < 5; ++I)
    Cycle();
  auto Extra = createBpfDevice(); // the probe closes its program too
  EXPECT_EQ(test::countOpenFds(), Before);
}

TEST(BpfVerifierLog, ParsesTheOffendingInstruction) {
  const char *Log = "func#0 @0\n"
                    "0: R1=ctx(off=0,imm=0) R10=fp0\n"
                    "; return *(char *)(p + 99); @ prog.c:7\n"
                    "0: (71) r0 = *(u8 *)(r1 +99)\n"
                    "invalid bpf_context access off=99 size=1\n"
                    "processed 1 insns (limit 1000000) max_states_per_insn 0\n";
  VerifierRejection R = parseVerifierLog(Log);
  ASSERT_TRUE(R.Insn.has_value());
  EXPECT_EQ(*R.Insn, 0u);
  EXPECT_EQ(R.InsnText, "0: (71) r0 = *(u8 *)(r1 +99)");
  EXPECT_EQ(R.Reason, "invalid bpf_context access off=99 size=1");
  EXPECT_EQ(R.SourceFile, "prog.c");
  EXPECT_EQ(R.SourceLine, 7u);

  VerifierRejection Cfg = parseVerifierLog("back-edge from insn 5 to 2\n");
  ASSERT_TRUE(Cfg.Insn.has_value());
  EXPECT_EQ(*Cfg.Insn, 5u);
  EXPECT_EQ(Cfg.Reason, "back-edge from insn 5 to 2");
}
