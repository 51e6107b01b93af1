// Inference on the teaching examples and on small programs: return types,
// resolved invoke targets, Julia's promotion results, constant propagation,
// branch folding and recursion.
#include "InferTestUtil.h"

#include <algorithm>
#include <set>

using namespace prism;
using namespace prism::testing;

namespace {

TypeContext &ctx() { return TypeContext::get(); }

TEST_F(InferTest, SaxpyReturnsNothing) {
  loadExample("saxpy.jl");
  CodeInstance *CI = infer("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_NE(CI, nullptr);
  EXPECT_EQ(CI->ReturnType, ctx().nothing());
  EXPECT_TRUE(CI->Errors.empty());
  // The calls resolve statically; `@inbounds y[i]` gets the InBounds instance.
  MethodInstance *BI = findInvoke(*CI, "blockIdx");
  ASSERT_NE(BI, nullptr);
  MethodInstance *GI = findInvoke(*CI, "getindex");
  ASSERT_NE(GI, nullptr);
  EXPECT_TRUE(GI->InBounds);
  MethodInstance *SI = findInvoke(*CI, "setindex!");
  ASSERT_NE(SI, nullptr);
  EXPECT_TRUE(SI->InBounds);
  // `length(y)` is not under @inbounds and has no boundscheck anyway.
  MethodInstance *LI = findInvoke(*CI, "length");
  ASSERT_NE(LI, nullptr);
  EXPECT_FALSE(LI->InBounds);
  // Every value in saxpy! is concrete.
  for (Type *T : CI->Code->SlotTypes)
    EXPECT_TRUE(T->isConcrete() || T->isBottom()) << T->str();

  std::string S = typed(CI);
  EXPECT_NE(S.find("CodeInfo(\n1 ─ "), std::string::npos) << S;
  EXPECT_NE(S.find("invoke blockIdx()::Dim3"), std::string::npos) << S;
  EXPECT_NE(S.find("Base.getfield(%1, :x)::Int32"), std::string::npos) << S;
  uint32_t Line = 0;
  const SourceFile &F = *CI->Code->File;
  for (uint32_t L = 1; L <= F.lineCount() && !Line; ++L)
    if (F.lineText(L).find("blockIdx()") != std::string_view::npos)
      Line = L;
  EXPECT_NE(S.find("# saxpy.jl:" + std::to_string(Line) + "\n"), std::string::npos) << S;
  EXPECT_NE(S.find(") => Nothing\n"), std::string::npos) << S;
  EXPECT_NE(S.find("return nothing"), std::string::npos) << S;
}

TEST_F(InferTest, InBoundsInstanceFoldsTheBoundsCheck) {
  loadExample("saxpy.jl");
  CodeInstance *CI = infer("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_NE(CI, nullptr);
  MethodInstance *GI = findInvoke(*CI, "getindex");
  ASSERT_NE(GI, nullptr);
  CodeInstance *G = GI->cachedIn(Env.currentWorld());
  ASSERT_NE(G, nullptr);
  // boundscheck() is Const(false): checkbounds is never inferred or called.
  EXPECT_EQ(findInvoke(*G, "checkbounds"), nullptr) << typed(G);
  bool SawBoundsCheck = false;
  for (size_t PC = 0; PC < G->Code->Code.size(); ++PC)
    if (G->Code->Builtins[PC] == Builtin::BoundsCheck) {
      SawBoundsCheck = true;
      ASSERT_TRUE(G->Code->SSATypes[PC].Const);
      EXPECT_EQ(G->Code->SSATypes[PC].Const->Bits, 0u);
    }
  EXPECT_TRUE(SawBoundsCheck);

  // The non-inbounds instance does check.
  loadText("chk.jl", "get1(a::DeviceArray{Float32,1}, i::Int) = a[i]\n");
  CodeInstance *C2 = infer("get1(DeviceArray{Float32,1}, Int)");
  ASSERT_NE(C2, nullptr);
  MethodInstance *G2 = findInvoke(*C2, "getindex");
  ASSERT_NE(G2, nullptr);
  EXPECT_FALSE(G2->InBounds);
  EXPECT_NE(findInvoke(*G2->cachedIn(Env.currentWorld()), "checkbounds"), nullptr);
}

// Julia's --check-bounds: `no` drops the checks of code without @inbounds,
// `yes` keeps those of code with it; only `auto` tells the two apart.
TEST_F(InferTest, CheckBoundsModesOverrideInbounds) {
  loadExample("saxpy.jl"); // `@inbounds y[i] = a * x[i] + y[i]`
  loadText("chk.jl", "get1(a::DeviceArray{Float32,1}, i::Int) = a[i]\n");
  auto GetindexOf = [&](InferenceEngine &E, const std::string &Sig) {
    FunctionSpec FS = spec(Sig);
    auto R = E.inferToplevel({&FS, 1}, Env.currentWorld());
    EXPECT_TRUE(!!R) << renderAll(R.takeError());
    MethodInstance *GI = R ? findInvoke(*R->Roots.front(), "getindex") : nullptr;
    EXPECT_NE(GI, nullptr) << Sig;
    return GI;
  };
  const std::string Saxpy =
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  const std::string Get1 = "get1(DeviceArray{Float32,1}, Int)";
  auto Checks = [&](MethodInstance *GI) {
    return findInvoke(*GI->cachedIn(Env.currentWorld()), "checkbounds") !=
           nullptr;
  };

  InferenceEngine Off(Env, CheckBounds::No);
  EXPECT_EQ(Off.checkBounds(), CheckBounds::No);
  MethodInstance *G = GetindexOf(Off, Get1);
  ASSERT_NE(G, nullptr);
  EXPECT_FALSE(G->InBounds);
  EXPECT_FALSE(Checks(G));
  ASSERT_TRUE(GetindexOf(Off, Saxpy));
  EXPECT_FALSE(Checks(GetindexOf(Off, Saxpy)));
  // One instance serves both call sites: InBounds is not part of the key.
  EXPECT_EQ(GetindexOf(Off, Saxpy), G);

  InferenceEngine On(Env, CheckBounds::Yes);
  MethodInstance *S = GetindexOf(On, Saxpy);
  ASSERT_NE(S, nullptr);
  EXPECT_FALSE(S->InBounds);
  EXPECT_TRUE(Checks(S));
  EXPECT_TRUE(Checks(GetindexOf(On, Get1)));

  // The default engine: @inbounds decides.
  EXPECT_FALSE(Checks(GetindexOf(Engine, Saxpy)));
  EXPECT_TRUE(Checks(GetindexOf(Engine, Get1)));
}

TEST_F(InferTest, UnstableSumRowReportsUnion) {
  loadExample("unstable.jl");
  CodeInstance *CI = infer("sum_row(DeviceArray{Float32,2}, Int)");
  ASSERT_NE(CI, nullptr);
  EXPECT_EQ(CI->ReturnType->str(), "Union{Float32, Int64}");
  const TypedCode &C = *CI->Code;
  int Acc = -1;
  for (size_t I = 0; I < C.Slots.size(); ++I)
    if (C.Slots[I].Name.str() == "acc")
      Acc = static_cast<int>(I);
  ASSERT_GE(Acc, 0);
  EXPECT_EQ(C.SlotTypes[Acc]->str(), "Union{Float32, Int64}");
  ASSERT_NE(C.SlotFirstAssign[Acc], UINT32_MAX);
  // The line of `acc = 0` in the example.
  uint32_t AccLine = 0;
  for (uint32_t L = 1; L <= C.File->lineCount(); ++L)
    if (C.File->lineText(L).find("acc = 0") != std::string_view::npos)
      AccLine = L;
  ASSERT_NE(AccLine, 0u);
  EXPECT_EQ(DiagLoc::fromRange(C.File, C.Code[C.SlotFirstAssign[Acc]].Range).Line, AccLine);

  TypedPrintOptions W;
  W.WarnType = true;
  std::string S = typed(CI, W);
  EXPECT_NE(S.find("Arguments\n"), std::string::npos) << S;
  EXPECT_NE(S.find("Locals\n"), std::string::npos) << S;
  EXPECT_NE(S.find("  acc::!Union{Float32, Int64}!\n"), std::string::npos) << S;
  EXPECT_NE(S.find("Body::!Union{Float32, Int64}!\n"), std::string::npos) << S;
  EXPECT_NE(S.find("acc::Union{Float32, Int64}  (first assigned at unstable.jl:" +
                   std::to_string(AccLine)),
            std::string::npos)
      << S;
  W.Color = true;
  EXPECT_NE(typed(CI, W).find("\x1b[31mUnion{Float32, Int64}\x1b[39m"), std::string::npos);

  // The lowering's temporary for an `if` whose branches both return is
  // never assigned: not a local of the program, so not listed.
  loadText("pick.jl",
           "function pick(x::Int)\n  if x > 0\n    return 1\n  else\n"
           "    return 2\n  end\nend\n");
  W.Color = false;
  std::string P = typed(infer("pick(Int)"), W);
  EXPECT_EQ(P.find("Locals"), std::string::npos) << P;
}

TEST_F(InferTest, PromotionFollowsJulia) {
  loadText("promo.jl", R"(
mulf(a::Float32, b::Int64) = a * b
divi(a::Int, b::Int) = a / b
divi32(a::Int32, b::Int32) = a ÷ b
addmix(a::Int32, b::Int64) = a + b
tid() = threadIdx().x
conv(x::Float64) = Float32(x)
)");
  CodeInstance *M = infer("mulf(Float32, Int64)");
  ASSERT_NE(M, nullptr);
  EXPECT_EQ(M->ReturnType, ctx().float32());
  CodeInstance *D = infer("divi(Int, Int)");
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->ReturnType, ctx().float64());
  CodeInstance *D32 = infer("divi32(Int32, Int32)");
  ASSERT_NE(D32, nullptr);
  EXPECT_EQ(D32->ReturnType, ctx().int32());
  CodeInstance *A = infer("addmix(Int32, Int64)");
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->ReturnType, ctx().int64());
  CodeInstance *T = infer("tid()");
  ASSERT_NE(T, nullptr);
  EXPECT_EQ(T->ReturnType, ctx().int32());
  CodeInstance *C = infer("conv(Float64)");
  ASSERT_NE(C, nullptr);
  EXPECT_EQ(C->ReturnType, ctx().float32());
  // `Float32(x)` dispatches on Type{Float32}.
  bool SawCtor = false;
  for (MethodInstance *MI : C->Code->Invokes)
    if (MI && MI->Sig[0] == ctx().typeOfType(ctx().float32()))
      SawCtor = true;
  EXPECT_TRUE(SawCtor) << typed(C);
}

TEST_F(InferTest, ConstantPropagationReachesSharedArray) {
  loadText("shmem.jl", "shmem() = CuStaticSharedArray(Float32, 256)\n");
  CodeInstance *CI = infer("shmem()");
  ASSERT_NE(CI, nullptr);
  EXPECT_EQ(CI->ReturnType, arrayType(ctx().float32(), 1));
  MethodInstance *MI = findInvoke(*CI, "CuStaticSharedArray");
  ASSERT_NE(MI, nullptr);
  // The call keeps the constant-specialised instance: its body needs 256.
  ASSERT_TRUE(MI->isConstSpecialized());
  ASSERT_TRUE(MI->ConstArgs.at(2).has_value());
  EXPECT_EQ(MI->ConstArgs[2]->Const->asSigned(), 256);
  CodeInstance *Inner = MI->cachedIn(Env.currentWorld());
  ASSERT_NE(Inner, nullptr);
  EXPECT_TRUE(Inner->NeedsConstArgs);
  bool Found = false;
  for (size_t PC = 0; PC < Inner->Code->Code.size(); ++PC)
    if (Inner->Code->Builtins[PC] == Builtin::SharedArray) {
      Found = true;
      const auto &A = Inner->Code->ArgTypes[PC];
      ASSERT_EQ(A.size(), 3u);
      ASSERT_TRUE(A[2].Const);
      EXPECT_EQ(A[2].Const->asSigned(), 256);
      EXPECT_EQ(Inner->Code->SSATypes[PC].T, ctx().ptr(ctx().float32()));
    }
  EXPECT_TRUE(Found) << typed(Inner);
  // The constant-specialised instance is part of the closure codegen gets.
  InferResult R;
  infer("shmem()", &R);
  bool InAll = false;
  for (CodeInstance *C : R.All)
    InAll |= C->MI == MI;
  EXPECT_TRUE(InAll);
}

TEST_F(InferTest, PartiallyConstantTuplePropagatesToSharedArray) {
  // The 2-d form's dims are a tuple: constant propagation carries its
  // constant fields, so `dims[1] * dims[2]` folds to the 20 shared_array
  // needs.
  loadText("shmem2.jl", "shmem2() = CuStaticSharedArray(Float32, (4, 5))\n");
  CodeInstance *CI = infer("shmem2()");
  ASSERT_NE(CI, nullptr);
  EXPECT_EQ(CI->ReturnType, arrayType(ctx().float32(), 2));
  MethodInstance *MI = findInvoke(*CI, "CuStaticSharedArray");
  ASSERT_NE(MI, nullptr);
  ASSERT_TRUE(MI->isConstSpecialized());
  EXPECT_NE(MI->str().find("(4, 5)::Tuple{Int64, Int64}"), std::string::npos)
      << MI->str();
  CodeInstance *Inner = MI->cachedIn(Env.currentWorld());
  ASSERT_NE(Inner, nullptr);
  bool Found = false;
  for (size_t PC = 0; PC < Inner->Code->Code.size(); ++PC)
    if (Inner->Code->Builtins[PC] == Builtin::SharedArray) {
      const auto &A = Inner->Code->ArgTypes[PC];
      ASSERT_EQ(A.size(), 3u);
      ASSERT_TRUE(A[2].Const) << typed(Inner);
      EXPECT_EQ(A[2].Const->asSigned(), 20);
      Found = true;
    }
  EXPECT_TRUE(Found) << typed(Inner);
}

TEST_F(InferTest, ConstantIndexSelectsTupleField) {
  loadText("tup.jl", R"(
pick(t, d) = t[d]
second(t::Tuple{Int32,Float64}) = pick(t, 2)
anyfield(t::Tuple{Int32,Float64}, d::Int) = pick(t, d)
dim2(a::DeviceArray{Float32,2}) = size(a, 2)
)");
  CodeInstance *S = infer("second(Tuple{Int32,Float64})");
  ASSERT_NE(S, nullptr);
  EXPECT_EQ(S->ReturnType, ctx().float64());
  CodeInstance *A = infer("anyfield(Tuple{Int32,Float64}, Int)");
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->ReturnType->str(), "Union{Float64, Int32}");
  CodeInstance *D = infer("dim2(DeviceArray{Float32,2})");
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->ReturnType, ctx().int64());
}

