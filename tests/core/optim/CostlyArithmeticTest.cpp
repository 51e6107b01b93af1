// Arithmetic that costs far more on a GPU than it looks, as `prism-arith`
// remarks of a compile: Float64 mixed into Float32 code (but not a kernel
// that is Float64 throughout, nor a product LLVM already narrowed back to
// Float32), and 64-bit division by a run-time value (not by a constant).
#include "optim/CostlyArithmetic.h"

#include "core/targets/GpuTestUtil.h"

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
)";

class CostlyArithmeticTest : public GpuJobTest {
protected:
  /// The `prism-arith` remarks of \p Sig on \p Target: name → lines.
  std::multimap<std::string, unsigned> remarks(const char *Target,
                                               const std::string &Sig) {
    CompileResult R = compileFor(Target, Sig);
    EXPECT_TRUE(R.ok()) << diags(*R.Report);
    std::multimap<std::string, unsigned> Out;
    if (!R.Report)
      return Out;
    for (const OptRemark &M : R.Report->Remarks)
      if (M.Pass == "prism-arith") {
        EXPECT_EQ(M.Kind, RemarkKind::Missed) << M.Message;
        Out.emplace(M.Name, M.Origin.Frames.empty()
                                ? 0u
                                : unsigned(M.Origin.Frames.back().Line));
      }
    return Out;
  }
};

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

TEST_F(CostlyArithmeticTest, MessagesQuoteTheTargetsVendor) {
  loadText("arith.jl", Source);
  CompileResult Ptx = compileFor(
      "ptx", "mixed!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  CompileResult Gcn = compileFor(
      "gcn", "mixed!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(Ptx.ok() && Gcn.ok());
  std::set<std::string> PtxText, GcnText;
  for (const OptRemark &M : Ptx.Report->Remarks)
    if (M.Pass == "prism-arith")
      PtxText.insert(M.Message);
  for (const OptRemark &M : Gcn.Report->Remarks)
    if (M.Pass == "prism-arith")
      GcnText.insert(M.Message);
  ASSERT_FALSE(PtxText.empty());
  ASSERT_FALSE(GcnText.empty());
  EXPECT_NE(PtxText.begin()->find("GeForce"), std::string::npos);
  EXPECT_NE(GcnText.begin()->find("Radeon"), std::string::npos);
}

} // namespace
