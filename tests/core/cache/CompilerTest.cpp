// The staged driver end to end: source → prelude + inference → validation →
// LLVM IR → optimised IR → native asm, on the examples and small programs.
#include "core/infer/InferTestUtil.h"

#include "cache/Compiler.h"
#include "codegen/Runtime.h"
#include "optim/Pipeline.h"
#include "targets/NativeTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <set>

using namespace prism;

namespace {

class CompilerE2E : public prism::testing::InferTest {
protected:
  CompileResult compileSig(const std::string &Sig, Stage UpTo,
                           std::optional<bool> Kernel = std::nullopt,
                           unsigned Opt = 2, const CompileOptions &O = {},
                           DebugInfoLevel DI = DebugInfoLevel::LineTables) {
    CompilerConfigOptions CO;
    CO.Target = "native";
    CO.OptLevel = Opt;
    CO.Kernel = Kernel;
    CO.DebugInfo = DI;
    auto C = CompilerConfig::create(CO);
    EXPECT_TRUE(!!C);
    CompilerJob Job{spec(Sig), *C, Env.currentWorld()};
    return compile(Engine, Job, UpTo, Hooks, O);
  }

  /// saxpy.jl's kernel for the host at -O2, every pass that changed it
  /// recorded.
  CompileResult saxpyWithSnapshots() {
    loadExample("saxpy.jl");
    CompileOptions O;
    O.Snapshots = true;
    return compileSig(
        "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
        Stage::LLVMOpt, true, 2, O);
  }

  /// The host assembler's comment leader, which native source comments use
  /// (`#` on x86-64).
  static std::string nativeComment() {
    llvm::Expected<const Target *> T = lookupTarget("native");
    if (!T) {
      llvm::consumeError(T.takeError());
      return "?";
    }
    return (*T)->asmSourceComments().Leader;
  }

  static std::string diags(const JobReport &R) {
    std::string S;
    for (const Diagnostic &D : R.Diagnostics)
      S += renderDiagnostic(D, {false, false});
    return S;
  }

  /// The text without metadata and calls of LLVM intrinsics (debug info,
  /// `llvm.umax` in a block wrapper's trip count): what a reader checks for
  /// `call` and `alloca`.
  static std::string code(const std::string &IR) {
    std::string Out;
    llvm::StringRef Rest(IR);
    while (!Rest.empty()) {
      auto [L, T] = Rest.split('\n');
      Rest = T;
      if ((L.contains("call ") && L.contains(" @llvm.")) || L.startswith("!"))
        continue;
      Out += L.str() + "\n";
    }
    return Out;
  }

  /// The line of Text that contains Needle.
  static std::string lineWith(const std::string &Text, const std::string &Needle) {
    size_t P = Text.find(Needle);
    if (P == std::string::npos)
      return "";
    size_t B = Text.rfind('\n', P);
    size_t E = Text.find('\n', P);
    return Text.substr(B == std::string::npos ? 0 : B + 1,
                       E == std::string::npos ? std::string::npos : E - B - 1);
  }

  /// 1-based line of the first occurrence of Needle in an example file.
  static unsigned exampleLine(const std::string &File, const std::string &Needle) {
    std::ifstream In(std::string(PRISM_EXAMPLES_DIR) + "/" + File);
    std::string L;
    for (unsigned N = 1; std::getline(In, L); ++N)
      if (L.find(Needle) != std::string::npos)
        return N;
    return 0;
  }

  CompileHooks Hooks;
};

} // namespace

