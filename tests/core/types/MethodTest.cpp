#include "TypeTestUtil.h"

#include <gtest/gtest.h>

using namespace prism;
using namespace prism::testutil;

namespace {
/// A file whose lines are method definitions, so that diagnostics can name
/// them.
SourceFileRef fileOf(const char *Name, std::string Text) {
  return SourceFile::create(Name, std::move(Text));
}

SrcRange lineRange(const SourceFileRef &F, unsigned Line) {
  uint32_t Begin = 0;
  std::string_view T = F->text();
  for (unsigned L = 1; L < Line; ++L)
    Begin = static_cast<uint32_t>(T.find('\n', Begin)) + 1;
  uint32_t End = static_cast<uint32_t>(T.find('\n', Begin));
  return {Begin, End};
}

Method *def(GlobalEnv &Env, GenericFunction *F, std::vector<Type *> Args,
            std::vector<const char *> Names = {}, std::vector<Type *> Sparams = {},
            SourceFileRef File = nullptr, unsigned Line = 0,
            Method **Replaced = nullptr) {
  auto M = std::make_unique<Method>();
  M->Name = F->Name;
  M->Sig.push_back(F->ConstructorOf ? nullptr : F->type());
  M->Sig.insert(M->Sig.end(), Args.begin(), Args.end());
  M->Sparams = std::move(Sparams);
  for (const char *N : Names)
    M->ArgNames.push_back(N ? Symbol::get(N) : Symbol());
  M->File = File;
  if (File)
    M->Range = lineRange(File, Line);
  M->PrimaryWorld = Env.nextWorld();
  Method *Raw = M.get();
  Method *Old = F->addMethod(std::move(M));
  if (Replaced)
    *Replaced = Old;
  return Raw;
}

std::vector<Type *> call(GenericFunction *F, std::vector<Type *> Args) {
  Args.insert(Args.begin(), F->type());
  return Args;
}
} // namespace

TEST(GlobalEnv, BuiltinsArePreregistered) {
  GlobalEnv Env;
  for (unsigned I = 1; I < static_cast<unsigned>(Builtin::NumBuiltins); ++I) {
    auto B = static_cast<Builtin>(I);
    GenericFunction *F = Env.lookupFunction(Symbol::get(builtinName(B)));
    ASSERT_NE(F, nullptr) << builtinName(B);
    EXPECT_EQ(F->K, GenericFunction::BuiltinFn);
    EXPECT_EQ(F->BuiltinId, B);
  }
  EXPECT_EQ(Env.lookupFunction(Symbol::get("square")), nullptr);
  GenericFunction *Sq = Env.getOrCreateFunction(Symbol::get("square"));
  EXPECT_EQ(Env.getOrCreateFunction(Symbol::get("square")), Sq);
  EXPECT_EQ(Sq->K, GenericFunction::Generic);
  EXPECT_EQ(Env.lookupType(Symbol::get("Float32")), ctx().float32()->name());
  EXPECT_EQ(Env.lookupType(Symbol::get("Int")), ctx().int64()->name());
  TypeName *Pt = Env.constructorFunction(ctx().float32()->name())->ConstructorOf;
  EXPECT_EQ(Pt, ctx().float32()->name());
  EXPECT_EQ(Env.constructorFunction(ctx().float32()->name()),
            Env.constructorFunction(ctx().float32()->name()));
  EXPECT_EQ(Env.callTable(Sq->type()), Sq);
  EXPECT_EQ(Env.callTable(ctx().typeOfType(ctx().float32())),
            Env.constructorFunction(ctx().float32()->name()));
  EXPECT_EQ(Env.callTable(ctx().int64()), nullptr);
}

