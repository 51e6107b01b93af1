// The cuda worker process and its wire format. These run without a GPU:
// the worker is started for real, with a driver library that does not
// exist, and answers with the reason through the same protocol a GPU
// machine uses.
#include "devices/CudaWorker.h"
#include "devices/DeviceWire.h"

#include "DeviceTestUtil.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace prism;

namespace {

HostValue sampleValue() {
  HostValue A = HostValue::zeros(ScalarKind::Float32, {2, 3});
  A.setElement(4, HostValue::fromDouble(ScalarKind::Float32, -1.5));
  return HostValue::tuple(
      {HostValue::fromInt(ScalarKind::Int8, -3), A,
       HostValue::function("square"), HostValue::type("Float32"), HostValue(),
       HostValue::tuple({HostValue::fromDouble(ScalarKind::Bool, 1)})});
}

CudaDeviceOptions missingDriver() {
  CudaDeviceOptions O;
  O.Library = "libcuda-prism-test-missing.so.1";
  return O;
}

/// A shell script standing in for the worker: it says hello (the magic,
/// driver available) on fd 3, then runs Then.
std::string writePeer(test::TempDir &Dir, llvm::StringRef Name,
                      llvm::StringRef Then) {
  std::string Path =
      Dir.write(Name,
                // The frame's length (12) and attachment count (0) as u64s,
                // then the magic and an empty reason.
                "#!/bin/sh\n"
                "printf '\\014\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0"
                "PPRC\\0\\0\\0\\0\\0\\0\\0\\0' >&3\n" +
                    Then.str());
  EXPECT_FALSE(llvm::sys::fs::setPermissions(
      Path, llvm::sys::fs::all_exe | llvm::sys::fs::owner_all));
  return Path;
}

} // namespace

TEST(DeviceWire, RoundTripsValuesResultsAndDiagnostics) {
  LaunchResult R;
  R.Args = {sampleValue(), HostValue::zeros(ScalarKind::UInt8, {0})};
  R.TimeMs = 0.125;
  R.TimeSource = "cuEventElapsedTime";
  R.Facts = {{"blocks per SM", "8"}};
  Diagnostic D = Diagnostic::error("launch", "BoundsError at map.jl:15", {});
  D.Loc.FileName = "/src/map.jl";
  D.Loc.Line = 15;
  D.Loc.Col = 5;
  D.note("exception kind: BoundsError");
  D.Backtrace.push_back({"map!", D.Loc});

  WireWriter W;
  W.launchResult(R);
  W.diagnostics({D, D});
  WireFrame F = W.frame();
  WireReader In(F);
  LaunchResult R2 = In.launchResult();
  std::vector<Diagnostic> Ds = In.diagnostics();
  ASSERT_FALSE(In.failed());
  EXPECT_TRUE(In.atEnd());
  EXPECT_EQ(R2.Args, R.Args);
  EXPECT_EQ(R2.Args[0].str(), R.Args[0].str());
  EXPECT_EQ(R2.TimeMs, 0.125);
  EXPECT_EQ(R2.TimeSource, R.TimeSource);
  EXPECT_EQ(R2.Facts, R.Facts);
  ASSERT_EQ(Ds.size(), 2u);
  EXPECT_EQ(renderDiagnostic(Ds[1]), renderDiagnostic(D));
  EXPECT_EQ(Ds[1].Backtrace.size(), 1u);
}

TEST(DeviceWire, ALargeArrayTravelsAsAnAttachment) {
  // 1 MiB of Float32: not copied into the message, but attached to it.
  HostValue Big = HostValue::zeros(ScalarKind::Float32, {1 << 18});
  Big.setElement(12345, HostValue::fromDouble(ScalarKind::Float32, 2.5));
  HostValue Small = HostValue::zeros(ScalarKind::Int32, {4});
  // Named: the writer borrows from these, so they must outlive it (an
  // initialiser list of copies would not).
  std::vector<HostValue> Args = {Small, Big, Small, Big};
  WireWriter W;
  W.values(Args);
  W.str("after");
  ASSERT_EQ(W.attachments().size(), 2u);
  EXPECT_EQ(W.attachments()[0].data(), Args[1].bytes().data()) << "not copied";
  EXPECT_EQ(W.attachments()[1].size(), size_t(4) << 18);
  EXPECT_LT(W.inlineBytes().size(), size_t(200));

  WireFrame F = W.frame();
  const uint8_t *Storage = F.Attachments[1].data();
  WireReader In(F);
  std::vector<HostValue> Vs = In.values();
  EXPECT_EQ(In.str(), "after");
  ASSERT_FALSE(In.failed());
  EXPECT_TRUE(In.atEnd());
  ASSERT_EQ(Vs.size(), 4u);
  EXPECT_EQ(Vs[1], Big);
  EXPECT_EQ(Vs[2], Small);
  EXPECT_EQ(Vs[3].bytes().data(), Storage) << "the attachment became the array";

  // Without its attachments the message is malformed, not out of bounds.
  WireFrame Bare = W.frame();
  Bare.Attachments.pop_back();
  WireReader Short(Bare);
  Short.values();
  EXPECT_TRUE(Short.failed());
}