TEST_F(CompilerE2E, ExamplesEmitVerifiedIRAndAsm) {
  struct Case {
    const char *File, *Sig;
    bool Kernel;
  } Cases[] = {
      {"saxpy.jl", "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})", true},
      {"map.jl", "map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})", true},
      {"map.jl", "map!(typeof(halve), DeviceArray{Int64,1}, DeviceArray{Int64,1})", true},
      {"matmul.jl", "matmul!(DeviceArray{Float32,2}, DeviceArray{Float32,2}, DeviceArray{Float32,2})", true},
      {"reduce.jl", "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})", true},
      {"filter.jl", "accept_ipv4(Ptr{UInt8}, UInt32)", false},
  };
  for (const Case &C : Cases) {
    loadExample(C.File);
    CompileResult R = compileSig(C.Sig, Stage::Asm, C.Kernel);
    EXPECT_TRUE(R.ok()) << C.Sig << "\n" << diags(*R.Report);
    if (!R.ok())
      continue;
    EXPECT_TRUE(R.Report->stage(Stage::LLVMRaw).Present);
    EXPECT_TRUE(R.Report->stage(Stage::LLVMOpt).Present);
    EXPECT_FALSE(R.Report->stage(Stage::Asm).Text.empty());
    ASSERT_TRUE(R.Module);
    llvm::Error VE = verifyModuleOrError(*R.Module);
    EXPECT_FALSE(!!VE) << C.Sig;
    llvm::consumeError(std::move(VE));
  }
}

// `code_native` prints one stage: with OnlyText the others run but are not
// printed, and the one shown is the same annotated text as in a full
// compile (its source comments do not need the other stages' text).
TEST_F(CompilerE2E, OnlyTextPrintsOneStageTheSameAsAFullCompile) {
  loadExample("saxpy.jl");
  const char *Sig =
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  CompileResult Full = compileSig(Sig, Stage::Asm, true);
  CompileOptions O;
  O.OnlyText = Stage::Asm;
  CompileResult One = compileSig(Sig, Stage::Asm, true, 2, O);
  ASSERT_TRUE(Full.ok() && One.ok()) << diags(*One.Report);
  for (Stage S : {Stage::Typed, Stage::LLVMRaw, Stage::LLVMOpt}) {
    EXPECT_TRUE(One.Report->stage(S).Present);
    EXPECT_TRUE(One.Report->stage(S).Text.empty()) << stageName(S);
    EXPECT_FALSE(Full.Report->stage(S).Text.empty()) << stageName(S);
  }
  const StageOutput &Asm = One.Report->stage(Stage::Asm);
  EXPECT_EQ(Asm.Text, Full.Report->stage(Stage::Asm).Text);
  EXPECT_NE(Asm.Text.find(nativeComment() + " saxpy.jl:"), std::string::npos)
      << Asm.Text;
  EXPECT_FALSE(Asm.Lines.empty());
}

TEST_F(CompilerE2E, OptimisedSaxpyHasNoAllocaAndNoCall) {
  loadExample("saxpy.jl");
  CompileResult R = compileSig(
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::LLVMOpt, true);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  std::string Opt = code(R.Report->stage(Stage::LLVMOpt).Text);
  EXPECT_EQ(Opt.find("alloca"), std::string::npos) << Opt;
  EXPECT_EQ(Opt.find("call "), std::string::npos) << Opt;
  EXPECT_NE(Opt.find("define void @\"julia_saxpy!\"(ptr nocapture readonly %state"),
            std::string::npos)
      << Opt;
  EXPECT_NE(Opt.find("fmul float"), std::string::npos) << Opt;
  EXPECT_EQ(R.LaunchSymbol, "jfptr_saxpy!");
}

TEST_F(CompilerE2E, BoundsChecksPresentWithoutInboundsAbsentWith) {
  loadText("bounds.jl", R"(function get1(x::DeviceArray{Float32,1}, i::Int)
    return x[i]
end
function get2(x::DeviceArray{Float32,1}, i::Int)
    @inbounds v = x[i]
    return v
end
)");
  CompileResult Checked = compileSig("get1(DeviceArray{Float32,1}, Int)", Stage::Asm);
  ASSERT_TRUE(Checked.ok()) << diags(*Checked.Report);
  std::string Opt = Checked.Report->stage(Stage::LLVMOpt).Text;
  std::string Call = lineWith(Opt, "call void @prism_throw(");
  ASSERT_FALSE(Call.empty()) << Opt;
  EXPECT_NE(Call.find("(i32 1, "), std::string::npos) << Call; // BoundsError
  // The runtime is told the user's line, not the prelude's.
  EXPECT_NE(Call.find(", i32 2)"), std::string::npos) << Call;

  CompileResult Unchecked = compileSig("get2(DeviceArray{Float32,1}, Int)", Stage::Asm);
  ASSERT_TRUE(Unchecked.ok()) << diags(*Unchecked.Report);
  EXPECT_EQ(Unchecked.Report->stage(Stage::LLVMOpt).Text.find("prism_throw("),
            std::string::npos)
      << Unchecked.Report->stage(Stage::LLVMOpt).Text;
  // Not even emitted: the @inbounds instance of getindex has no check.
  EXPECT_EQ(Unchecked.Report->stage(Stage::LLVMRaw).Text.find("@prism_throw(i32 1,"),
            std::string::npos)
      << lineWith(Unchecked.Report->stage(Stage::LLVMRaw).Text, "@prism_throw(i32 1,");
  // The report counts the places that can still throw: the one index
  // (its two bounds are two branches to the same report), none with
  // @inbounds.
  EXPECT_EQ(Checked.Report->Resources.ThrowSites, 1);
  EXPECT_EQ(Unchecked.Report->Resources.ThrowSites, 0);
}

