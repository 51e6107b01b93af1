// Codegen on hand-built typed code (no parser, no inference): real LLVM,
// FileCheck-style substring checks on the emitted and optimised IR.
#include "TypedCodeBuilder.h"

#include "cache/Compiler.h"
#include "codegen/Runtime.h"

#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

using namespace prism;
using namespace prism::test;

namespace {

SourceFileRef testFile() {
  static SourceFileRef F = SourceFile::create(
      "test.jl", "line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\n"
                 "line9\nline10\nline11\nline12\n");
  return F;
}

CompilerConfigRef config(unsigned Opt = 2, bool Kernel = false,
                         DebugInfoLevel DI = DebugInfoLevel::LineTables) {
  CompilerConfigOptions O;
  O.Target = "native";
  O.OptLevel = Opt;
  O.Kernel = Kernel;
  O.DebugInfo = DI;
  auto C = CompilerConfig::create(O);
  EXPECT_TRUE(!!C) << llvm::toString(C.takeError());
  return *C;
}

InferResult single(HandFunction &F, std::vector<HandFunction *> Others = {}) {
  InferResult R;
  R.Roots.push_back(&F.CI);
  R.All.push_back(&F.CI);
  for (HandFunction *O : Others)
    R.All.push_back(&O->CI);
  return R;
}

CompileResult run(HandFunction &F, CompilerConfigRef C, Stage UpTo,
                  std::vector<HandFunction *> Others = {},
                  const CompileOptions &Opts = {}) {
  InferResult R = single(F, Others);
  CompilerJob Job{F.spec(), C, 1};
  return compileInferred(R, Job, UpTo, {}, Opts);
}

std::string diags(const JobReport &R) {
  std::string S;
  for (const Diagnostic &D : R.Diagnostics)
    S += D.Kind + ": " + D.Message + "\n";
  return S;
}

/// add1(x::Int64) = x + 1
struct Add1 {
  HandFunction F{"add1", {"x"}, {TypeContext::get().int64()}, testFile()};
  Add1() {
    Type *I64 = TypeContext::get().int64();
    F.returns(I64);
    unsigned S = F.builtin(Builtin::AddInt, {IRValue::slot(1), cst(intConst(1))},
                           {I64, I64}, I64, 3);
    F.ret(IRValue::ssa(S), I64, 3);
    F.finish();
  }
};

} // namespace

TEST(Emitter, IntegerAddWrapsAndVerifies) {
  Add1 A;
  CompileResult R = run(A.F, config(), Stage::Asm);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Raw = R.Report->stage(Stage::LLVMRaw).Text;
  std::string Missing;
  EXPECT_TRUE(checkInOrder(Raw, {"define i64 @julia_add1(i64 %x)", "alloca i64",
                                 "add i64", "ret i64"},
                           &Missing))
      << Missing << "\n" << Raw;
  EXPECT_EQ(Raw.find("add nsw"), std::string::npos) << "Julia integers wrap";
  const std::string &Opt = R.Report->stage(Stage::LLVMOpt).Text;
  EXPECT_NE(Opt.find("add i64 %x, 1"), std::string::npos) << Opt;
  EXPECT_EQ(Opt.find("alloca"), std::string::npos) << Opt;
  EXPECT_NE(R.Report->stage(Stage::Asm).Text.find("julia_add1"), std::string::npos);
  EXPECT_EQ(R.Report->EntryName, "julia_add1");
  EXPECT_EQ(R.LaunchSymbol, "jfptr_add1");
}

TEST(Emitter, LineOriginsFollowStatementRanges) {
  Add1 A;
  CompileResult R = run(A.F, config(), Stage::LLVMRaw);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const StageOutput &Raw = R.Report->stage(Stage::LLVMRaw);
  // The `add` line maps to test.jl:3 in add1.
  std::vector<std::string> Lines;
  llvm::StringRef Rest(Raw.Text);
  while (!Rest.empty()) {
    auto [L, T] = Rest.split('\n');
    Lines.push_back(L.str());
    Rest = T;
  }
  ASSERT_EQ(Lines.size(), Raw.Lines.size());
  bool Found = false;
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].find(" = add i64") != std::string::npos) {
      ASSERT_FALSE(Raw.Lines[I].Frames.empty()) << Lines[I];
      EXPECT_EQ(Raw.Lines[I].Frames[0].Line, 3u);
      EXPECT_EQ(Raw.Lines[I].Frames[0].File, "test.jl");
      EXPECT_EQ(Raw.Lines[I].Frames[0].Function, "add1");
      Found = true;
    }
  EXPECT_TRUE(Found);
}