// `%(-7, 3)` reaches `rem`, whose `zero(y)` calls `%(0, Int64)`: another
// instance of the method on the stack, which must still propagate (only a
// recursion of one instance stops it, as Julia's is_constprop_recursed).
TEST_F(InferTest, ConstantsPropagateThroughAnotherInstanceOfAnActiveMethod) {
  loadText("rem.jl", R"(
r() = -7 % 3
fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
f10() = fib(10)
)");
  CodeInstance *R = infer("r()");
  ASSERT_NE(R, nullptr);
  ASSERT_TRUE(R->ReturnConst) << R->ReturnType->str();
  EXPECT_EQ(R->ReturnConst->asSigned(), -1);
  // A recursion of one instance still stops: fib(10) is not unrolled.
  CodeInstance *F = infer("f10()");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->ReturnType, ctx().int64());
  EXPECT_FALSE(F->ReturnConst);
}

// f1 → f2 → f3 → {f1, f2}: f3's cycle is headed by f1, but it used f2's
// approximation, so when f2 iterates, f3 must be inferred again (it kept
// f2's first guess, Union{}, and its `+` was dead code).
TEST_F(InferTest, AThreeFunctionCycleReinfersTheInnerMember) {
  loadText("cyc.jl", R"(
f1(n) = n <= 0 ? 0 : f2(n - 1)
f2(n) = n <= 0 ? 1 : f3(n - 1)
f3(n) = n <= 0 ? 2 : f1(n - 1) + f2(n - 1)
g(x::Int) = f1(x)
)");
  InferResult R;
  ASSERT_NE(infer("g(Int)", &R), nullptr);
  bool SawF3 = false;
  for (CodeInstance *CI : R.All) {
    ASSERT_NE(CI->ReturnType, ctx().bottom()) << CI->MI->str();
    if (CI->MI->Def->Name.str() != "f3")
      continue;
    SawF3 = true;
    // Every call in f3 returns an Int64: none was left Union{}.
    for (size_t PC = 0; PC < CI->Code->Code.size(); ++PC)
      if (CI->Code->Invokes[PC])
        EXPECT_NE(CI->Code->SSATypes[PC].T, ctx().bottom())
            << "statement " << PC + 1 << " of " << CI->MI->str();
  }
  EXPECT_TRUE(SawF3);
}