TEST(DeviceWire, AFrameCrossesASocketWithItsBorrowedArrays) {
  int Fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds), 0);
  // 4 MiB: more than a socket buffer holds, so the reader must drain it
  // while the writer is still sending, as the worker and Prism do.
  LaunchResult R;
  R.Args = {HostValue::zeros(ScalarKind::Float32, {1 << 20}),
            HostValue::fromInt(ScalarKind::Int64, 7)};
  R.Args[0].setElement(999999, HostValue::fromDouble(ScalarKind::Float32, -4));
  R.TimeMs = 1.5;
  WireWriter W;
  W.launchResult(R);
  W.str("tail");
  bool Sent = false;
  std::thread Sender([&] {
    Sent = sendWireFrame(Fds[0], W);
    // Then half of a second frame, and the end of the stream.
    uint64_t Claimed = 100;
    EXPECT_EQ(::write(Fds[0], &Claimed, sizeof Claimed),
              ssize_t(sizeof Claimed));
    EXPECT_EQ(::write(Fds[0], "only ten.", 10), 10);
    ::close(Fds[0]);
  });
  WireFrame F;
  ASSERT_TRUE(readWireFrame(Fds[1], F));
  WireReader In(F);
  LaunchResult Got = In.launchResult();
  EXPECT_EQ(In.str(), "tail");
  EXPECT_FALSE(In.failed());
  EXPECT_TRUE(In.atEnd());
  EXPECT_EQ(Got.Args, R.Args);
  EXPECT_EQ(Got.TimeMs, 1.5);
  EXPECT_FALSE(readWireFrame(Fds[1], F)) << "a frame cut short is no frame";
  Sender.join();
  EXPECT_TRUE(Sent);
  ::close(Fds[1]);
}

TEST(DeviceWire, AHostileFrameHeaderIsRefusedBeforeAnyAllocation) {
  // Lengths past the limit, attachments that would wrap the total, and
  // attachments too small to be ones: refused from the header alone
  // (else `new uint8_t[N]` would throw, or a wrapped total pass).
  const uint64_t Huge = ~uint64_t(0);
  std::vector<std::vector<uint64_t>> Headers = {
      {Huge, 0},
      {uint64_t(1) << 40, 0},
      {16, 2, uint64_t(1) << 33, Huge - (uint64_t(1) << 32)},
      {16, 1, 100},
      {16, Huge}};
  for (const std::vector<uint64_t> &H : Headers) {
    int Fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds), 0);
    ASSERT_EQ(::write(Fds[0], H.data(), H.size() * 8), ssize_t(H.size() * 8));
    ::close(Fds[0]);
    WireFrame F;
    EXPECT_FALSE(readWireFrame(Fds[1], F)) << H[0] << ", " << H[1];
    ::close(Fds[1]);
  }
}

TEST(DeviceWire, AShortOrCorruptMessageFailsWithoutCrashing) {
  WireWriter W;
  W.value(sampleValue());
  ASSERT_TRUE(W.attachments().empty());
  const std::vector<uint8_t> Full = W.inlineBytes().vec();
  // Every truncation, and every single-byte corruption of the count fields,
  // reads as a failure or a value, never out of bounds (ASan checks this).
  for (size_t N = 0; N < Full.size(); ++N) {
    WireReader In(llvm::ArrayRef<uint8_t>(Full).take_front(N));
    In.value();
    EXPECT_TRUE(In.failed()) << "truncated to " << N;
  }
  for (size_t I = 0; I < Full.size(); ++I) {
    std::vector<uint8_t> Bad = Full;
    Bad[I] ^= 0xff;
    WireReader In(Bad);
    HostValue V = In.value();
    if (In.failed()) {
      EXPECT_TRUE(V.isNothing());
    }
  }
}

