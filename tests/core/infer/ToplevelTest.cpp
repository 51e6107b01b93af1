// The batch entry point (closure through Edges), invalidation after
// redefinitions, concurrent inference, and user errors as diagnostics.
#include "InferTestUtil.h"

#include "llvm/ADT/STLExtras.h"

#include <set>
#include <thread>

using namespace prism;
using namespace prism::testing;

namespace {

TypeContext &ctx() { return TypeContext::get(); }

TEST_F(InferTest, ClosureIsExactlyTheCalledInstances) {
  loadExample("map.jl");
  InferResult R;
  CodeInstance *Root =
      infer("map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})", &R);
  ASSERT_NE(Root, nullptr);
  ASSERT_EQ(R.Roots.size(), 1u);
  ASSERT_FALSE(R.All.empty());
  EXPECT_EQ(R.All.front(), Root);
  // Each once.
  std::set<CodeInstance *> Unique(R.All.begin(), R.All.end());
  EXPECT_EQ(Unique.size(), R.All.size());
  // Exactly the instances reachable through the invokes of the typed code.
  std::set<MethodInstance *> Reached{Root->MI};
  std::vector<CodeInstance *> Todo{Root};
  while (!Todo.empty()) {
    CodeInstance *C = Todo.back();
    Todo.pop_back();
    EXPECT_EQ(std::set<MethodInstance *>(C->Edges.begin(), C->Edges.end()),
              [&] {
                auto V = invokedInstances(*C);
                return std::set<MethodInstance *>(V.begin(), V.end());
              }())
        << C->MI->str();
    for (MethodInstance *MI : C->Edges)
      if (Reached.insert(MI).second)
        Todo.push_back(MI->cachedIn(R.W));
  }
  std::set<MethodInstance *> InAll;
  for (CodeInstance *C : R.All)
    InAll.insert(C->MI);
  EXPECT_EQ(InAll, Reached);
  std::set<std::string> Names;
  for (CodeInstance *C : R.All)
    Names.insert(std::string(C->MI->Def->Name.str()));
  EXPECT_TRUE(Names.count("map!"));
  EXPECT_TRUE(Names.count("square"));
  EXPECT_TRUE(Names.count("getindex"));
  EXPECT_FALSE(Names.count("halve"));
  // Callers before callees: every non-root has a caller earlier in All.
  for (size_t I = 1; I < R.All.size(); ++I) {
    bool HasEarlierCaller = false;
    for (size_t J = 0; J < I; ++J)
      for (MethodInstance *E : R.All[J]->Edges)
        HasEarlierCaller |= E == R.All[I]->MI;
    EXPECT_TRUE(HasEarlierCaller) << R.All[I]->MI->str();
  }
  // Backedges point from callees to their callers.
  MethodInstance *Sq = findInvoke(*Root, "square");
  ASSERT_NE(Sq, nullptr);
  auto BE = Sq->backedges();
  EXPECT_NE(std::find(BE.begin(), BE.end(), Root), BE.end());
}

TEST_F(InferTest, CachedCodeInstancesAreReused) {
  loadExample("saxpy.jl");
  CodeInstance *A = infer("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  CodeInstance *B = infer("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A, B);
  EXPECT_EQ(A->MI->codeInstances().size(), 1u);
  EXPECT_TRUE(A->validIn(Env.currentWorld()));
}

TEST_F(InferTest, RedefiningACalleeInvalidatesTheCaller) {
  loadText("k.jl", "child(i) = i + 1\nkernel(i) = child(i) + 1\n");
  CodeInstance *K1 = infer("kernel(Int)");
  ASSERT_NE(K1, nullptr);
  MethodInstance *C1 = findInvoke(*K1, "child");
  ASSERT_NE(C1, nullptr);
  ASSERT_TRUE(K1->ReturnType == ctx().int64());

  // An unrelated definition touches nothing.
  LoadResult U = loadText("u.jl", "unrelated(x) = x * 2\n");
  std::vector<CodeInstance *> None = Engine.invalidate(U);
  EXPECT_TRUE(None.empty());
  EXPECT_EQ(K1->MaxWorld.load(), WorldInfinity);
  EXPECT_EQ(infer("kernel(Int)"), K1);

  // Redefining child caps the kernel's CodeInstance.
  LoadResult L = loadText("k2.jl", "child(i) = i * 2.0\n");
  ASSERT_FALSE(L.Added.empty());
  std::vector<Invalidation> Why = Engine.invalidateExplained(L);
  ASSERT_FALSE(Why.empty());
  EXPECT_EQ(Why[0].Cause, "its method was redefined");
  EXPECT_TRUE(llvm::any_of(Why, [&](const Invalidation &I) {
    return I.CI == K1 && I.Via && I.Via->MI == C1;
  }));
  EXPECT_EQ(K1->MaxWorld.load(), L.Added[0]->PrimaryWorld - 1);
  EXPECT_FALSE(K1->validIn(Env.currentWorld()));
  // The old world still sees the old code.
  EXPECT_TRUE(K1->validIn(L.Added[0]->PrimaryWorld - 1));

  CodeInstance *K2 = infer("kernel(Int)");
  ASSERT_NE(K2, nullptr);
  EXPECT_NE(K2, K1);
  EXPECT_EQ(K2->MI, K1->MI);
  MethodInstance *C2 = findInvoke(*K2, "child");
  ASSERT_NE(C2, nullptr);
  EXPECT_EQ(C2->Def, L.Added[0]);
  EXPECT_EQ(K2->ReturnType, ctx().float64());
}

TEST_F(InferTest, MoreSpecificMethodInvalidatesDependents) {
  loadText("k.jl", "child(i) = i + 1\nkernel(i) = child(i) + 1\nother(i) = i\n");
  CodeInstance *K1 = infer("kernel(Int)");
  CodeInstance *O1 = infer("other(Int)");
  ASSERT_NE(K1, nullptr);
  LoadResult L = loadText("k3.jl", "child(i::Int64) = i - 1\n");
  std::vector<Invalidation> Inv = Engine.invalidateExplained(L);
  // The tree: child(Int64)'s instance (dispatch now picks the new method),
  // then the kernel through its backedge.
  ASSERT_EQ(Inv.size(), 2u);
  EXPECT_EQ(Inv[0].CI->MI->Def->Name.str(), "child");
  EXPECT_EQ(Inv[0].Via, nullptr);
  EXPECT_EQ(Inv[0].Cause, "dispatch now picks " + L.Added[0]->signatureString());
  EXPECT_EQ(Inv[1].CI, K1);
  EXPECT_EQ(Inv[1].Via, Inv[0].CI);
  EXPECT_TRUE(Inv[1].Cause.empty());
  EXPECT_EQ(infer("other(Int)"), O1);
  // A method for another signature leaves the kernel alone.
  CodeInstance *K2 = infer("kernel(Int)");
  LoadResult L2 = loadText("k4.jl", "child(i::Float32) = i\n");
  EXPECT_TRUE(Engine.invalidate(L2).empty());
  EXPECT_EQ(infer("kernel(Int)"), K2);
}

// Julia's abstract call inference: a call on an abstract type reaches at
// most three methods, and its type is the union of theirs; a method that
// may be reached later invalidates the caller, one that may not leaves it.
TEST_F(InferTest, AnAbstractCallIsTheUnionOfTheMethodsItMayReach) {
  loadExample("dispatch.jl");
  CodeInstance *T1 = infer("total(Shape, Float64)");
  ASSERT_NE(T1, nullptr);
  // area(::Square) → Float64, area(::Circle) → Float32, area(::Shape) →
  // Float64; scaled(Union{Float32, Float64}, Float64) splits to Float64.
  EXPECT_EQ(T1->ReturnType->str(), "Float64");
  const TypedCode &C = *T1->Code;
  bool SawUnion = false;
  for (const LatticeType &L : C.SSATypes)
    SawUnion |= L.T && L.T->str() == "Union{Float32, Float64}";
  EXPECT_TRUE(SawUnion);

  // Not reachable from a Shape: the caller stays.
  LoadResult L = loadText("more.jl", "area(x::Int64) = 1\n");
  EXPECT_TRUE(Engine.invalidate(L).empty());
  EXPECT_EQ(infer("total(Shape, Float64)"), T1);
  // A fourth method for a Shape: past max_methods the call is Any again,
  // and the caller is invalidated.
  LoadResult L2 = loadText(
      "tri.jl", "struct Tri <: Shape\n    s::Int64\nend\narea(t::Tri) = t.s\n");
  std::vector<Invalidation> Inv = Engine.invalidateExplained(L2);
  EXPECT_TRUE(
      llvm::any_of(Inv, [&](const Invalidation &I) { return I.CI == T1; }));
  CodeInstance *T2 = infer("total(Shape, Float64)");
  ASSERT_NE(T2, nullptr);
  EXPECT_NE(T2, T1);
  EXPECT_EQ(T2->ReturnType->str(), "Any");
}

// The engine keeps the method lookups of the world it infers in: a new
// method, or inference in another world, must not be answered from it.
TEST_F(InferTest, MethodLookupsAreRememberedOnlyWithinTheirWorld) {
  loadText("k.jl", "child(i) = i + 1\nkernel(i) = child(i) + child(i + 1)\n");
  World Before = Env.currentWorld();
  CodeInstance *K1 = infer("kernel(Int)");
  ASSERT_NE(K1, nullptr);
  auto ChildMethod = [](const CodeInstance *CI) {
    for (MethodInstance *E : CI->Edges)
      if (E->Def->Name.str() == "child")
        return E->Def;
    return static_cast<Method *>(nullptr);
  };
  Method *Generic = ChildMethod(K1);
  ASSERT_NE(Generic, nullptr);
  LoadResult L = loadText("k2.jl", "child(i::Int64) = i - 1\n");
  Engine.invalidate(L);
  CodeInstance *K2 = infer("kernel(Int)");
  ASSERT_NE(K2, nullptr);
  EXPECT_NE(K2, K1);
  EXPECT_EQ(ChildMethod(K2), L.Added.at(0));
  // Back in the world before the method: the generic one, as before.
  FunctionSpec S = spec("kernel(Int)");
  auto Old = Engine.inferToplevel({&S, 1}, Before);
  ASSERT_TRUE(bool(Old)) << renderAll(Old.takeError());
  EXPECT_EQ(Old->Roots.at(0), K1);
  EXPECT_EQ(ChildMethod(Old->Roots.at(0)), Generic);
  // A new callee instance in the old world goes through lookup again.
  FunctionSpec S2 = spec("child(Int)");
  auto OldChild = Engine.inferToplevel({&S2, 1}, Before);
  ASSERT_TRUE(bool(OldChild)) << renderAll(OldChild.takeError());
  EXPECT_EQ(OldChild->Roots.at(0)->MI->Def, Generic);
}

TEST_F(InferTest, DefiningAnUndefinedNameInvalidatesItsUsers) {
  loadText("k.jl", "broken(x) = later(x) + 1\n");
  EXPECT_FALSE(inferErrors("broken(Int64)").empty());
  LoadResult L = loadText("k2.jl", "later(x) = x * 2\n");
  std::vector<Invalidation> Inv = Engine.invalidateExplained(L);
  ASSERT_EQ(Inv.size(), 1u);
  EXPECT_EQ(Inv[0].Cause, "it called `later`, undefined until now");
  CodeInstance *CI = infer("broken(Int64)");
  ASSERT_NE(CI, nullptr);
  EXPECT_TRUE(CI->Errors.empty());
  EXPECT_EQ(CI->ReturnType, ctx().int64());
}

TEST_F(InferTest, ConcurrentInferenceInfersEachInstanceOnce) {
  loadExample("saxpy.jl");
  loadExample("map.jl");
  loadExample("reduce.jl");
  std::vector<FunctionSpec> Specs = {
      spec("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})"),
      spec("map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})"),
      spec("block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})"),
  };
  World W = Env.currentWorld();
  std::vector<std::vector<CodeInstance *>> Roots(8);
  std::vector<std::string> Errors(8);
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < 8; ++T)
    Threads.emplace_back([&, T] {
      // Overlapping, differently ordered requests.
      std::vector<FunctionSpec> Mine{Specs[T % 3], Specs[(T + 1) % 3]};
      auto R = Engine.inferToplevel(Mine, W);
      if (!R) {
        Errors[T] = renderAll(R.takeError());
        return;
      }
      Roots[T] = R->Roots;
    });
  for (std::thread &T : Threads)
    T.join();
  std::set<CodeInstance *> All;
  for (unsigned T = 0; T < 8; ++T) {
    EXPECT_EQ(Errors[T], "");
    ASSERT_EQ(Roots[T].size(), 2u);
    All.insert(Roots[T].begin(), Roots[T].end());
  }
  EXPECT_EQ(All.size(), 3u);
  for (CodeInstance *C : All) {
    EXPECT_EQ(C->MI->codeInstances().size(), 1u) << C->MI->str();
    for (MethodInstance *E : C->Edges)
      EXPECT_EQ(E->codeInstances().size(), 1u) << E->str();
  }
}

