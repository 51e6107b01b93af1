// Arithmetic that costs far more on a GPU than it looks, as `prism-arith`
// remarks of a compile: Float64 mixed into Float32 code (but not a kernel
// that is Float64 throughout, nor a product LLVM already narrowed back to
// Float32, nor libdevice's own), an index made Float64, and 64-bit division
// by a run-time value (not by a constant); each quoting its arch's rate.
#include "optim/CostlyArithmetic.h"

#include "core/targets/GpuTestUtil.h"
#include "targets/PtxTarget.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace prism;
using namespace prism::testing;

namespace {

constexpr const char *Source =
    R"(function mixed!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = threadIdx().x
    @inbounds y[i] = x[i] * 1.5f0 + x[i] * 2.1
    return nothing
end
function narrowed!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = threadIdx().x
    @inbounds y[i] = x[i] * 1.5
    return nothing
end
function all64!(y::DeviceArray{Float64,1}, x::DeviceArray{Float64,1})
    i = threadIdx().x
    @inbounds y[i] = x[i] * 1.5
    return nothing
end
function lin!(y::DeviceArray{Float32,1}, n::Int)
    k = threadIdx().x
    @inbounds y[k] = (k - 1) % n + (k - 1) ÷ n + k ÷ 32
    return nothing
end
function index64!(y::DeviceArray{Float32,1}, x::DeviceArray{Int32,1})
    i = threadIdx().x
    @inbounds y[i] = x[i] * 0.3 > 2.5 ? 1f0 : 0f0
    return nothing
end
function sines!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = threadIdx().x
    @inbounds y[i] = sin(x[i])
    return nothing
end
)";

class CostlyArithmeticTest : public GpuJobTest {
protected:
  /// The `prism-arith` remarks of \p Sig on \p Target (and \p Arch).
  std::vector<OptRemark> arith(const char *Target, const std::string &Sig,
                               const std::string &Arch = "") {
    GpuJobOptions O;
    O.Arch = Arch;
    CompileResult R = compileFor(Target, Sig, Stage::Asm, O);
    EXPECT_TRUE(R.ok()) << diags(*R.Report);
    std::vector<OptRemark> Out;
    if (R.Report)
      for (const OptRemark &M : R.Report->Remarks)
        if (M.Pass == "prism-arith")
          Out.push_back(M);
    return Out;
  }
  /// The same as name → line.
  std::multimap<std::string, unsigned> remarks(const char *Target,
                                               const std::string &Sig) {
    std::multimap<std::string, unsigned> Out;
    for (const OptRemark &M : arith(Target, Sig))
      Out.emplace(M.Name, M.Origin.Frames.empty()
                              ? 0u
                              : unsigned(M.Origin.Frames.back().Line));
    return Out;
  }
};

} // namespace