TEST(CudaWorker, AWorkerWithoutADriverAnswersWithTheReason) {
  auto W = CudaWorkerClient::start(missingDriver());
  ASSERT_TRUE(bool(W)) << test::diagText(W.takeError());
  EXPECT_EQ((*W)->unavailableReason().rfind("libcuda-prism-test-missing.so.1 not found", 0),
            0u)
      << (*W)->unavailableReason();
  // A request still gets its answer: the worker's own diagnostic.
  std::string Log;
  auto K = (*W)->load(".version 7.8\n", "saxpy", Log);
  ASSERT_FALSE(bool(K));
  Diagnostic D = test::firstDiag(K.takeError());
  EXPECT_EQ(D.Kind, "device-unavailable");
  EXPECT_NE(D.Message.find("not found"), std::string::npos) << D.Message;
  auto L = (*W)->launch(7, "saxpy", {}, {}, {sampleValue()});
  ASSERT_FALSE(bool(L));
  EXPECT_NE(test::diagText(L.takeError()).find("no kernel 7"), std::string::npos);
  EXPECT_FALSE((*W)->lost());
  // A 1 MiB array goes out from where it lies; the worker reads the whole
  // request (else it would exit and the answer would say so).
  std::vector<HostValue> Big = {
      HostValue::zeros(ScalarKind::Float32, {1 << 18}), sampleValue()};
  L = (*W)->launch(8, "saxpy", {}, {}, Big);
  ASSERT_FALSE(bool(L));
  EXPECT_NE(test::diagText(L.takeError()).find("no kernel 8"),
            std::string::npos);
  EXPECT_FALSE((*W)->lost());
}

TEST(CudaWorker, AMissingOrForeignWorkerIsAReasonNotAHang) {
  CudaDeviceOptions O = missingDriver();
  O.WorkerPath = "/nonexistent/prism-cuda-worker";
  auto W = CudaWorkerClient::start(O);
  ASSERT_FALSE(bool(W));
  Diagnostic D = test::firstDiag(W.takeError());
  EXPECT_EQ(D.Kind, "device-unavailable");
  EXPECT_EQ(D.Message, "cannot find prism-cuda-worker (looked at "
                       "/nonexistent/prism-cuda-worker)");

  auto True = test::findTool("true", {"/bin", "/usr/bin"});
  ASSERT_TRUE(True.has_value());
  O.WorkerPath = *True;
  auto T = CudaWorkerClient::start(O);
  ASSERT_FALSE(bool(T));
  EXPECT_NE(test::diagText(T.takeError()).find("closed its socket (exited with status 0)"),
            std::string::npos);
}

TEST(CudaWorker, ALaunchPastItsTimeoutStopsTheWorker) {
  // A peer that says hello and then never answers, as a worker running a
  // kernel that never ends does (CudaDevice.KernelPastItsTimeout... checks
  // the same with a real kernel on a GPU).
  test::TempDir Dir;
  CudaDeviceOptions O = missingDriver();
  O.WorkerPath = writePeer(Dir, "silent-worker", "exec sleep 30\n");
  O.LaunchTimeoutMs = 300;
  auto W = CudaWorkerClient::start(O);
  ASSERT_TRUE(bool(W)) << test::diagText(W.takeError());
  EXPECT_EQ((*W)->unavailableReason(), "");
  auto L = (*W)->launch(1, "julia_spin", {}, {}, {});
  ASSERT_FALSE(bool(L));
  EXPECT_EQ(
      test::firstDiag(L.takeError()).Message,
      "the launch of `julia_spin` did not finish within 0.3 s: Prism "
      "stopped its cuda worker process, the only way to stop a running kernel");
  EXPECT_TRUE((*W)->lost());
}

TEST(CudaWorker, AWorkerThatDiesDuringALoadIsALoadError) {
  // A peer that says hello, reads one byte of the first request and exits,
  // as a worker whose driver crashes in the JIT would.
  test::TempDir Dir;
  CudaDeviceOptions O = missingDriver();
  O.WorkerPath =
      writePeer(Dir, "dying-worker", "head -c 1 <&3 >/dev/null\nexit 7\n");
  auto W = CudaWorkerClient::start(O);
  ASSERT_TRUE(bool(W)) << test::diagText(W.takeError());
  std::string Log;
  auto K = (*W)->load(".version 7.8\n", "saxpy", Log);
  ASSERT_FALSE(bool(K));
  Diagnostic D = test::firstDiag(K.takeError());
  EXPECT_EQ(D.Kind, "load");
  EXPECT_EQ(D.Message, "the cuda worker process ended during the load of "
                       "`saxpy` (exited with status 7)");
  EXPECT_TRUE((*W)->lost());
  // A lost worker answers at once, without writing to a closed socket.
  auto L = (*W)->launch(1, "saxpy", {}, {}, {});
  ASSERT_FALSE(bool(L));
  EXPECT_EQ(test::firstDiag(L.takeError()).Kind, "launch");
}

TEST(CudaWorker, TheWorkerIsFoundFromTheBuildTree) {
  std::string Looked;
  std::string Path = findCudaWorker({}, Looked);
  ASSERT_FALSE(Path.empty()) << "looked at " << Looked;
  EXPECT_NE(Path.find("prism-cuda-worker"), std::string::npos);
}