TEST_F(InferTest, ConstantBranchesFoldAndDeadCodeIsNotInferred) {
  loadText("fold.jl", R"(
function f()
    if 1 < 2
        return 1
    else
        return undefined_name
    end
end
g() = 3 * 4 + 1
)");
  CodeInstance *F = infer("f()");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->ReturnType, ctx().int64());
  ASSERT_TRUE(F->ReturnConst);
  EXPECT_EQ(F->ReturnConst->asSigned(), 1);
  EXPECT_TRUE(F->Errors.empty());
  // The dead branch is gone (Nop) and no statement there was typed.
  bool HasNop = false;
  for (const Stmt &S : F->Code->Code)
    HasNop |= S.K == StmtKind::Nop;
  EXPECT_TRUE(HasNop);
  CodeInstance *G = infer("g()");
  ASSERT_NE(G, nullptr);
  ASSERT_TRUE(G->ReturnConst);
  EXPECT_EQ(G->ReturnConst->asSigned(), 13);
}

TEST_F(InferTest, ThrowIsBottomAndCodeAfterItUnreachable) {
  loadText("thr.jl", R"(
function t(x::Int)
    throw(DivideError())
    return x + 1
end
)");
  CodeInstance *CI = infer("t(Int)");
  ASSERT_NE(CI, nullptr);
  EXPECT_TRUE(CI->ReturnType->isBottom());
  bool SawThrow = false;
  for (size_t PC = 0; PC < CI->Code->Code.size(); ++PC)
    if (CI->Code->Builtins[PC] == Builtin::Throw) {
      SawThrow = true;
      EXPECT_TRUE(CI->Code->SSATypes[PC].isBottom());
    }
  EXPECT_TRUE(SawThrow);
  for (const Stmt &S : CI->Code->Code)
    EXPECT_NE(S.K, StmtKind::Return);
}