TEST(Emitter, NoDebugInfoWhenDisabled) {
  Add1 A;
  CompileResult R = run(A.F, config(2, false, DebugInfoLevel::None), Stage::LLVMRaw);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_EQ(R.Report->stage(Stage::LLVMRaw).Text.find("!dbg"), std::string::npos);
}

TEST(Emitter, ThrowCallsRuntimeHookWithKindAndLine) {
  // f(x::Int64) = x < 10 ? x : throw(BoundsError())   (throw on line 7)
  TypeContext &TC = TypeContext::get();
  TypeName Proto;
  Proto.Name = Symbol::get("BoundsError");
  Proto.Kind = TypeNameKind::Struct;
  static TypeName *BE = TC.createTypeName(Proto);
  Type *BET = TC.apply(BE, {});
  Type *I64 = TC.int64();
  HandFunction F("checked", {"x"}, {I64}, testFile());
  F.returns(I64);
  unsigned C = F.builtin(Builtin::SltInt, {IRValue::slot(1), cst(intConst(10))},
                         {I64, I64}, TC.boolTy(), 5);
  F.gotoIfNot(IRValue::ssa(C), 3, 5);
  F.ret(IRValue::slot(1), I64, 6);
  unsigned E = F.builtin(Builtin::New, {cst([&] {
                           ConstValue V;
                           V.K = ConstValue::TypeVal;
                           V.TypeValue = BET;
                           V.Ty = TC.typeOfType(BET);
                           return V;
                         }())},
                         {TC.typeOfType(BET)}, BET, 7);
  F.builtin(Builtin::Throw, {IRValue::ssa(E)}, {BET}, TC.bottom(), 7);
  F.finish();
  CompileResult R = run(F, config(), Stage::Asm);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Opt = R.Report->stage(Stage::LLVMOpt).Text;
  std::string Missing;
  EXPECT_TRUE(checkInOrder(Opt, {"icmp", "call void @prism_throw(i32 1, ptr",
                                 "i32 7)", "unreachable"},
                           &Missing))
      << Missing << "\n" << Opt;
  EXPECT_NE(Opt.find("declare void @prism_throw(i32, ptr, ptr, i32)"),
            std::string::npos);
}

TEST(Emitter, NoInlineHelperStaysSeparateAndInlineHelperDisappears) {
  TypeContext &TC = TypeContext::get();
  Type *I64 = TC.int64();
  HandFunction Keep("keep", {"y"}, {I64}, testFile());
  Keep.M.NoInline = true;
  Keep.returns(I64);
  unsigned S = Keep.builtin(Builtin::MulInt, {IRValue::slot(1), IRValue::slot(1)},
                            {I64, I64}, I64, 2);
  Keep.ret(IRValue::ssa(S), I64, 2);
  Keep.finish();
  HandFunction Gone("gone", {"y"}, {I64}, testFile());
  Gone.M.Inline = true;
  Gone.returns(I64);
  S = Gone.builtin(Builtin::SubInt, {IRValue::slot(1), cst(intConst(3))},
                   {I64, I64}, I64, 4);
  Gone.ret(IRValue::ssa(S), I64, 4);
  Gone.finish();

  HandFunction F("outer", {"x"}, {I64}, testFile());
  F.returns(I64);
  unsigned A = F.invoke(Keep, {IRValue::slot(1)}, {I64}, 8);
  unsigned B = F.invoke(Gone, {IRValue::ssa(A)}, {I64}, 9);
  F.ret(IRValue::ssa(B), I64, 9);
  F.finish();
  CompileResult R = run(F, config(), Stage::LLVMOpt, {&Keep, &Gone});
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Raw = R.Report->stage(Stage::LLVMRaw).Text;
  EXPECT_NE(Raw.find("define internal i64 @julia_keep_1"), std::string::npos) << Raw;
  EXPECT_NE(Raw.find("define internal i64 @julia_gone_2"), std::string::npos) << Raw;
  const std::string &Opt = R.Report->stage(Stage::LLVMOpt).Text;
  EXPECT_TRUE(checkInOrder(Opt, {"define i64 @julia_outer", "call fastcc i64 @julia_keep_1("}))
      << Opt;
  EXPECT_EQ(Opt.find("@julia_gone_2("), std::string::npos) << Opt;
}