TEST_F(CostlyArithmeticTest, Float64InFloat32CodeIsReportedAtItsLine) {
  loadText("arith.jl", Source);
  for (const char *Target : {"ptx", "gcn"}) {
    SCOPED_TRACE(Target);
    auto Mixed = remarks(
        Target, "mixed!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
    // `x[i] * 2.1` widens x[i]; the sum widens the Float32 product and is
    // narrowed back for the store.
    EXPECT_GE(Mixed.count("Float64Widened"), 1u);
    EXPECT_EQ(Mixed.count("Float64Narrowed"), 1u);
    for (const auto &[Name, Line] : Mixed)
      EXPECT_EQ(Line, 3u) << Name;
    // `x[i] * 1.5` stored to Float32: LLVM computes it in Float32, exactly
    // (1.5 is exact in Float32 and a product of two Float32s fits a
    // double), so nothing is left to report.
    EXPECT_TRUE(remarks(Target, "narrowed!(DeviceArray{Float32,1}, "
                                "DeviceArray{Float32,1})")
                    .empty());
    // Float64 throughout is a choice.
    EXPECT_TRUE(
        remarks(Target, "all64!(DeviceArray{Float64,1}, DeviceArray{Float64,1})")
            .empty());
  }
}

TEST_F(CostlyArithmeticTest, WideDivisionByARunTimeValueOnly) {
  loadText("arith.jl", Source);
  auto Lin = remarks("ptx", "lin!(DeviceArray{Float32,1}, Int64)");
  // `% n` and `÷ n`; `÷ 32` is a shift.
  EXPECT_EQ(Lin.count("WideDivision"), 2u);
  EXPECT_EQ(Lin.size(), 2u);
}

TEST_F(CostlyArithmeticTest, MessagesQuoteTheArchsRate) {
  loadText("arith.jl", Source);
  const std::string Sig =
      "mixed!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  struct Case {
    const char *Target, *Arch, *Says;
    RemarkKind Kind;
  } Cases[] = {
      {"ptx", "sm_86", "at 1/64 of the Float32 rate on sm_86",
       RemarkKind::Missed},
      {"ptx", "sm_90", "at 1/2 of the Float32 rate on an H100",
       RemarkKind::Missed},
      // sm_80 code runs on GeForce GPUs too.
      {"ptx", "sm_80", "1/64 on the GeForce", RemarkKind::Missed},
      {"gcn", "gfx1030", "at 1/16 of the Float32 rate on gfx1030",
       RemarkKind::Missed},
      // MI200 runs double precision at the Float32 rate: only analysis.
      {"gcn", "gfx90a", "at the Float32 rate on gfx90a", RemarkKind::Analysis},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(std::string(C.Target) + " " + C.Arch);
    std::vector<OptRemark> Rs = arith(C.Target, Sig, C.Arch);
    ASSERT_FALSE(Rs.empty());
    for (const OptRemark &R : Rs) {
      EXPECT_NE(R.Message.find(C.Says), std::string::npos) << R.Message;
      EXPECT_EQ(R.Kind, C.Kind) << R.Message;
    }
  }
  // A 64-bit division costs the same everywhere.
  for (const OptRemark &R :
       arith("gcn", "lin!(DeviceArray{Float32,1}, Int64)", "gfx90a"))
    EXPECT_EQ(R.Kind, RemarkKind::Missed) << R.Message;
}

TEST_F(CostlyArithmeticTest, AnIndexMadeFloat64IsReported) {
  loadText("arith.jl", Source);
  // `x[i] * 0.3` with Int32 x: double precision that never meets a
  // Float32, in a kernel whose memory holds none.
  auto R =
      remarks("ptx", "index64!(DeviceArray{Float32,1}, DeviceArray{Int32,1})");
  EXPECT_EQ(R.count("Float64FromInteger"), 1u);
  for (const auto &[Name, Line] : R)
    EXPECT_EQ(Line, 23u) << Name;
}

TEST_F(CostlyArithmeticTest, LibdevicesOwnFloat64IsNotTheUsers) {
  if (!findLibdevice())
    GTEST_SKIP() << "libdevice.10.bc not found";
  loadText("arith.jl", Source);
  // libdevice's sinf reduces huge arguments in double precision, at the
  // call's line after inlining; the user wrote no Float64.
  EXPECT_TRUE(
      arith("ptx", "sines!(DeviceArray{Float32,1}, DeviceArray{Float32,1})")
          .empty());
}

// A block-stride loop's trip count divides once per thread, before the
// loop: analysis, not missed (in a kernel without loops, as lin!'s, a
// division stays missed).
TEST_F(CostlyArithmeticTest, ADivisionBeforeTheLoopIsOnlyAnalysis) {
  loadText(
      "stride.jl",
      R"(function bstride!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    for k in t:blockDim().x:length(x)
        @inbounds y[k] = 2.0f0 * x[k]
    end
    return nothing
end
)");
  auto R =
      arith("ptx", "bstride!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Name, "WideDivision");
  EXPECT_EQ(R[0].Kind, RemarkKind::Analysis) << R[0].Message;
  loadText("arith.jl", Source);
  for (const OptRemark &M : arith("ptx", "lin!(DeviceArray{Float32,1}, Int64)"))
    EXPECT_EQ(M.Kind, RemarkKind::Missed) << M.Message;
}