TEST_F(CompilerE2E, NoInlineHelperStaysSeparate) {
  loadText("helper.jl", R"(@noinline function helper(x::Float32)
    return x * 2.0f0
end
function usehelper(a::DeviceArray{Float32,1})
    @inbounds a[1] = helper(a[1])
    return nothing
end
)");
  CompileResult R = compileSig("usehelper(DeviceArray{Float32,1})", Stage::Asm, true);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  std::string Opt = code(R.Report->stage(Stage::LLVMOpt).Text);
  EXPECT_NE(Opt.find("define internal fastcc float @julia_helper_"), std::string::npos) << Opt;
  EXPECT_NE(Opt.find("call fastcc float @julia_helper_"), std::string::npos) << Opt;
}

TEST_F(CompilerE2E, RawIRIsTheTypedOptimisersCodeAboveO0) {
  // -O1 and above: codegen emits the typed optimiser's code, so the raw
  // module is the kernel alone, the prelude's statements in it located
  // through inlinedAt chains. -O0: one function per MethodInstance.
  const std::string Sig =
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  loadExample("saxpy.jl");
  auto Defined = [](const llvm::Module &M) {
    std::vector<std::string> Names;
    for (const llvm::Function &F : M)
      if (!F.isDeclaration() && F.getName().startswith("julia_"))
        Names.push_back(F.getName().str());
    return Names;
  };
  CompileResult O2 = compileSig(Sig, Stage::LLVMRaw, true, 2);
  ASSERT_TRUE(O2.ok()) << diags(*O2.Report);
  EXPECT_EQ(Defined(*O2.Module), std::vector<std::string>{"julia_saxpy!"});
  std::set<std::string> InlinedFrom;
  for (const llvm::Function &F : *O2.Module)
    for (const llvm::Instruction &I : llvm::instructions(F))
      if (const llvm::DILocation *L = I.getDebugLoc().get(); L && L->getInlinedAt()) {
        InlinedFrom.insert(L->getScope()->getSubprogram()->getName().str());
        // The outermost frame is in the function's own subprogram.
        const llvm::DILocation *Outer = L;
        while (Outer->getInlinedAt())
          Outer = Outer->getInlinedAt();
        EXPECT_EQ(Outer->getScope()->getSubprogram(), F.getSubprogram());
      }
  EXPECT_TRUE(InlinedFrom.count("getindex")) << llvm::join(InlinedFrom, ",");
  EXPECT_TRUE(InlinedFrom.count("blockIdx")) << llvm::join(InlinedFrom, ",");

  CompileResult O0 = compileSig(Sig, Stage::LLVMRaw, true, 0);
  ASSERT_TRUE(O0.ok()) << diags(*O0.Report);
  EXPECT_GT(Defined(*O0.Module).size(), 10u);
}

TEST_F(CompilerE2E, DebugInfoNone) {
  loadExample("saxpy.jl");
  CompileResult R = compileSig(
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::Asm, true, 2, {}, DebugInfoLevel::None);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_EQ(R.Report->stage(Stage::LLVMRaw).Text.find("!dbg"), std::string::npos);
  EXPECT_EQ(R.Report->stage(Stage::Asm).Text.find(".loc"), std::string::npos);
}