TEST_F(InferTest, RecursionConverges) {
  loadText("rec.jl", R"(
fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
iseven2(n) = n == 0 ? true : isodd2(n - 1)
isodd2(n) = n == 0 ? false : iseven2(n - 1)
)");
  CodeInstance *F = infer("fib(Int)");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->ReturnType, ctx().int64());
  EXPECT_NE(findInvoke(*F, "fib"), nullptr);
  CodeInstance *E = infer("iseven2(Int)");
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(E->ReturnType, ctx().boolTy());
  // The cycle's members were published once each.
  MethodInstance *Odd = findInvoke(*E, "isodd2");
  ASSERT_NE(Odd, nullptr);
  EXPECT_EQ(Odd->codeInstances().size(), 1u);
  EXPECT_EQ(Odd->cachedIn(Env.currentWorld())->ReturnType, ctx().boolTy());
}

TEST_F(InferTest, GrowingRecursionTerminatesWithDiagnostic) {
  loadText("grow.jl", "grow(x) = grow((x,))\n");
  std::vector<Diagnostic> D = inferErrors("grow(Int)");
  ASSERT_FALSE(D.empty());
  EXPECT_TRUE(D[0].Message.find("nest more than") != std::string::npos ||
              D[0].Message.find("calls deep") != std::string::npos)
      << D[0].Message;
}