TEST(Emitter, KernelStateAndLaunchWrapperOnNative) {
  // k(a::Ptr{Float32}): pointerset(a, 1.0f0, thread_idx_x() + 1); nothing
  TypeContext &TC = TypeContext::get();
  Type *PF = TC.ptr(TC.float32());
  HandFunction F("fill1", {"a"}, {PF}, testFile());
  F.returns(TC.nothing());
  unsigned T = F.builtin(Builtin::ThreadIdxX, {}, {}, TC.int32(), 2);
  unsigned W = F.builtin(Builtin::SextInt,
                         {cst([&] {
                            ConstValue V;
                            V.K = ConstValue::TypeVal;
                            V.TypeValue = TC.int64();
                            V.Ty = TC.typeOfType(TC.int64());
                            return V;
                          }()),
                          IRValue::ssa(T)},
                         {TC.typeOfType(TC.int64()), TC.int32()}, TC.int64(), 2);
  unsigned I = F.builtin(Builtin::AddInt, {IRValue::ssa(W), cst(intConst(1))},
                         {TC.int64(), TC.int64()}, TC.int64(), 2);
  F.builtin(Builtin::PointerSet,
            {IRValue::slot(1), cst(floatConst(1.0f)), IRValue::ssa(I)},
            {PF, TC.float32(), TC.int64()}, PF, 3);
  ConstValue Nothing;
  Nothing.K = ConstValue::Nothing;
  Nothing.Ty = TC.nothing();
  F.ret(cst(Nothing), TC.nothing(), 4);
  F.finish();
  CompileResult R = run(F, config(2, true), Stage::Asm);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Raw = R.Report->stage(Stage::LLVMRaw).Text;
  std::string Missing;
  EXPECT_TRUE(checkInOrder(Raw, {"define void @julia_fill1(ptr %state, ptr %a)",
                                 "load i32", "store float 1.0",
                                 "define void @jfptr_fill1(ptr %state, ptr %args, ptr %ret)",
                                 "call void @julia_fill1(ptr %state"},
                           &Missing))
      << Missing << "\n" << Raw;
  const std::string &Opt = R.Report->stage(Stage::LLVMOpt).Text;
  EXPECT_EQ(Opt.find("alloca"), std::string::npos) << Opt;
  // Both wrappers got the entry inlined: the per-thread one, and the block
  // one, whose loop sets the state's threadIdx for each thread.
  for (const char *W : {"define void @jfptr_fill1(", "define void @jfptr_block_fill1("}) {
    size_t Begin = Opt.find(W);
    ASSERT_NE(Begin, std::string::npos) << W << "\n" << Opt;
    std::string Body = Opt.substr(Begin, Opt.find("\n}\n", Begin) - Begin);
    EXPECT_EQ(Body.find("@julia_fill1"), std::string::npos) << Body;
  }
  size_t Block = Opt.find("define void @jfptr_block_fill1(");
  EXPECT_NE(Opt.find("store i32", Block), std::string::npos) << Opt;
}

TEST(Emitter, StageHooksFireInOrderAndStopAtRequestedStage) {
  Add1 A;
  InferResult IR = single(A.F);
  CompilerJob Job{A.F.spec(), config(), 1};
  std::vector<Stage> Seen;
  CompileHooks Hooks;
  Hooks.OnStage = [&](const StageEvent &E) {
    Seen.push_back(E.S);
    EXPECT_TRUE(E.Output.Present);
    if (E.S == Stage::LLVMRaw || E.S == Stage::LLVMOpt) {
      EXPECT_NE(E.Module, nullptr);
    }
  };
  CompileResult R = compileInferred(IR, Job, Stage::LLVMOpt, Hooks);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_EQ(Seen, (std::vector<Stage>{Stage::Typed, Stage::LLVMRaw, Stage::LLVMOpt}));
  EXPECT_FALSE(R.Report->stage(Stage::Asm).Present);
  EXPECT_TRUE(R.Report->stage(Stage::LLVMOpt).Present);
  for (Stage S : Seen)
    EXPECT_GT(R.Report->stage(S).Measure.WallMs, 0.0) << stageName(S);

  Seen.clear();
  CompileResult R2 = compileInferred(IR, Job, Stage::Typed, Hooks);
  EXPECT_EQ(Seen, (std::vector<Stage>{Stage::Typed}));
  EXPECT_FALSE(R2.Report->stage(Stage::LLVMRaw).Present);
  EXPECT_EQ(R2.Module, nullptr);
}