TEST(Dispatch, MapExampleMethods) {
  // assets/examples/map.jl
  GlobalEnv Env;
  TypeContext &C = ctx();
  auto *Square = Env.getOrCreateFunction(Symbol::get("square"));
  auto *Halve = Env.getOrCreateFunction(Symbol::get("halve"));
  auto *Map = Env.getOrCreateFunction(Symbol::get("map!"));
  Method *Sq = def(Env, Square, {C.any()}, {"x"});
  Method *HF = def(Env, Halve, {ty("AbstractFloat")}, {"x"});
  Method *HI = def(Env, Halve, {ty("Integer")}, {"x"});
  Type *T = tv("T");
  Method *MapM = def(Env, Map, {C.any(), devArray(T, 1), devArray(T, 1)},
                     {"f", "out", "x"}, {T});
  World W = Env.currentWorld();

  auto R = Halve->lookup(call(Halve, {C.float32()}), W);
  ASSERT_EQ(R.Status, LookupStatus::Found);
  EXPECT_EQ(R.Match.M, HF);
  R = Halve->lookup(call(Halve, {C.int32()}), W);
  ASSERT_EQ(R.Status, LookupStatus::Found);
  EXPECT_EQ(R.Match.M, HI);
  R = Halve->lookup(call(Halve, {C.boolTy()}), W);
  EXPECT_EQ(R.Match.M, HI);
  R = Square->lookup(call(Square, {C.float32()}), W);
  ASSERT_EQ(R.Status, LookupStatus::Found);
  EXPECT_EQ(R.Match.M, Sq);

  R = Map->lookup(call(Map, {Square->type(), devArray(C.float32(), 1),
                             devArray(C.float32(), 1)}),
                  W);
  ASSERT_EQ(R.Status, LookupStatus::Found);
  EXPECT_EQ(R.Match.M, MapM);
  ASSERT_EQ(R.Match.SparamValues.size(), 1u);
  EXPECT_EQ(R.Match.SparamValues[0], C.float32());

  EXPECT_EQ(Sq->signatureString(), "square(x)");
  EXPECT_EQ(HF->signatureString(), "halve(x::AbstractFloat)");
  EXPECT_EQ(MapM->signatureString(),
            "map!(f, out::DeviceArray{T, 1}, x::DeviceArray{T, 1}) where T");
  EXPECT_EQ(Halve->methodsIn(W).size(), 2u);
}

TEST(Dispatch, MostSpecificWins) {
  GlobalEnv Env;
  TypeContext &C = ctx();
  auto *F = Env.getOrCreateFunction(Symbol::get("f"));
  Method *Any2 = def(Env, F, {C.any(), C.any()});
  Type *T = tv("T");
  Method *Diag = def(Env, F, {T, T}, {}, {T});
  Method *Ints = def(Env, F, {C.int64(), C.int64()});
  World W = Env.currentWorld();
  EXPECT_EQ(F->lookup(call(F, {C.int64(), C.int64()}), W).Match.M, Ints);
  auto R = F->lookup(call(F, {C.float32(), C.float32()}), W);
  EXPECT_EQ(R.Match.M, Diag);
  EXPECT_EQ(R.Match.SparamValues[0], C.float32());
  EXPECT_EQ(F->lookup(call(F, {C.float32(), C.int64()}), W).Match.M, Any2);
}

