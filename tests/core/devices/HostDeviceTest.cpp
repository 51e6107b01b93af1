// The host device end to end: the examples compiled for the native target
// through the real pipeline, linked by the JIT and run by the grid runtime.
#include "core/devices/DeviceTestUtil.h"
#include "core/infer/InferTestUtil.h"

#include "cache/Compiler.h"
#include "devices/HostDevice.h"
#include "targets/NativeTarget.h"
#include "types/Type.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

using namespace prism;

namespace {

HostValue f32Array(std::vector<float> V, std::vector<int64_t> Dims) {
  std::vector<uint8_t> Bytes(V.size() * 4);
  std::memcpy(Bytes.data(), V.data(), Bytes.size());
  return HostValue::array(ScalarKind::Float32, std::move(Dims), std::move(Bytes));
}

std::vector<float> floats(const HostValue &A) {
  std::vector<float> V(A.numElements());
  std::memcpy(V.data(), A.bytes().data(), V.size() * 4);
  return V;
}

HostValue f32(float F) {
  uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  return HostValue::scalar(ScalarKind::Float32, Bits);
}

/// A value shaped like T (what RunCommand gives the device as ReturnShape).
HostValue shapeOf(Type *T) {
  if (T->isTuple()) {
    std::vector<HostValue> E;
    for (Type *P : T->params())
      E.push_back(shapeOf(P));
    return HostValue::tuple(std::move(E));
  }
  if (auto K = scalarKindFromName(T->str()))
    return HostValue::scalar(*K, 0);
  return HostValue();
}

class HostDeviceTest : public prism::testing::InferTest {
protected:
  static Device &device() {
    static std::unique_ptr<Device> D = createHostDevice();
    return *D;
  }

  /// Compiles Sig of the loaded program for the native target and loads it.
  std::unique_ptr<LoadedKernel> load(const std::string &Sig) {
    CompilerConfigOptions CO;
    CO.Target = "native";
    CO.Kernel = false;
    auto C = CompilerConfig::create(CO);
    EXPECT_TRUE(!!C);
    if (!C) {
      llvm::consumeError(C.takeError());
      return nullptr;
    }
    CompilerJob Job{spec(Sig), *C, Env.currentWorld()};
    CompileOptions Opts;
    Opts.EmitObject = true;
    CompileResult R = compile(Engine, Job, Stage::Asm, {}, Opts);
    if (!R.ok()) {
      std::string S;
      for (const Diagnostic &D : R.Report->Diagnostics)
        S += renderDiagnostic(D, {false, false});
      ADD_FAILURE() << Sig << " does not compile:\n" << S;
      return nullptr;
    }
    DeviceArtefact A;
    A.Target = "native";
    A.Entry = R.EntrySymbol;
    A.Object = R.Object;
    A.SharedBytes = R.SharedBytes;
    EXPECT_EQ(R.LaunchSymbol, nativeLaunchSymbol(R.EntrySymbol));
    CodeInstance *CI = infer(Sig);
    if (CI && CI->ReturnType)
      A.ReturnShape = shapeOf(CI->ReturnType);
    std::string Log;
    auto K = device().load(A, Log);
    if (!K) {
      ADD_FAILURE() << "load of " << Sig << " failed:\n"
                    << test::diagText(K.takeError());
      return nullptr;
    }
    return std::move(*K);
  }