// Without debug info the throw sites still name the user's line and the
// detail call its column: the emitter places them from the typed inliner's
// stack, not from !dbg.
TEST_F(CompilerE2E, DebugInfoNoneKeepsThrowSitesAtTheUsersLine) {
  loadExample("exceptions.jl");
  CompileResult R = compileSig("shift!(DeviceArray{Float32,1})", Stage::LLVMOpt,
                               true, 2, {}, DebugInfoLevel::None);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  unsigned Line = exampleLine("exceptions.jl", "a[i + 1]");
  llvm::Function *Hook = R.Module->getFunction(ThrowHookName);
  ASSERT_TRUE(Hook);
  unsigned Calls = 0;
  for (llvm::User *U : Hook->users()) {
    auto *Call = llvm::cast<llvm::CallInst>(U);
    ThrowCallInfo T = readThrowCall(*Call);
    EXPECT_EQ(T.File, "exceptions.jl");
    EXPECT_EQ(T.Line, int32_t(Line));
    auto *Detail = llvm::dyn_cast_or_null<llvm::CallInst>(Call->getPrevNode());
    ASSERT_TRUE(Detail && Detail->getCalledFunction() &&
                Detail->getCalledFunction()->getName() == ThrowDetailHookName);
    auto *Col = llvm::dyn_cast<llvm::ConstantInt>(Detail->getArgOperand(1));
    ASSERT_TRUE(Col);
    EXPECT_EQ(Col->getZExtValue(), 12u); // a[i + 1], not the statement's a[i]
    ++Calls;
  }
  EXPECT_GE(Calls, 1u);
}

TEST_F(CompilerE2E, CodeNativeHasSourceLineComments) {
  loadExample("saxpy.jl");
  CompileResult R = compileSig(
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::Asm, true);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const StageOutput &Asm = R.Report->stage(Stage::Asm);
  unsigned Body = exampleLine("saxpy.jl", "@inbounds y[i]");
  EXPECT_NE(Asm.Text.find("saxpy.jl:" + std::to_string(Body)), std::string::npos)
      << Asm.Text;
  EXPECT_NE(Asm.Text.find(nativeComment() + " saxpy.jl:"), std::string::npos)
      << Asm.Text;
  EXPECT_EQ(Asm.Text.find(".loc\t"), std::string::npos);
  // Inlined prelude code names the function it was inlined into.
  EXPECT_NE(Asm.Text.find(", inlined into saxpy! at saxpy.jl:"), std::string::npos)
      << Asm.Text;
  // Every instruction line after a comment carries an origin.
  size_t WithOrigin = 0;
  for (const LineOrigin &O : Asm.Lines)
    WithOrigin += !O.Frames.empty();
  EXPECT_GT(WithOrigin, 5u);
}

// A function's last source line must not carry over its end into the next
// function's header: in inlining.jl's PTX, `kept`'s line 12 used to light
// the `}` that closes it and the `(`/`{` of the kernel after it.
TEST_F(CompilerE2E, AsmLocationsStopAtTheEndOfAFunction) {
  loadExample("inlining.jl");
  for (const char *TargetName : {"ptx", "native", "gcn"}) {
    CompilerConfigOptions CO;
    CO.Target = TargetName;
    auto C = CompilerConfig::create(CO);
    ASSERT_TRUE(!!C) << llvm::toString(C.takeError());
    CompilerJob Job{spec("inline_demo(DeviceArray{Float32,1})"), *C,
                    Env.currentWorld()};
    CompileResult R = compile(Engine, Job, Stage::Asm, Hooks, {});
    ASSERT_TRUE(R.ok()) << diags(*R.Report);
    const StageOutput &Asm = R.Report->stage(Stage::Asm);
    llvm::SmallVector<llvm::StringRef, 0> Text;
    llvm::StringRef(Asm.Text).split(Text, '\n');
    ASSERT_GE(Asm.Lines.size() + 1, Text.size()) << TargetName;
    unsigned Mapped = 0;
    bool AfterEnd = false;
    for (size_t I = 0; I < Asm.Lines.size() && I < Text.size(); ++I) {
      llvm::StringRef T = Text[I].trim();
      bool Has = !Asm.Lines[I].Frames.empty();
      Mapped += Has;
      if (T.empty() || T == "{" || T == "}" || T == ")") {
        EXPECT_FALSE(Has) << TargetName << " line " << I + 1 << ": " << T.str();
      }
      // From a function's end to the next location comment, nothing is
      // attributed to a source line.
      if (Text[I] == "}" || T.startswith(".Lfunc_end") ||
          T.startswith("$L__func_end"))
        AfterEnd = true;
      else if (T.startswith(R.Report->Target == "ptx" ? "//" : "#") ||
               T.startswith(";"))
        AfterEnd = AfterEnd && !Has;
      if (AfterEnd) {
        EXPECT_FALSE(Has) << TargetName << " line " << I + 1 << ": " << T.str();
      }
    }
    EXPECT_GT(Mapped, 5u) << TargetName;
  }
}