TEST_F(InferTest, NoMethodErrorHasLineCandidatesAndBacktrace) {
  loadText("err.jl", R"(foo(a::Int, b::Int) = a
function bad(x::Float32)
    return foo(x, 1)
end
outer(x::Float32) = bad(x) + 1
)");
  std::vector<Diagnostic> D = inferErrors("outer(Float32)");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Kind, "no-method");
  EXPECT_EQ(D[0].Message, "no method matching foo(::Float32, ::Int64)");
  EXPECT_EQ(D[0].Loc.Line, 3u);
  bool Candidate = false;
  for (const DiagNote &N : D[0].Notes)
    Candidate |= N.Message.find("foo(a::Int64, b::Int64)") != std::string::npos ||
                 N.Message.find("foo(") != std::string::npos;
  EXPECT_TRUE(Candidate);
  ASSERT_EQ(D[0].Backtrace.size(), 2u);
  EXPECT_EQ(D[0].Backtrace[0].Function, "bad");
  EXPECT_EQ(D[0].Backtrace[0].Loc.Line, 3u);
  EXPECT_EQ(D[0].Backtrace[1].Function, "outer");
  EXPECT_EQ(D[0].Backtrace[1].Loc.Line, 5u);
}

TEST_F(InferTest, UndefinedNameIsReportedWithItsLine) {
  loadText("undef.jl", "function u(x)\n    y = x + 1\n    return y + not_a_thing\nend\n");
  std::vector<Diagnostic> D = inferErrors("u(Int)");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Message, "`not_a_thing` not defined");
  EXPECT_EQ(D[0].Loc.Line, 3u);
}