TEST_F(InferTest, FunctionValuedArgumentsDispatchStatically) {
  loadExample("map.jl");
  CodeInstance *CI = infer("map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_NE(CI, nullptr);
  EXPECT_EQ(CI->ReturnType, ctx().nothing());
  MethodInstance *Sq = findInvoke(*CI, "square");
  ASSERT_NE(Sq, nullptr);
  EXPECT_EQ(Sq->Sig.at(1), ctx().float32());
  EXPECT_EQ(Sq->cachedIn(Env.currentWorld())->ReturnType, ctx().float32());
}

TEST_F(InferTest, OptimizedCodeInlinesWithStacks) {
  loadExample("saxpy.jl");
  CodeInstance *CI = infer("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_NE(CI, nullptr);
  auto Opt = Engine.optimizedCode(CI);
  ASSERT_NE(Opt, nullptr);
  EXPECT_EQ(Opt, Engine.optimizedCode(CI)); // cached
  size_t N = Opt->Code.size();
  ASSERT_EQ(Opt->SSATypes.size(), N);
  ASSERT_EQ(Opt->InlineStacks.size(), N);
  ASSERT_EQ(Opt->StmtFiles.size(), N);
  // @inline prelude methods are gone; their statements carry their stacks.
  bool Inlined = false, PointerRef = false;
  for (size_t PC = 0; PC < N; ++PC) {
    EXPECT_NE(Opt->Code[PC].K, StmtKind::Nop);
    if (Opt->Invokes[PC]) {
      EXPECT_NE(Opt->Invokes[PC]->Def->Name.str(), "getindex");
      EXPECT_NE(Opt->Invokes[PC]->Def->Name.str(), "blockIdx");
    }
    if (!Opt->InlineStacks[PC].empty()) {
      Inlined = true;
      EXPECT_EQ(Opt->InlineStacks[PC].front().File->name(), "saxpy.jl");
      EXPECT_NE(Opt->StmtFiles[PC], nullptr);
    }
    PointerRef |= Opt->Builtins[PC] == Builtin::PointerRef;
  }
  EXPECT_TRUE(Inlined);
  EXPECT_TRUE(PointerRef);
  std::string S = printTyped(*CI, *Opt);
  EXPECT_NE(S.find("Base.pointerref("), std::string::npos) << S;
}

TEST_F(InferTest, OptimizedCodeUsesArgumentsAndResultsDirectly) {
  // As Julia's inliner does: a callee's arguments are the caller's values
  // and a single returned value is the call's value, with no slots between.
  loadText("direct.jl", "twice(x) = x * 2\nk(i) = twice(i) + 1\n");
  CodeInstance *CI = infer("k(Int)");
  ASSERT_NE(CI, nullptr);
  auto Opt = Engine.optimizedCode(CI);
  ASSERT_NE(Opt, nullptr);
  std::string S = printTyped(*CI, *Opt);
  ASSERT_EQ(Opt->Code.size(), 3u) << S;
  for (const Stmt &St : Opt->Code)
    EXPECT_NE(St.K, StmtKind::Assign) << S;
  EXPECT_EQ(Opt->Builtins[0], Builtin::MulInt) << S;
  EXPECT_EQ(Opt->Code[0].Args[1].K, IRValue::Slot) << S; // `i` itself
  EXPECT_EQ(Opt->Builtins[1], Builtin::AddInt) << S;
  EXPECT_EQ(Opt->Code[1].Args[1].K, IRValue::SSA) << S;
  EXPECT_EQ(Opt->Code[1].Args[1].Index, 0u) << S;
  EXPECT_EQ(Opt->Code[2].K, StmtKind::Return) << S;
}

TEST_F(InferTest, InlinedSlotsWithTheCallersNamesPrintApart) {
  // count_up's loop variable `x`, inlined into k beside k's own `x`: as
  // Julia's sourceinfo_slotnames, each slot of a shared name prints as
  // `x@_N` (N its slot number); names used once stay plain.
  loadText("dup.jl", "function count_up(n)\n  x = 0\n  while x < n\n    x += 1\n"
                     "  end\n  return x\nend\n"
                     "function k(n)\n  x = n * 2\n  if n > 3\n    x = n\n  end\n"
                     "  return count_up(x) + x\nend\n");
  CodeInstance *CI = infer("k(Int)");
  ASSERT_NE(CI, nullptr);
  auto Opt = Engine.optimizedCode(CI);
  ASSERT_NE(Opt, nullptr);
  std::string S = printTyped(*CI, *Opt);
  EXPECT_EQ(S.find(" x = "), std::string::npos) << S;
  std::set<std::string> Xs;
  for (size_t At = S.find("x@_"); At != std::string::npos; At = S.find("x@_", At + 1))
    Xs.insert(S.substr(At, S.find_first_not_of("0123456789", At + 3) - At));
  EXPECT_GE(Xs.size(), 2u) << S;
  // k's own `x` is slot 3 (after #self# and n).
  EXPECT_TRUE(Xs.count("x@_3")) << S;
  // The unoptimised code has one `x`: no suffix.
  std::string Plain = printTyped(*CI, *CI->Code);
  EXPECT_NE(Plain.find(" x = "), std::string::npos) << Plain;
  EXPECT_EQ(Plain.find("@_"), std::string::npos) << Plain;
}

TEST_F(InferTest, OptimizerLeavesMaybeUnassignedLocalsInTheirOwnCall) {
  // Inlined into a loop, `v` would keep the first call's value where the
  // second call must throw UndefVarError.
  loadText("maybe.jl", "function pick(c)\n  if c\n    v = 7\n  end\n  return v\nend\n"
                       "k(c) = pick(c) + 1\n");
  CodeInstance *CI = infer("k(Bool)");
  ASSERT_NE(CI, nullptr);
  auto Opt = Engine.optimizedCode(CI);
  ASSERT_NE(Opt, nullptr);
  EXPECT_NE(std::find_if(Opt->Invokes.begin(), Opt->Invokes.end(),
                         [](MethodInstance *MI) {
                           return MI && MI->Def->Name.str() == "pick";
                         }),
            Opt->Invokes.end())
      << printTyped(*CI, *Opt);
}

TEST_F(InferTest, AVariableReassignedAnotherTypeIsTwoVariables) {
  // CUDA.jl's `i = threadIdx().x; i = i + ...` stores an Int32, then an
  // Int64. No read sees both, so they are two variables (Julia's SSA
  // conversion), each concrete; a read that sees both keeps one Union.
  loadText("webs.jl",
           "function k(n::Int32)\n  i = n\n  i = i + 1\n  return i\nend\n"
           "function a(n::Int32)\n  n = n * 2\n  return n\nend\n"
           "function l(n::Int)\n  x = 0\n  for j in 1:n\n"
           "    x = x + 0.5\n  end\n  return x\nend\n");
  auto Locals = [&](const char *Sig) {
    std::string S;
    CodeInstance *CI = infer(Sig);
    if (!CI)
      return std::string("no code");
    for (size_t I = 1; I < CI->Code->Slots.size(); ++I)
      S += std::string(I > 1 ? " " : "") +
           std::string(CI->Code->Slots[I].Name.str()) +
           "::" + CI->Code->SlotTypes[I]->str();
    return S;
  };
  EXPECT_EQ(Locals("k(Int32)"), "n::Int32 i::Int32 i::Int64");
  // An argument's own value keeps its slot; the reassignment is a local.
  EXPECT_EQ(Locals("a(Int32)"), "n::Int32 n::Int64");
  EXPECT_NE(Locals("l(Int)").find("x::Union{Float64, Int64}"),
            std::string::npos)
      << Locals("l(Int)");
  CodeInstance *K = infer("k(Int32)");
  ASSERT_NE(K, nullptr);
  EXPECT_EQ(K->ReturnType, ctx().int64());
  EXPECT_NE(typed(K).find("i@_3 = "), std::string::npos) << typed(K);
}

TEST_F(InferTest, InlinedCodeReadsACertainlyAssignedLocalDirectly) {
  // `a` is assigned twice, so it stays a slot; at the call it is certainly
  // assigned and add1 cannot change it, so the inlined `x + 1` reads `a`
  // itself (no `x = a` copy, as Julia's SSA form would show). Where `a`
  // may be unassigned (k2) or its slot's type is wider than what the
  // callee was inferred for (k3: one variable, as the last read sees both
  // assignments, but the call sees only the Int64), the copy stays: the
  // UndefVarError check happens once, at the call, and the callee's code
  // gets its own type.
  loadText("direct.jl",
           "add1(x) = x + 1\n"
           "function k(n)\n  a = n * 2\n  if n > 3\n    a = n\n  end\n"
           "  return add1(a)\nend\n"
           "function k2(n)\n  if n > 3\n    a = n\n  end\n"
           "  return add1(a)\nend\n"
           "function k3(n)\n  a = nothing\n  if n > 3\n    a = n\n"
           "    r = add1(a)\n  else\n    r = 0\n  end\n"
           "  return (a === nothing) + r\nend\n");
  auto AddReads = [&](const char *Sig) -> std::string {
    CodeInstance *CI = infer(Sig);
    if (!CI)
      return "no code";
    auto Opt = Engine.optimizedCode(CI);
    if (!Opt)
      return "no optimised code";
    for (size_t PC = 0; PC < Opt->Code.size(); ++PC)
      if (Opt->Builtins[PC] == Builtin::AddInt) {
        const IRValue &V = Opt->Code[PC].Args[1];
        if (V.K != IRValue::Slot)
          return "not a slot: " + printTyped(*CI, *Opt);
        return std::string(Opt->Slots[V.Index].Name.str());
      }
    return "no add_int: " + printTyped(*CI, *Opt);
  };
  EXPECT_EQ(AddReads("k(Int)"), "a");
  EXPECT_EQ(AddReads("k2(Int)"), "x");
  EXPECT_EQ(AddReads("k3(Int)"), "x");
}

TEST_F(InferTest, InliningJudgesTheCalleesOptimisedSize) {
  // folds' body has 27 statements as inferred, over the threshold of 24,
  // but every one of them but the last add folds to a constant: optimised
  // it is 2 statements, and that is the size Julia's inliner (and ours)
  // judges.
  loadText("folds.jl",
           "function folds(x::Int)\n  k = 3\n  a = k * 2\n  b = a + 1\n"
           "  c = b * 3\n  d = c - 4\n  e = d + a\n  f = e * b\n  g = f - c\n"
           "  h = g + d\n  m = h * 2\n  n = m - a\n  p = n + b\n  q = p * c\n"
           "  return x + q\nend\ntop(x::Int) = folds(x) + 1\n");
  CodeInstance *Folds = infer("folds(Int)");
  ASSERT_NE(Folds, nullptr);
  size_t Raw = 0;
  for (const Stmt &S : Folds->Code->Code)
    Raw += S.K != StmtKind::Nop;
  EXPECT_GT(Raw, 24u);
  CodeInstance *CI = infer("top(Int)");
  ASSERT_NE(CI, nullptr);
  auto Opt = Engine.optimizedCode(CI);
  ASSERT_NE(Opt, nullptr);
  std::string S = printTyped(*CI, *Opt);
  EXPECT_EQ(S.find("invoke"), std::string::npos) << S;
  EXPECT_NE(S.find("add_int(x, 6615)"), std::string::npos) << S;
  auto D = std::find_if(Opt->Inlining.begin(), Opt->Inlining.end(),
                        [](const InlineDecision &D) {
                          return D.Callee && D.Callee->Def->Name.str() == "folds";
                        });
  ASSERT_NE(D, Opt->Inlining.end());
  EXPECT_TRUE(D->Inlined);
  EXPECT_EQ(D->why(), "2 statements, within the threshold of 24");
}

TEST_F(InferTest, OptimizeForCodegenKeepsOnlyWhatIsStillCalled) {
  loadExample("inlining.jl");
  FunctionSpec Spec = spec("inline_demo(DeviceArray{Float32,1})");
  auto R = Engine.inferToplevel({&Spec, 1}, Env.currentWorld());
  ASSERT_TRUE(!!R) << llvm::toString(R.takeError());
  InferResult Opt = Engine.optimizeForCodegen(*R);
  ASSERT_EQ(Opt.Roots, R->Roots);
  ASSERT_EQ(Opt.Codes.size(), Opt.All.size());
  EXPECT_LT(Opt.All.size(), R->All.size());
  std::set<std::string> Names;
  for (CodeInstance *CI : Opt.All)
    Names.insert(std::string(CI->MI->Def->Name.str()));
  // The entry and `@noinline kept`; `kept`'s `*` and `+` were inlined.
  EXPECT_EQ(Names, (std::set<std::string>{"inline_demo", "kept"}));
  EXPECT_EQ(Opt.All[0], R->Roots[0]);
}

TEST_F(InferTest, OptimizedCodePropagatesWhatInliningRevealed) {
  // After inlining, the prelude's checks see constants and repeated values:
  // `Int32 → Int64` conversions of constants cannot fail, `blockIdx().x`
  // needs no Dim3, `x[i]` and `y[i] = ...` share one bounds-free index. What
  // is left of saxpy! is its arithmetic, two loads and a store.
  loadExample("saxpy.jl");
  CodeInstance *CI = infer("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_NE(CI, nullptr);
  auto Opt = Engine.optimizedCode(CI);
  ASSERT_NE(Opt, nullptr);
  std::string S = printTyped(*CI, *Opt);
  unsigned Throws = 0, News = 0, Loads = 0, Stores = 0, Invokes = 0;
  for (size_t PC = 0; PC < Opt->Code.size(); ++PC) {
    Throws += Opt->Builtins[PC] == Builtin::Throw;
    News += Opt->Builtins[PC] == Builtin::New;
    Loads += Opt->Builtins[PC] == Builtin::PointerRef;
    Stores += Opt->Builtins[PC] == Builtin::PointerSet;
    Invokes += Opt->Invokes[PC] != nullptr;
  }
  EXPECT_EQ(Throws, 0u) << S;
  EXPECT_EQ(News, 0u) << S;
  EXPECT_EQ(Loads, 2u) << S;
  EXPECT_EQ(Stores, 1u) << S;
  EXPECT_EQ(Invokes, 0u) << S;
  EXPECT_LT(Opt->Code.size(), 50u) << S;
}

TEST_F(InferTest, OptimizedCodeFoldsBranchesOnPropagatedConstants) {
  loadText("fold.jl", "pick(c, a, b) = c ? a : b\n"
                      "k(x) = pick(x > x, 1, 2) + pick(true, x, 0)\n");
  CodeInstance *CI = infer("k(Int)");
  ASSERT_NE(CI, nullptr);
  auto Opt = Engine.optimizedCode(CI);
  ASSERT_NE(Opt, nullptr);
  std::string S = printTyped(*CI, *Opt);
  // `x > x` is false for integers: the first pick is 2, the second `x`.
  for (const Stmt &St : Opt->Code)
    EXPECT_NE(St.K, StmtKind::GotoIfNot) << S;
  EXPECT_NE(S.find("Base.add_int(2, x)"), std::string::npos) << S;
}

} // namespace