TEST_F(CompilerE2E, LLVMIRLinesMapThroughInlining) {
  loadExample("saxpy.jl");
  CompileResult R = compileSig(
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::LLVMOpt, true);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const StageOutput &Opt = R.Report->stage(Stage::LLVMOpt);
  bool Inlined = false, Line5 = false;
  unsigned Body = exampleLine("saxpy.jl", "@inbounds y[i]");
  for (const LineOrigin &O : Opt.Lines) {
    if (O.Frames.size() >= 2 && O.Frames.back().File == "saxpy.jl")
      Inlined = true;
    if (!O.Frames.empty() && O.Frames.back().Line == Body &&
        O.Frames.back().Function == "saxpy!")
      Line5 = true;
  }
  EXPECT_TRUE(Inlined);
  EXPECT_TRUE(Line5);

  // A function's origin is on its `define` line, not on the `; Function
  // Attrs:` comment the printer writes before it.
  for (Stage S : {Stage::LLVMRaw, Stage::LLVMOpt}) {
    const StageOutput &Out = R.Report->stage(S);
    if (!Out.Present)
      continue;
    llvm::SmallVector<llvm::StringRef, 0> Text;
    llvm::StringRef(Out.Text).split(Text, '\n');
    unsigned Defines = 0;
    for (size_t I = 0; I < Text.size() && I < Out.Lines.size(); ++I) {
      if (Text[I].startswith("; Function Attrs")) {
        EXPECT_TRUE(Out.Lines[I].Frames.empty()) << Text[I].str();
      }
      if (Text[I].startswith("define") && Text[I].contains("saxpy")) {
        ++Defines;
        EXPECT_FALSE(Out.Lines[I].Frames.empty()) << Text[I].str();
      }
    }
    EXPECT_GE(Defines, 1u);
  }
}

TEST_F(CompilerE2E, StagesFireHooksInOrderWithTimingsAndAllocations) {
  loadExample("saxpy.jl");
  std::vector<Stage> Seen;
  Hooks.OnStage = [&](const StageEvent &E) { Seen.push_back(E.S); };
  CompileResult R = compileSig(
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::Asm, true);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_EQ(Seen, (std::vector<Stage>{Stage::Typed, Stage::LLVMRaw, Stage::LLVMOpt,
                                      Stage::Asm}));
  for (Stage S : Seen) {
    const StageOutput &O = R.Report->stage(S);
    EXPECT_GT(O.Measure.WallMs, 0.0) << stageName(S);
    EXPECT_GT(O.Measure.Allocs.Count, 0u) << stageName(S);
    EXPECT_FALSE(O.Text.empty()) << stageName(S);
  }
  EXPECT_EQ(R.Report->Target, "native");
  EXPECT_EQ(R.Report->EntryName, "julia_saxpy!");
  EXPECT_TRUE(R.Report->Kernel);
  EXPECT_FALSE(R.Report->Sources.empty());
  EXPECT_TRUE(R.Report->Resources.Instructions.has_value());

  Seen.clear();
  CompileResult Typed = compileSig(
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::LLVMRaw, true);
  EXPECT_EQ(Seen, (std::vector<Stage>{Stage::Typed, Stage::LLVMRaw}));
  EXPECT_FALSE(Typed.Report->stage(Stage::LLVMOpt).Present);
}