TEST(Dispatch, Specificity) {
  GlobalEnv Env;
  TypeContext &C = ctx();
  auto *F = Env.getOrCreateFunction(Symbol::get("g"));
  auto Make = [&](std::vector<Type *> Args, std::vector<Type *> Vars = {}) {
    auto M = std::make_unique<Method>();
    M->Sig = {F->type()};
    M->Sig.insert(M->Sig.end(), Args.begin(), Args.end());
    M->Sparams = std::move(Vars);
    return M;
  };
  auto AF = Make({ty("AbstractFloat")}), Re = Make({ty("Real")});
  EXPECT_TRUE(isMoreSpecific(*AF, *Re));
  EXPECT_FALSE(isMoreSpecific(*Re, *AF));
  EXPECT_FALSE(isMoreSpecific(*AF, *AF));
  auto I = Make({ty("Integer")}), F32 = Make({C.float32()});
  EXPECT_FALSE(isMoreSpecific(*I, *F32));
  EXPECT_FALSE(isMoreSpecific(*F32, *I));
  Type *T = tv("T");
  auto Diag = Make({T, T}, {T}), Any2 = Make({C.any(), C.any()});
  EXPECT_TRUE(isMoreSpecific(*Diag, *Any2));
  EXPECT_FALSE(isMoreSpecific(*Any2, *Diag));
  Type *U = tv("T");
  auto TypeT = Make({C.typeOfType(U)}, {U}), TypeF = Make({C.typeOfType(C.float32())});
  EXPECT_TRUE(isMoreSpecific(*TypeF, *TypeT));
  EXPECT_FALSE(isMoreSpecific(*TypeT, *TypeF));
  Type *R = tv("T", ty("Integer"));
  auto Bounded = Make({R}, {R}), I64 = Make({C.int64()}), Real1 = Make({ty("Real")});
  EXPECT_TRUE(isMoreSpecific(*I64, *Bounded));
  EXPECT_TRUE(isMoreSpecific(*Bounded, *Real1));
  Type *V = tv("T"), *W = tv("T");
  auto DA = Make({devArray(V, 1)}, {V}), AA = Make({absArray(W, C.intValue(1))}, {W});
  EXPECT_TRUE(isMoreSpecific(*DA, *AA));
  EXPECT_FALSE(isMoreSpecific(*AA, *DA));
  // convert(::Type{T}, x::T) where {T<:Number} vs convert(::Type{T}, x::Number)
  Type *N1 = tv("T", ty("Number")), *N2 = tv("T", ty("Number"));
  auto Ident = Make({C.typeOfType(N1), N1}, {N1});
  auto Conv = Make({C.typeOfType(N2), ty("Number")}, {N2});
  EXPECT_TRUE(isMoreSpecific(*Ident, *Conv));
  EXPECT_FALSE(isMoreSpecific(*Conv, *Ident));
}

TEST(Dispatch, NoMethodListsClosestCandidates) {
  GlobalEnv Env;
  TypeContext &C = ctx();
  auto File = fileOf("f.jl", "f(a::Float32, b::Float32) = a\n"
                             "f(a::Int64, b::Int64) = a\n"
                             "f(a) = a\n");
  auto *F = Env.getOrCreateFunction(Symbol::get("f"));
  Method *FF = def(Env, F, {C.float32(), C.float32()}, {"a", "b"}, {}, File, 1);
  Method *II = def(Env, F, {C.int64(), C.int64()}, {"a", "b"}, {}, File, 2);
  Method *One = def(Env, F, {C.any()}, {"a"}, {}, File, 3);
  auto Args = call(F, {C.float32(), C.int64()});
  auto R = F->lookup(Args, Env.currentWorld());
  ASSERT_EQ(R.Status, LookupStatus::NoMethod);
  ASSERT_EQ(R.Candidates.size(), 3u);
  // Same arity first; each of the two matches one argument.
  EXPECT_TRUE((R.Candidates[0] == FF && R.Candidates[1] == II) ||
              (R.Candidates[0] == II && R.Candidates[1] == FF));
  EXPECT_EQ(R.Candidates[2], One);
  Diagnostic D = dispatchDiagnostic(*F, Args, R, {});
  EXPECT_EQ(D.Kind, "no-method");
  EXPECT_EQ(D.Message, "no method matching f(::Float32, ::Int64)");
  std::string All;
  for (auto &N : D.Notes)
    All += N.Message + "\n";
  EXPECT_NE(All.find("closest candidates are:"), std::string::npos) << All;
  EXPECT_NE(All.find("f(a::Float32, b::Float32) at f.jl:1:1"), std::string::npos) << All;
  EXPECT_NE(All.find("f(a::Int64, b::Int64) at f.jl:2:1"), std::string::npos) << All;
}