// Structs are immutable: assigning a field is an error of the function
// that does it, not of the whole file.
TEST_F(InferTest, FieldAssignmentIsAnErrorOfItsFunction) {
  loadText("set.jl", R"(struct P
    x::Int
end
function bump(p::P)
    p.x += 1
    return p
end
untouched(p::P) = p.x
wrong(p::P) = (p.y = 1)
)");
  std::vector<Diagnostic> D = inferErrors("bump(P)");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Message,
            "cannot assign to field `x`: P is immutable, as every struct in "
            "kernels is; build a new value instead (Julia: setfield!: "
            "immutable struct of type P cannot be changed)");
  EXPECT_EQ(D[0].Loc.Line, 5u);
  EXPECT_EQ(D[0].Loc.Col, 5u);
  EXPECT_NE(infer("untouched(P)"), nullptr);
  D = inferErrors("wrong(P)");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Message, "type P has no field y");
}

TEST_F(InferTest, AmbiguityNamesBothMethods) {
  loadText("amb.jl", "amb(a::Int, b) = 1\namb(a, b::Int) = 2\ncallamb() = amb(1, 2)\n");
  std::vector<Diagnostic> D = inferErrors("callamb()");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Kind, "ambiguous");
  EXPECT_EQ(D[0].Loc.Line, 3u);
  std::string Notes;
  for (const DiagNote &N : D[0].Notes)
    Notes += N.Message + "\n";
  EXPECT_NE(Notes.find("amb.jl:1"), std::string::npos) << Notes;
  EXPECT_NE(Notes.find("amb.jl:2"), std::string::npos) << Notes;
}

TEST_F(InferTest, NonConcreteValuesAreNotInferenceErrors) {
  loadExample("unstable.jl");
  FunctionSpec S = spec("sum_row(DeviceArray{Float32,2}, Int)");
  auto R = Engine.inferToplevel({&S, 1}, Env.currentWorld());
  ASSERT_TRUE(static_cast<bool>(R)) << renderAll(R.takeError());
}

} // namespace