TEST(Emitter, PassSnapshotsWhenAsked) {
  Add1 A;
  CompileOptions O;
  O.Snapshots = true;
  CompileResult R = run(A.F, config(2), Stage::LLVMOpt, {}, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  ASSERT_FALSE(R.Report->Passes.empty());
  for (const PassSnapshot &P : R.Report->Passes) {
    EXPECT_FALSE(P.Pass.empty());
    EXPECT_FALSE(P.Diff.empty()) << P.Pass;
  }
  CompileResult NoSnap = run(A.F, config(2), Stage::LLVMOpt);
  EXPECT_TRUE(NoSnap.Report->Passes.empty());
}

TEST(Emitter, ObjectEmission) {
  Add1 A;
  CompileOptions O;
  O.EmitObject = true;
  CompileResult R = run(A.F, config(), Stage::Asm, {}, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  ASSERT_GT(R.Object.size(), 4u);
  EXPECT_EQ(R.Object[1], 'E'); // \x7fELF
}

TEST(Emitter, ThrowKinds) {
  EXPECT_EQ(throwKindForTypeName("BoundsError"), ThrowKind::BoundsError);
  EXPECT_EQ(throwKindForTypeName("InexactError"), ThrowKind::InexactError);
  EXPECT_EQ(throwKindForTypeName("MyError"), ThrowKind::Other);
}

// The native launch ABI, executed: the launch wrapper is called the way the
// host runtime calls it (state, args[], ret), once per thread.
#include "targets/NativeTarget.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"

TEST(Emitter, LaunchWrapperRunsUnderJIT) {
  TypeContext &TC = TypeContext::get();
  Type *PF = TC.ptr(TC.float32());
  HandFunction F("fillidx", {"a", "v"}, {PF, TC.float32()}, testFile());
  F.returns(TC.nothing());
  unsigned T = F.builtin(Builtin::ThreadIdxX, {}, {}, TC.int32(), 2);
  ConstValue I64T;
  I64T.K = ConstValue::TypeVal;
  I64T.TypeValue = TC.int64();
  I64T.Ty = TC.typeOfType(TC.int64());
  unsigned W = F.builtin(Builtin::SextInt, {cst(I64T), IRValue::ssa(T)},
                         {I64T.Ty, TC.int32()}, TC.int64(), 2);
  unsigned I = F.builtin(Builtin::AddInt, {IRValue::ssa(W), cst(intConst(1))},
                         {TC.int64(), TC.int64()}, TC.int64(), 2);
  F.builtin(Builtin::PointerSet, {IRValue::slot(1), IRValue::slot(2), IRValue::ssa(I)},
            {PF, TC.float32(), TC.int64()}, PF, 3);
  ConstValue Nothing;
  Nothing.K = ConstValue::Nothing;
  Nothing.Ty = TC.nothing();
  F.ret(cst(Nothing), TC.nothing(), 4);
  F.finish();
  CompileResult R = run(F, config(2, true), Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);

  auto JIT = llvm::orc::LLJITBuilder().create();
  ASSERT_TRUE(!!JIT) << llvm::toString(JIT.takeError());
  std::string Launch = R.LaunchSymbol;
  ASSERT_FALSE(!!(*JIT)->addIRModule(llvm::orc::ThreadSafeModule(
      std::move(R.Module), std::move(R.Context))));
  auto Sym = (*JIT)->lookup(Launch);
  ASSERT_TRUE(!!Sym) << llvm::toString(Sym.takeError());
  auto *Fn = Sym->toPtr<void (*)(const NativeKernelState *, void **, void *)>();

  float Out[4] = {0, 0, 0, 0};
  float *OutPtr = Out;
  float Value = 2.5f;
  void *Args[] = {&OutPtr, &Value};
  for (int Thread = 0; Thread < 4; ++Thread) {
    NativeKernelState S{};
    S.ThreadIdx[0] = Thread;
    S.BlockDim[0] = 4;
    S.GridDim[0] = 1;
    S.BlockDim[1] = S.BlockDim[2] = S.GridDim[1] = S.GridDim[2] = 1;
    if (Thread != 2)
      Fn(&S, Args, nullptr);
  }
  EXPECT_EQ(Out[0], 2.5f);
  EXPECT_EQ(Out[1], 2.5f);
  EXPECT_EQ(Out[2], 0.0f);
  EXPECT_EQ(Out[3], 2.5f);
}

TEST(Emitter, LaunchWrapperReturnsPlainFunctionResults) {
  Add1 A;
  CompileResult R = run(A.F, config(), Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  auto JIT = llvm::orc::LLJITBuilder().create();
  ASSERT_TRUE(!!JIT) << llvm::toString(JIT.takeError());
  std::string Launch = R.LaunchSymbol;
  ASSERT_FALSE(!!(*JIT)->addIRModule(llvm::orc::ThreadSafeModule(
      std::move(R.Module), std::move(R.Context))));
  auto Sym = (*JIT)->lookup(Launch);
  ASSERT_TRUE(!!Sym) << llvm::toString(Sym.takeError());
  auto *Fn = Sym->toPtr<void (*)(const NativeKernelState *, void **, void *)>();
  int64_t X = 41, Ret = 0;
  void *Args[] = {&X};
  Fn(nullptr, Args, &Ret);
  EXPECT_EQ(Ret, 42);
}