// Julia's rule for a diagonal variable: a method with one and the same
// type at each of its places is more specific than the catch-all (Base's
// `/(x::Integer, y::Integer)` over `/(x::T, y::T) where {T<:Number}`);
// different types there stay ambiguous, as in Julia.
TEST(Dispatch, DiagonalCatchAllLosesToOneTypeAtItsPlaces) {
  GlobalEnv Env;
  TypeContext &C = ctx();
  Type *Number = C.apply(C.builtinName(Symbol::get("Number")), {});
  Type *Integer = C.apply(C.builtinName(Symbol::get("Integer")), {});
  Type *T = C.typeVar(Symbol::get("T"), nullptr, Number);
  auto *Div = Env.getOrCreateFunction(Symbol::get("div_"));
  Method *Ints = def(Env, Div, {Integer, Integer});
  Method *All = def(Env, Div, {T, T}, {}, {T});
  auto R = Div->lookup(call(Div, {C.int64(), C.int64()}), Env.currentWorld());
  ASSERT_EQ(R.Status, LookupStatus::Found);
  EXPECT_EQ(R.Match.M, Ints);
  R = Div->lookup(call(Div, {C.float32(), C.float32()}), Env.currentWorld());
  ASSERT_EQ(R.Status, LookupStatus::Found);
  EXPECT_EQ(R.Match.M, All);

  Type *U = C.typeVar(Symbol::get("T"));
  auto *B = Env.getOrCreateFunction(Symbol::get("b"));
  def(Env, B, {U, U}, {}, {U});
  def(Env, B, {C.int64(), C.any()});
  R = B->lookup(call(B, {C.int64(), C.int64()}), Env.currentWorld());
  EXPECT_EQ(R.Status, LookupStatus::Ambiguous);
}

TEST(Dispatch, AmbiguityNamesBothMethodsAndLines) {
  GlobalEnv Env;
  TypeContext &C = ctx();
  auto File = fileOf("amb.jl", "# ambiguous\n"
                               "g(x::Int64, y) = 1\n"
                               "g(x, y::Int64) = 2\n"
                               "g(x::Int32, y::Int32) = 3\n");
  auto *G = Env.getOrCreateFunction(Symbol::get("g"));
  Method *A = def(Env, G, {C.int64(), C.any()}, {"x", "y"}, {}, File, 2);
  Method *B = def(Env, G, {C.any(), C.int64()}, {"x", "y"}, {}, File, 3);
  def(Env, G, {C.int32(), C.int32()}, {"x", "y"}, {}, File, 4);
  auto Args = call(G, {C.int64(), C.int64()});
  auto R = G->lookup(Args, Env.currentWorld());
  ASSERT_EQ(R.Status, LookupStatus::Ambiguous);
  ASSERT_EQ(R.Candidates.size(), 2u);
  EXPECT_EQ(R.Candidates[0], A);
  EXPECT_EQ(R.Candidates[1], B);
  Diagnostic D = dispatchDiagnostic(*G, Args, R, {});
  EXPECT_EQ(D.Kind, "ambiguous");
  EXPECT_EQ(D.Message, "g(::Int64, ::Int64) is ambiguous");
  std::string All;
  for (auto &N : D.Notes)
    All += N.Message + "\n";
  EXPECT_NE(All.find("g(x::Int64, y) at amb.jl:2:1"), std::string::npos) << All;
  EXPECT_NE(All.find("g(x, y::Int64) at amb.jl:3:1"), std::string::npos) << All;
  EXPECT_NE(All.find("possible fix, define g(::Int64, ::Int64)"), std::string::npos) << All;
  EXPECT_EQ(D.Notes[1].Loc.Line, 2u);
  EXPECT_EQ(D.Notes[2].Loc.Line, 3u);
  // Unambiguous where only one applies.
  EXPECT_EQ(G->lookup(call(G, {C.int64(), C.float32()}), Env.currentWorld()).Match.M, A);
  // A third method covering the intersection resolves it.
  Method *Fix = def(Env, G, {C.int64(), C.int64()}, {"x", "y"});
  auto R2 = G->lookup(Args, Env.currentWorld());
  ASSERT_EQ(R2.Status, LookupStatus::Found);
  EXPECT_EQ(R2.Match.M, Fix);
}