  LaunchResult run(LoadedKernel &K, Dim3 Grid, Dim3 Block,
                   std::vector<HostValue> Args) {
    auto R = device().launch(K, Grid, Block, Args);
    if (!R) {
      ADD_FAILURE() << "launch failed:\n" << test::diagText(R.takeError());
      return {};
    }
    return std::move(*R);
  }
};

const char *SaxpySig =
    "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";

TEST_F(HostDeviceTest, DeviceDescribesTheHost) {
  EXPECT_EQ(device().name(), "host");
  EXPECT_EQ(device().target(), "native");
  EXPECT_TRUE(device().available());
  EXPECT_FALSE(device().description().empty());
}

TEST_F(HostDeviceTest, Saxpy) {
  loadExample("saxpy.jl");
  auto K = load(SaxpySig);
  ASSERT_TRUE(K);
  LaunchResult R = run(*K, {4, 1, 1}, {256, 1, 1},
                       {f32(2.0f), f32Array(std::vector<float>(1000, 1.0f), {1000}),
                        f32Array(std::vector<float>(1000, 1.0f), {1000})});
  ASSERT_EQ(R.Args.size(), 3u);
  std::vector<float> Y = floats(R.Args[2]);
  ASSERT_EQ(Y.size(), 1000u);
  for (size_t I = 0; I < Y.size(); ++I)
    ASSERT_EQ(Y[I], 3.0f) << "y[" << I + 1 << "]";
  // x is untouched, and the return of a kernel is nothing.
  EXPECT_EQ(floats(R.Args[1]), std::vector<float>(1000, 1.0f));
  EXPECT_TRUE(R.Return.isNothing());
  EXPECT_GE(R.TimeMs, 0.0);
}

// The block loop is split at each guard (GuardSplitPass); wherever a guard
// flips (before a block, inside one, after the grid, never), exactly the
// threads in the window write.
TEST_F(HostDeviceTest, GuardsFlippingAnywhereInTheGridSelectTheRightThreads) {
  loadText("window.jl",
           R"(function window!(out::DeviceArray{Float32,1}, lo::Int, hi::Int)
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i > lo
        if hi >= i
            if i <= length(out)
                @inbounds out[i] = 1.0f0
            end
        end
    end
    return nothing
end
)");
  auto K = load("window!(DeviceArray{Float32,1}, Int64, Int64)");
  ASSERT_TRUE(K);
  const int64_t N = 150; // 3 blocks of 64 threads: the last one part-empty
  for (int64_t Lo : {-5, 0, 1, 63, 64, 100, 150, 300})
    for (int64_t Hi : {-1, 0, 1, 64, 65, 149, 150, 192, 500}) {
      LaunchResult R = run(*K, {3, 1, 1}, {64, 1, 1},
                           {HostValue::zeros(ScalarKind::Float32, {N}),
                            HostValue::fromInt(ScalarKind::Int64, Lo),
                            HostValue::fromInt(ScalarKind::Int64, Hi)});
      ASSERT_EQ(R.Args.size(), 3u);
      std::vector<float> Out = floats(R.Args[0]);
      for (int64_t I = 1; I <= N; ++I)
        ASSERT_EQ(Out[I - 1], I > Lo && I <= Hi ? 1.0f : 0.0f)
            << "out[" << I << "], lo " << Lo << ", hi " << Hi;
    }
}

TEST_F(HostDeviceTest, BlockSumSynchronisesThreads) {
  loadExample("reduce.jl");
  auto K = load("block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(K);
  for (int Rep = 0; Rep < 3; ++Rep) { // fiber stacks are reused
    LaunchResult R = run(*K, {4, 1, 1}, {256, 1, 1},
                         {f32Array({0, 0, 0, 0}, {4}),
                          f32Array(std::vector<float>(1000, 1.0f), {1000})});
    ASSERT_EQ(R.Args.size(), 2u);
    EXPECT_EQ(floats(R.Args[0]), (std::vector<float>{256, 256, 256, 232}));
    if (Rep == 2)
      std::printf("block_sum! 4x256 (fibers, 9 barriers), warm: %.3f ms\n",
                  R.TimeMs);
  }
}

TEST_F(HostDeviceTest, FirstFiberLaunchReportsItsSetup) {
  loadExample("reduce.jl");
  auto K = load("block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(K);
  // One block runs on the launching thread: a fresh thread has no fiber
  // stacks yet, so its first launch creates exactly one per thread.
  std::vector<LaunchResult> Rs;
  std::thread([&] {
    for (int Rep = 0; Rep < 2; ++Rep)
      Rs.push_back(run(*K, {1, 1, 1}, {128, 1, 1},
                       {f32Array({0}, {1}), f32Array(std::vector<float>(128, 1.0f), {128})}));
  }).join();
  ASSERT_EQ(Rs.size(), 2u);
  ASSERT_EQ(Rs[0].Args.size(), 2u);
  EXPECT_EQ(floats(Rs[0].Args[0]), std::vector<float>{128});
  EXPECT_EQ(Rs[0].Setup, "creating 128 fiber stacks, once per worker thread");
  EXPECT_GT(Rs[0].SetupMs, 0.0);
  EXPECT_LE(Rs[0].SetupMs, Rs[0].TimeMs);
  EXPECT_NE(setupNote(Rs[0]).find(" ms of it creating 128 fiber stacks"),
            std::string::npos)
      << setupNote(Rs[0]);
  // The second reuses them.
  EXPECT_EQ(Rs[1].Setup, "");
  EXPECT_EQ(Rs[1].SetupMs, 0.0);
  EXPECT_EQ(setupNote(Rs[1]), "");
}

TEST_F(HostDeviceTest, MapWithAFunctionArgument) {
  loadExample("map.jl");
  auto K = load("map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(K);
  LaunchResult R = run(*K, {1, 1, 1}, {8, 1, 1},
                       {HostValue::function("square"),
                        f32Array(std::vector<float>(8, 0.0f), {8}),
                        f32Array({1, 2, 3, 4, 5, 6, 7, 8}, {8})});
  ASSERT_EQ(R.Args.size(), 3u);
  EXPECT_EQ(floats(R.Args[1]),
            (std::vector<float>{1, 4, 9, 16, 25, 36, 49, 64}));
}

/// C = A * B for N×N column-major matrices of small integers (every product
/// and partial sum is exact in Float32, so the summation order is free).
struct MatmulCase {
  static constexpr int N = 32;
  std::vector<float> A, B, Ref;
  MatmulCase() : A(N * N), B(N * N), Ref(N * N, 0.0f) {
    for (int I = 0; I < N * N; ++I) {
      A[I] = float((I * 7) % 5) - 2;
      B[I] = float((I * 3) % 7) - 3;
    }
    for (int Col = 0; Col < N; ++Col)
      for (int Row = 0; Row < N; ++Row)
        for (int K = 0; K < N; ++K)
          Ref[Col * N + Row] += A[K * N + Row] * B[Col * N + K];
  }
};

// matmul.jl as written: two CuStaticSharedArray tiles, which must not alias.
TEST_F(HostDeviceTest, MatmulMatchesAReference) {
  loadExample("matmul.jl");
  auto K = load("matmul!(DeviceArray{Float32,2}, DeviceArray{Float32,2}, "
                "DeviceArray{Float32,2})");
  ASSERT_TRUE(K);
  MatmulCase M;
  const int N = MatmulCase::N;
  LaunchResult R = run(*K, {2, 2, 1}, {16, 16, 1},
                       {f32Array(std::vector<float>(N * N, 0.0f), {N, N}),
                        f32Array(M.A, {N, N}), f32Array(M.B, {N, N})});
  ASSERT_EQ(R.Args.size(), 3u);
  EXPECT_EQ(floats(R.Args[0]), M.Ref);
}

TEST_F(HostDeviceTest, TiledMatmulOverA2DGrid) {
  // matmul.jl with both tiles in one shared array (see above).
  loadText("tiled.jl", R"(
function tiled!(C::DeviceArray{Float32,2}, A::DeviceArray{Float32,2}, B::DeviceArray{Float32,2})
    TILE = 16
    S = CuStaticSharedArray(Float32, 512)
    tx = threadIdx().x
    ty = threadIdx().y
    row = (blockIdx().y - 1) * TILE + ty
    col = (blockIdx().x - 1) * TILE + tx
    n = size(A, 1)
    acc = 0.0f0
    for t in 0:(n ÷ TILE - 1)
        @inbounds S[(tx - 1) * TILE + ty] = A[row, t * TILE + tx]
        @inbounds S[256 + (tx - 1) * TILE + ty] = B[t * TILE + ty, col]
        sync_threads()
        for k in 1:TILE
            @inbounds acc += S[(k - 1) * TILE + ty] * S[256 + (tx - 1) * TILE + k]
        end
        sync_threads()
    end
    @inbounds C[row, col] = acc
    return nothing
end
)");
  auto K = load("tiled!(DeviceArray{Float32,2}, DeviceArray{Float32,2}, "
                "DeviceArray{Float32,2})");
  ASSERT_TRUE(K);
  MatmulCase M;
  const int N = MatmulCase::N;
  LaunchResult R = run(*K, {2, 2, 1}, {16, 16, 1},
                       {f32Array(std::vector<float>(N * N, 0.0f), {N, N}),
                        f32Array(M.A, {N, N}), f32Array(M.B, {N, N})});
  ASSERT_EQ(R.Args.size(), 3u);
  EXPECT_EQ(floats(R.Args[0]), M.Ref);
}

TEST_F(HostDeviceTest, OrdinaryFunctionsReturnValues) {
  loadExample("loops.jl");
  auto Fib = load("fib(Int)");
  ASSERT_TRUE(Fib);
  LaunchResult R = run(*Fib, {}, {}, {HostValue::fromInt(ScalarKind::Int64, 20)});
  EXPECT_EQ(R.Return, HostValue::fromInt(ScalarKind::Int64, 6765));

  auto Sum = load("sum_to(Int)");
  ASSERT_TRUE(Sum);
  int64_t Expected = 0;
  for (int64_t I = 1; I <= 100; ++I)
    if (I % 3 != 0)
      Expected += I;
  R = run(*Sum, {}, {}, {HostValue::fromInt(ScalarKind::Int64, 100)});
  EXPECT_EQ(R.Return, HostValue::fromInt(ScalarKind::Int64, Expected));
}

// Over a grid, an ordinary function's value is thread (1,1,1) of block
// (1,1,1)'s, as the interpreter reports it, whatever order the blocks and
// threads run in; with and without barriers (fibers).
TEST_F(HostDeviceTest, AGridCallReturnsTheFirstThreadsValue) {
  loadText("where.jl",
           "where_am_i(k::Int32) = k * (threadIdx().x + Int32(10) * blockIdx().x)\n"
           "function where_synced(k::Int32)\n"
           "    sync_threads()\n"
           "    return k * (threadIdx().x + Int32(10) * blockIdx().x)\n"
           "end\n");
  for (const char *Sig : {"where_am_i(Int32)", "where_synced(Int32)"}) {
    auto K = load(Sig);
    ASSERT_TRUE(K) << Sig;
    for (Dim3 Grid : {Dim3{1, 1, 1}, Dim3{7, 1, 1}, Dim3{3, 2, 2}}) {
      LaunchResult R = run(*K, Grid, {4, 2, 1},
                           {HostValue::fromInt(ScalarKind::Int32, 3)});
      EXPECT_EQ(R.Return, HostValue::fromInt(ScalarKind::Int32, 3 * 11))
          << Sig << " over " << Grid.X << "x" << Grid.Y << "x" << Grid.Z
          << " blocks: " << R.Return.str();
    }
  }
}

// cos(10.5f0) lies almost halfway between two Float32s: LLVM's constant
// folder and glibc's cosf pick different ones. Compiled code must give what
// the run-time libm gives, whether the argument is a constant or not
// (differential seed 50145): glibc's double cos rounded to Float32, as
// Julia computes a Float32 cos in Float64 (the correctly rounded
// -0.47553694f0; cosf says -0.4755369f0).
TEST_F(HostDeviceTest, MathOnConstantsIsNotFoldedByTheCompiler) {
  loadText("libm.jl", "c() = cos(10.5f0)\n"
                      "cx(x::Float32) = cos(x)\n");
  auto C = load("c()");
  auto Cx = load("cx(Float32)");
  ASSERT_TRUE(C && Cx);
  volatile double Arg = 10.5;
  float Expected = static_cast<float>(std::cos(Arg));
  LaunchResult R = run(*C, {}, {}, {});
  EXPECT_EQ(R.Return, f32(Expected)) << R.Return.str();
  R = run(*Cx, {}, {}, {f32(10.5f)});
  EXPECT_EQ(R.Return, f32(Expected)) << R.Return.str();
}

// An @inbounds write just outside an array faults nothing: it lands in a
// guard zone (it corrupted the heap, and the process died later) and is the
// launch's error; the next launch runs as usual.
TEST_F(HostDeviceTest, WritesJustOutsideAnArrayAreReported) {
  loadText("guard.jl", "function w(a::DeviceArray{Int8,1}, j::Int64)\n"
                       "    @inbounds a[j] = Int8(-2)\n"
                       "    return nothing\nend\n");
  auto K = load("w(DeviceArray{Int8,1}, Int64)");
  ASSERT_TRUE(K);
  auto Arr = [] {
    return HostValue::array(ScalarKind::Int8, {7}, std::vector<uint8_t>(7, 1));
  };
  for (auto [J, Want] : {std::pair{-8, "index -8 of argument 1, which has 7"},
                         std::pair{0, "index 0 of argument 1"},
                         std::pair{9, "index 9 of argument 1"}}) {
    std::vector<HostValue> Args{Arr(),
                                HostValue::fromInt(ScalarKind::Int64, J)};
    auto R = device().launch(*K, {}, {}, Args);
    ASSERT_FALSE(static_cast<bool>(R)) << J;
    std::string Msg = test::diagText(R.takeError());
    EXPECT_NE(Msg.find(Want), std::string::npos) << Msg;
  }
  LaunchResult R =
      run(*K, {}, {}, {Arr(), HostValue::fromInt(ScalarKind::Int64, 3)});
  EXPECT_EQ(R.Args[0].str(), "Int8[1, 1, -2, 1, 1, 1, 1]");
}

TEST_F(HostDeviceTest, TuplesAndBoolsRoundTrip) {
  loadText("tuples.jl", "swap(t::Tuple{Int32,Float64}) = (t[2] * 2.0, t[1] + Int32(1), t[1] > Int32(0))\n");
  auto K = load("swap(Tuple{Int32,Float64})");
  ASSERT_TRUE(K);
  double D = 1.25;
  uint64_t DBits;
  std::memcpy(&DBits, &D, 8);
  LaunchResult R = run(*K, {}, {}, {HostValue::tuple(
      {HostValue::fromInt(ScalarKind::Int32, 41),
       HostValue::scalar(ScalarKind::Float64, DBits)})});
  ASSERT_TRUE(R.Return.isTuple()) << R.Return.str();
  ASSERT_EQ(R.Return.elements().size(), 3u);
  EXPECT_EQ(R.Return.elements()[0].asDouble(), 2.5);
  EXPECT_EQ(R.Return.elements()[1].asInt(), 42);
  EXPECT_EQ(R.Return.elements()[2].asInt(), 1);
}

TEST_F(HostDeviceTest, BoundsErrorFailsTheLaunchAndTheDeviceSurvives) {
  loadExample("exceptions.jl");
  loadExample("saxpy.jl");
  auto Shift = load("shift!(DeviceArray{Float32,1})");
  ASSERT_TRUE(Shift);
  auto R = device().launch(*Shift, {}, {8, 1, 1},
                           {f32Array(std::vector<float>(8, 1.0f), {8})});
  ASSERT_FALSE(R);
  Diagnostic D = test::firstDiag(R.takeError());
  EXPECT_EQ(D.Kind, "launch");
  EXPECT_NE(D.Message.find("BoundsError at exceptions.jl:13"), std::string::npos)
      << D.Message;
  EXPECT_NE(D.Message.find("thread (8, 1, 1)"), std::string::npos) << D.Message;
  EXPECT_EQ(D.Loc.Line, 13u);
  EXPECT_NE(llvm::StringRef(D.Loc.FileName).find("exceptions.jl"),
            llvm::StringRef::npos);

  // The same kernel and another one still run.
  R = device().launch(*Shift, {}, {7, 1, 1},
                      {f32Array(std::vector<float>(8, 1.0f), {8})});
  EXPECT_TRUE(!!R) << (R ? "" : test::diagText(R.takeError()));
  auto Saxpy = load(SaxpySig);
  ASSERT_TRUE(Saxpy);
  LaunchResult S = run(*Saxpy, {4, 1, 1}, {256, 1, 1},
                       {f32(2.0f), f32Array(std::vector<float>(1000, 1.0f), {1000}),
                        f32Array(std::vector<float>(1000, 1.0f), {1000})});
  ASSERT_EQ(S.Args.size(), 3u);
  EXPECT_EQ(floats(S.Args[2]), std::vector<float>(1000, 3.0f));
}

TEST_F(HostDeviceTest, ThrowInsideASynchronisingBlock) {
  // A throw on a fiber abandons it; the block's other fibers never resume.
  loadText("syncthrow.jl", R"(
function sync_oob!(a::DeviceArray{Float32,1})
    t = threadIdx().x
    sync_threads()
    a[t + 1] = 1.0f0
    sync_threads()
    return nothing
end
)");
  auto K = load("sync_oob!(DeviceArray{Float32,1})");
  ASSERT_TRUE(K);
  for (int Rep = 0; Rep < 2; ++Rep) {
    auto R = device().launch(*K, {3, 1, 1}, {16, 1, 1},
                             {f32Array(std::vector<float>(16, 0.0f), {16})});
    ASSERT_FALSE(R);
    Diagnostic D = test::firstDiag(R.takeError());
    EXPECT_NE(D.Message.find("BoundsError at syncthrow.jl:5"), std::string::npos)
        << D.Message;
  }
}

TEST_F(HostDeviceTest, AFaultInCompiledCodeFailsTheLaunchAtItsLine) {
  // Unchecked accesses (`@inbounds`) far outside the array: a segfault in
  // compiled code ends the launch, named at the access's line, and the
  // process and the kernel stay usable. Direct threads and fibers.
  loadText("fault.jl", R"(
function poke!(a::DeviceArray{Float32,1}, k::Int)
    @inbounds a[k + threadIdx().x] = 1.0f0
    return nothing
end
function peek_sync!(a::DeviceArray{Float32,1}, k::Int)
    t = threadIdx().x
    sync_threads()
    @inbounds a[t] = a[k]
    return nothing
end
)");
  // 4 TiB before the array: unmapped, and still a canonical address (past
  // the top of the user address space the fault would not say which).
  const int64_t Far = -(int64_t(1) << 40);
  for (const char *Sig : {"poke!(DeviceArray{Float32,1}, Int)",
                          "peek_sync!(DeviceArray{Float32,1}, Int)"}) {
    SCOPED_TRACE(Sig);
    const bool Write = llvm::StringRef(Sig).startswith("poke");
    auto K = load(Sig);
    ASSERT_TRUE(K);
    for (int Rep = 0; Rep < 2; ++Rep) {
      auto R = device().launch(*K, {2, 1, 1}, {8, 1, 1},
                               {f32Array(std::vector<float>(16, 0.0f), {16}),
                                HostValue::fromInt(ScalarKind::Int64, Far)});
      ASSERT_FALSE(R);
      Diagnostic D = test::firstDiag(R.takeError());
      EXPECT_EQ(D.Kind, "launch");
      EXPECT_NE(
          D.Message.find(Write ? "invalid memory access (a write to address 0x"
                               : "invalid memory access (a read of address 0x"),
          std::string::npos)
          << D.Message;
      // Every thread faults; the first of either block (they run in
      // parallel) reports.
      EXPECT_NE(D.Message.find("(thread (1, 1, 1) of block ("),
                std::string::npos)
          << D.Message;
      EXPECT_NE(llvm::StringRef(D.Loc.FileName).find("fault.jl"),
                llvm::StringRef::npos)
          << D.Loc.FileName;
      EXPECT_EQ(D.Loc.Line, Write ? 3u : 9u);
      // The stacktrace ends in the kernel, at the access (the frames
      // before it are the prelude's setindex!/getindex, inlined).
      ASSERT_FALSE(D.Backtrace.empty());
      EXPECT_EQ(D.Backtrace.back().Function, Write ? "poke!" : "peek_sync!");
      EXPECT_EQ(D.Backtrace.back().Loc.Line, Write ? 3u : 9u);
      EXPECT_FALSE(D.Backtrace.back().Inlined);
    }
    // In range, the same kernel runs.
    auto Ok = device().launch(*K, {2, 1, 1}, {8, 1, 1},
                              {f32Array(std::vector<float>(16, 0.0f), {16}),
                               HostValue::fromInt(ScalarKind::Int64, 1)});
    EXPECT_TRUE(!!Ok) << (Ok ? "" : test::diagText(Ok.takeError()));
  }
}

TEST_F(HostDeviceTest, InexactError) {
  loadExample("exceptions.jl");
  auto K = load("narrow(Int)");
  ASSERT_TRUE(K);
  auto R = device().launch(*K, {}, {},
                           {HostValue::fromInt(ScalarKind::Int64, 100000)});
  ASSERT_FALSE(R);
  Diagnostic D = test::firstDiag(R.takeError());
  EXPECT_NE(D.Message.find("InexactError at exceptions.jl:17"), std::string::npos)
      << D.Message;
  // In range, the same kernel returns the narrowed value.
  LaunchResult Ok = run(*K, {}, {}, {HostValue::fromInt(ScalarKind::Int64, 1234)});
  EXPECT_EQ(Ok.Return, HostValue::fromInt(ScalarKind::Int16, 1234));
}

TEST_F(HostDeviceTest, ReloadingAnEditedFunctionDoesNotClash) {
  loadText("v1.jl", "answer(x::Int) = x + 1\n");
  auto V1 = load("answer(Int)");
  ASSERT_TRUE(V1);
  loadText("v2.jl", "answer(x::Int) = x + 2\n");
  auto V2 = load("answer(Int)");
  ASSERT_TRUE(V2);
  HostValue Arg = HostValue::fromInt(ScalarKind::Int64, 40);
  EXPECT_EQ(run(*V1, {}, {}, {Arg}).Return, HostValue::fromInt(ScalarKind::Int64, 41));
  EXPECT_EQ(run(*V2, {}, {}, {Arg}).Return, HostValue::fromInt(ScalarKind::Int64, 42));
  V1.reset(); // unloads its dylib; V2 is unaffected
  EXPECT_EQ(run(*V2, {}, {}, {Arg}).Return, HostValue::fromInt(ScalarKind::Int64, 42));
}

TEST_F(HostDeviceTest, BadShapesAreDiagnostics) {
  loadExample("saxpy.jl");
  auto K = load(SaxpySig);
  ASSERT_TRUE(K);
  std::vector<HostValue> Args = {f32(1.0f), f32Array({1}, {1}), f32Array({1}, {1})};
  auto R = device().launch(*K, {}, {2048, 1, 1}, Args);
  ASSERT_FALSE(R);
  EXPECT_EQ(test::firstDiag(R.takeError()).Kind, "argument");
  R = device().launch(*K, {0, 1, 1}, {}, Args);
  ASSERT_FALSE(R);
  EXPECT_EQ(test::firstDiag(R.takeError()).Kind, "argument");
}

TEST_F(HostDeviceTest, WrongArtefactsAreDiagnostics) {
  std::string Log;
  DeviceArtefact A;
  A.Target = "ptx";
  auto K = device().load(A, Log);
  ASSERT_FALSE(K);
  EXPECT_EQ(test::firstDiag(K.takeError()).Kind, "load");
  A.Target = "native";
  A.Entry = "julia_nothing_here";
  A.Object = {0x7f, 'E', 'L', 'F', 1, 2, 3};
  K = device().load(A, Log);
  ASSERT_FALSE(K);
  EXPECT_EQ(test::firstDiag(K.takeError()).Kind, "load");
}

// Twenty thousand launches of an empty kernel all succeed. The time per
// launch is printed, not asserted (a benchmark figure: scripts/bench).
TEST_F(HostDeviceTest, ManyLaunchesOfAnEmptyKernel) {
  loadText("empty.jl", "function empty!(a::DeviceArray{Float32,1})\n    return nothing\nend\n");
  auto K = load("empty!(DeviceArray{Float32,1})");
  ASSERT_TRUE(K);
  std::vector<HostValue> Args = {f32Array({1}, {1})};
  auto Warm = device().launch(*K, {}, {}, Args);
  ASSERT_TRUE(!!Warm);
  constexpr int N = 20000;
  auto T0 = std::chrono::steady_clock::now();
  for (int I = 0; I < N; ++I) {
    auto R = device().launch(*K, {}, {}, Args);
    if (!R) {
      ADD_FAILURE() << test::diagText(R.takeError());
      return;
    }
  }
  double Us = std::chrono::duration<double, std::micro>(
                  std::chrono::steady_clock::now() - T0).count() / N;
  std::printf("host launch overhead (1x1, one array argument): %.3f us\n", Us);
}

} // namespace