TEST_F(CompilerE2E, PipelineSnapshotsForSaxpyAtO2) {
  CompileResult R = saxpyWithSnapshots();
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  ASSERT_GT(R.Report->Passes.size(), 3u);
  bool SawSROA = false;
  for (const PassSnapshot &P : R.Report->Passes) {
    EXPECT_FALSE(P.Diff.empty()) << P.Pass;
    SawSROA |= P.Pass.find("SROA") != std::string::npos;
  }
  EXPECT_TRUE(SawSROA);
}

TEST_F(CompilerE2E, BlockLoopIsSplitAtTheBoundsGuardAndVectorisedWithoutMasks) {
  // `if i <= length(y)` inside the block wrapper's thread loop: the native
  // pipeline splits the loop there (GuardSplitPass), so the threads in
  // range run a loop with no guard, which vectorises with plain loads and
  // stores instead of masked ones.
  CompileResult R = saxpyWithSnapshots();
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string Block = nativeBlockLaunchSymbol("julia_saxpy!");
  bool Split = false;
  for (const PassSnapshot &P : R.Report->Passes)
    Split |= P.Pass == "GuardSplitPass" && P.Function == Block;
  EXPECT_TRUE(Split) << "GuardSplitPass did not change " << Block;
  const llvm::Function *W = R.Module->getFunction(Block);
  ASSERT_TRUE(W);
  unsigned VectorLoads = 0;
  for (const llvm::Instruction &I : llvm::instructions(*W)) {
    if (const auto *Call = llvm::dyn_cast<llvm::CallInst>(&I)) {
      if (const llvm::Function *F = Call->getCalledFunction()) {
        EXPECT_FALSE(F->getName().startswith("llvm.masked."))
            << F->getName().str();
      }
    }
    if (const auto *L = llvm::dyn_cast<llvm::LoadInst>(&I))
      VectorLoads += L->getType()->isVectorTy();
  }
  EXPECT_GE(VectorLoads, 2u); // x[i] and y[i], at least
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

TEST_F(CompilerE2E, UnstableVariableIsNamedWithTypeAndLine) {
  loadExample("unstable.jl");
  CompileResult R = compileSig("sum_row(DeviceArray{Float32,2}, Int)", Stage::Asm);
  ASSERT_FALSE(R.ok());
  EXPECT_TRUE(R.Report->stage(Stage::Typed).Present);
  EXPECT_FALSE(R.Report->stage(Stage::LLVMRaw).Present);
  const Diagnostic *Acc = nullptr;
  for (const Diagnostic &D : R.Report->Diagnostics)
    if (D.Kind == "non-concrete" && D.Message.find("`acc`") != std::string::npos)
      Acc = &D;
  ASSERT_NE(Acc, nullptr) << diags(*R.Report);
  EXPECT_NE(Acc->Message.find("Union{Float32, Int64}"), std::string::npos) << Acc->Message;
  EXPECT_EQ(Acc->Loc.Line, exampleLine("unstable.jl", "acc = 0")) << diags(*R.Report) << R.Report->stage(Stage::Typed).Text;
  ASSERT_FALSE(Acc->Backtrace.empty());
  EXPECT_EQ(Acc->Backtrace[0].Function, "sum_row");
}

TEST_F(CompilerE2E, NonConcreteInCalleeHasBacktrace) {
  loadText("callee.jl", R"(function inner(v::Int)
    acc = 0
    if v > 0
        acc = 1.5
    end
    return acc
end
outer(x::Int) = inner(x)
)");
  CompileResult R = compileSig("outer(Int)", Stage::LLVMRaw);
  ASSERT_FALSE(R.ok());
  const Diagnostic *D = nullptr;
  for (const Diagnostic &X : R.Report->Diagnostics)
    if (X.Kind == "non-concrete" && X.Message.find("`acc`") != std::string::npos)
      D = &X;
  ASSERT_NE(D, nullptr) << diags(*R.Report);
  EXPECT_EQ(D->Loc.Line, 2u);
  ASSERT_EQ(D->Backtrace.size(), 2u) << diags(*R.Report);
  EXPECT_EQ(D->Backtrace[0].Function, "inner");
  EXPECT_EQ(D->Backtrace[1].Function, "outer");
  EXPECT_EQ(D->Backtrace[1].Loc.Line, 8u);
  EXPECT_NE(renderDiagnostic(*D, {false, false}).find("[2] outer at callee.jl:8"),
            std::string::npos)
      << renderDiagnostic(*D, {false, false});
}

TEST_F(CompilerE2E, KernelMustReturnNothing) {
  loadText("kret.jl", "plus1(x::Int) = x + 1\n");
  CompileResult R = compileSig("plus1(Int)", Stage::Asm, true);
  ASSERT_FALSE(R.ok());
  ASSERT_EQ(R.Report->Diagnostics.size(), 1u) << diags(*R.Report);
  const Diagnostic &D = R.Report->Diagnostics[0];
  EXPECT_EQ(D.Kind, "kernel-return");
  EXPECT_NE(D.Message.find("kernel returns a value of type Int64"), std::string::npos);
  EXPECT_EQ(D.Loc.Line, 1u);
  // The same function is fine as a plain function.
  EXPECT_TRUE(compileSig("plus1(Int)", Stage::Asm, false).ok());
}

TEST_F(CompilerE2E, DynamicCallIsReported) {
  loadText("dyn.jl", R"(function pick(c::Bool)
    v = c ? 1 : 2.0
    return sqrt(v)
end
)");
  CompileResult R = compileSig("pick(Bool)", Stage::LLVMRaw);
  ASSERT_FALSE(R.ok());
  bool Dynamic = false;
  for (const Diagnostic &D : R.Report->Diagnostics)
    if (D.Kind == "dynamic-call") {
      Dynamic = true;
      EXPECT_EQ(D.Loc.Line, 3u) << D.Message;
      EXPECT_NE(D.Message.find("sqrt"), std::string::npos) << D.Message;
    }
  EXPECT_TRUE(Dynamic) << diags(*R.Report);
}

TEST_F(CompilerE2E, UndefinedFunctionIsReported) {
  loadText("undef.jl", R"(function g(x::Int)
    return not_defined_anywhere(x)
end
)");
  CompileResult R = compileSig("g(Int)", Stage::LLVMRaw);
  ASSERT_FALSE(R.ok());
  ASSERT_FALSE(R.Report->Diagnostics.empty());
  const Diagnostic &D = R.Report->Diagnostics[0];
  EXPECT_NE(D.Message.find("not_defined_anywhere"), std::string::npos) << diags(*R.Report);
  EXPECT_EQ(D.Loc.Line, 2u);
}

TEST_F(CompilerE2E, DeviceArrayLoopKernelOptimisesToStraightCode) {
  // No Int32/Int64 mixing: exercises the prelude's DeviceArray, length and
  // @inbounds getindex/setindex! end to end.
  loadText("scale.jl", R"(function scale!(y::DeviceArray{Float32,1}, a::Float32)
    i = 1
    while i <= length(y)
        @inbounds y[i] = a * y[i]
        i += 1
    end
    return nothing
end
)");
  CompileResult R = compileSig("scale!(DeviceArray{Float32,1}, Float32)", Stage::Asm, true);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  std::string Opt = code(R.Report->stage(Stage::LLVMOpt).Text);
  EXPECT_EQ(Opt.find("alloca"), std::string::npos) << Opt;
  EXPECT_EQ(Opt.find("call "), std::string::npos) << Opt;
  EXPECT_NE(Opt.find("fmul float"), std::string::npos) << Opt;
  EXPECT_NE(R.Report->stage(Stage::Asm).Text.find(", inlined into scale! at scale.jl:4"),
            std::string::npos)
      << R.Report->stage(Stage::Asm).Text;
}

// Assigning one result over another frees the old module before the old
// context it lives in (a defaulted assignment replaced the context first
// and crashed in Module's destructor).
TEST_F(CompilerE2E, AResultAssignedOverAnotherFreesItsModuleFirst) {
  loadExample("saxpy.jl");
  const char *Sig =
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  CompileResult R = compileSig(Sig, Stage::LLVMOpt, true);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  ASSERT_TRUE(R.Module && R.Context);
  R = compileSig(Sig, Stage::LLVMOpt, true);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  ASSERT_TRUE(R.Module);
  EXPECT_EQ(&R.Module->getContext(), R.Context.get());
  CompileResult &Self = R;
  R = std::move(Self);
  EXPECT_TRUE(R.Module);
}