TEST(Dispatch, WorldRangesOnReplacement) {
  GlobalEnv Env;
  TypeContext &C = ctx();
  auto *H = Env.getOrCreateFunction(Symbol::get("h"));
  Method *Other = def(Env, H, {C.float32()});
  World W0 = Env.currentWorld();
  Method *Old = def(Env, H, {ty("Integer")}, {"x"});
  World W1 = Env.currentWorld();
  EXPECT_EQ(Old->PrimaryWorld, W1);
  Method *Replaced = nullptr;
  Type *T = tv("T");
  def(Env, H, {C.float64(), C.float64()}, {}, {}, nullptr, 0); // unrelated arity
  Method *New = def(Env, H, {ty("Integer")}, {"y"}, {}, nullptr, 0, &Replaced);
  World W2 = Env.currentWorld();
  EXPECT_EQ(Replaced, Old);
  EXPECT_EQ(Old->DeletedWorld.load(), W2);
  EXPECT_FALSE(Old->visibleIn(W2));
  EXPECT_TRUE(Old->visibleIn(W1));
  (void)T;

  auto Args = call(H, {C.int32()});
  auto R0 = H->lookup(Args, W0);
  EXPECT_EQ(R0.Status, LookupStatus::NoMethod);
  EXPECT_EQ(R0.Match.MaxWorld, W1 - 1);
  auto R1 = H->lookup(Args, W1);
  ASSERT_EQ(R1.Status, LookupStatus::Found);
  EXPECT_EQ(R1.Match.M, Old);
  EXPECT_EQ(R1.Match.MinWorld, W1);
  EXPECT_EQ(R1.Match.MaxWorld, W2 - 1);
  auto R2 = H->lookup(Args, W2);
  ASSERT_EQ(R2.Status, LookupStatus::Found);
  EXPECT_EQ(R2.Match.M, New);
  EXPECT_EQ(R2.Match.MinWorld, W2);
  EXPECT_EQ(R2.Match.MaxWorld, WorldInfinity);
  // Methods not applicable to the call do not narrow the range.
  auto RF = H->lookup(call(H, {C.float32()}), W2);
  EXPECT_EQ(RF.Match.M, Other);
  EXPECT_EQ(RF.Match.MinWorld, Other->PrimaryWorld);
  EXPECT_EQ(RF.Match.MaxWorld, WorldInfinity);
  EXPECT_EQ(H->methodsIn(W2).size(), 3u);
  EXPECT_EQ(H->methodsIn(W1).size(), 2u);

  // Redefinition with fresh where-variables is still the same signature.
  Type *T1 = tv("T", ty("Real")), *T2 = tv("T", ty("Real"));
  Method *Gen1 = def(Env, H, {T1, T1}, {}, {T1});
  Method *Rep = nullptr;
  def(Env, H, {T2, T2}, {}, {T2}, nullptr, 0, &Rep);
  EXPECT_EQ(Rep, Gen1);
}

TEST(Dispatch, ConstructorTableDispatchesOnTypeOfType) {
  // Float32(x::Int64) and (::Type{T})(x::T) where {T} live in the
  // constructor table of Float32 / a generic callee Type{T}.
  GlobalEnv Env;
  TypeContext &C = ctx();
  GenericFunction *Ctor = Env.constructorFunction(C.float32()->name());
  auto M = std::make_unique<Method>();
  M->Name = Ctor->Name;
  M->Sig = {C.typeOfType(C.float32()), C.int64()};
  M->ArgNames = {Symbol::get("x")};
  M->PrimaryWorld = Env.nextWorld();
  Method *FromInt = M.get();
  Ctor->addMethod(std::move(M));
  Type *CallArgs[] = {C.typeOfType(C.float32()), C.int64()};
  auto R = Ctor->lookup(CallArgs, Env.currentWorld());
  ASSERT_EQ(R.Status, LookupStatus::Found);
  EXPECT_EQ(R.Match.M, FromInt);
  EXPECT_EQ(FromInt->signatureString(), "Float32(x::Int64)");
  Type *Bad[] = {C.typeOfType(C.float32()), C.nothing()};
  auto RB = Ctor->lookup(Bad, Env.currentWorld());
  ASSERT_EQ(RB.Status, LookupStatus::NoMethod);
  EXPECT_EQ(dispatchDiagnostic(*Ctor, Bad, RB, {}).Message,
            "no method matching Float32(::Nothing)");
}
