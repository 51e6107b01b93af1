#include "types/Loader.h"

#include "lang/Parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace prism;

namespace {
/// The prelude's array type, so that these tests do not depend on the
/// prelude being complete.
const char *ArrayDefs =
    "struct DeviceArray{T,N} <: AbstractArray{T,N}\n"
    "    ptr::Ptr{T}\n"
    "    dims::NTuple{N,Int}\n"
    "end\n";

llvm::Expected<LoadResult> load(GlobalEnv &Env, std::string Name, std::string Text) {
  return loadFile(Env, parseFile(SourceFile::create(std::move(Name), std::move(Text))));
}

std::string readExample(const char *Name) {
  std::ifstream In(std::string(PRISM_EXAMPLES_DIR) + "/" + Name);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::string messages(llvm::Error E) {
  std::string S;
  for (const Diagnostic &D : takeDiagnostics(std::move(E)))
    S += D.Loc.str() + ": " + D.Message + "\n";
  return S;
}

Type *callee(GenericFunction *F) { return F->type(); }
} // namespace

// (LLVMTestingSupport is not linked into the unit tests.)
#define ASSERT_OK(X)                                                           \
  do {                                                                         \
    auto &&Res_ = (X);                                                         \
    if (!Res_)                                                                 \
      FAIL() << messages(Res_.takeError());                                    \
  } while (0)
#define EXPECT_OK(X)                                                           \
  do {                                                                         \
    auto &&Res_ = (X);                                                         \
    if (!Res_)                                                                 \
      ADD_FAILURE() << messages(Res_.takeError());                             \
  } while (0)

TEST(Loader, MapExampleDispatch) {
  GlobalEnv Env;
  ASSERT_OK(load(Env, "arrays.jl", ArrayDefs));
  auto R = load(Env, "map.jl", readExample("map.jl"));
  ASSERT_OK(R);
  EXPECT_EQ(R->Added.size(), 4u);
  EXPECT_TRUE(R->Replaced.empty());
  EXPECT_LT(R->FirstWorld, R->LastWorld);
  TypeContext &C = TypeContext::get();
  World W = Env.currentWorld();

  GenericFunction *Halve = Env.lookupFunction(Symbol::get("halve"));
  ASSERT_NE(Halve, nullptr);
  Type *F32[] = {callee(Halve), C.float32()};
  auto HF = Halve->lookup(F32, W);
  ASSERT_EQ(HF.Status, LookupStatus::Found);
  EXPECT_EQ(HF.Match.M->signatureString(), "halve(x::AbstractFloat)");
  {
    // The line of `halve(x::AbstractFloat)` in the example.
    std::string Text = readExample("map.jl");
    size_t Off = Text.find("halve(x::AbstractFloat)");
    ASSERT_NE(Off, std::string::npos);
    unsigned Line = 1 + std::count(Text.begin(), Text.begin() + Off, '\n');
    EXPECT_EQ(HF.Match.M->location().Line, Line);
  }
  Type *I32[] = {callee(Halve), C.int32()};
  auto HI = Halve->lookup(I32, W);
  ASSERT_EQ(HI.Status, LookupStatus::Found);
  EXPECT_EQ(HI.Match.M->signatureString(), "halve(x::Integer)");
  ASSERT_TRUE(HI.Match.M->Lowered);

  auto Sig = parseSignature(Env, "map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_OK(Sig);
  EXPECT_EQ(Sig->Func->Name.str(), "map!");
  ASSERT_EQ(Sig->ArgTypes.size(), 3u);
  EXPECT_EQ(Sig->ArgTypes[0]->str(), "typeof(square)");
  EXPECT_EQ(Sig->ArgTypes[1]->str(), "DeviceArray{Float32, 1}");
  std::vector<Type *> Args = {callee(Sig->Func)};
  Args.insert(Args.end(), Sig->ArgTypes.begin(), Sig->ArgTypes.end());
  auto M = Sig->Func->lookup(Args, W);
  ASSERT_EQ(M.Status, LookupStatus::Found);
  ASSERT_EQ(M.Match.SparamValues.size(), 1u);
  EXPECT_EQ(M.Match.SparamValues[0], C.float32());

  auto Sq = parseSignature(Env, "square(Float32)");
  ASSERT_OK(Sq);
  std::vector<Type *> SqArgs = {callee(Sq->Func), C.float32()};
  EXPECT_EQ(Sq->Func->lookup(SqArgs, W).Status, LookupStatus::Found);
}

TEST(Loader, SaxpySignature) {
  GlobalEnv Env;
  ASSERT_OK(load(Env, "arrays.jl", ArrayDefs));
  ASSERT_OK(load(Env, "saxpy.jl", readExample("saxpy.jl")));
  auto Sig = parseSignature(Env, "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_OK(Sig);
  EXPECT_EQ(Sig->ArgTypes[0], TypeContext::get().float32());
  auto IntSig = parseSignature(Env, "saxpy!(Int, Ptr{UInt8}, NTuple{2,Int})");
  ASSERT_OK(IntSig);
  EXPECT_EQ(IntSig->ArgTypes[0], TypeContext::get().int64());
  EXPECT_EQ(IntSig->ArgTypes[2]->str(), "Tuple{Int64, Int64}");
}

TEST(Loader, SignatureErrorsPointInsideTheString) {
  GlobalEnv Env;
  ASSERT_OK(load(Env, "f.jl", "f(x::Int) = x\n"));
  auto Ok = parseSignature(Env, "f(Int)");
  ASSERT_OK(Ok);
  EXPECT_EQ(Ok->ArgTypes[0], TypeContext::get().int64());

  auto Bad = parseSignature(Env, "f(Int, Floot32)");
  ASSERT_FALSE(static_cast<bool>(Bad));
  auto Ds = takeDiagnostics(Bad.takeError());
  ASSERT_EQ(Ds.size(), 1u);
  EXPECT_EQ(Ds[0].Message, "undefined type name `Floot32`");
  EXPECT_EQ(Ds[0].Loc.Col, 8u);

  auto NoFn = parseSignature(Env, "nosuch(Int)");
  ASSERT_FALSE(static_cast<bool>(NoFn));
  EXPECT_THAT(messages(NoFn.takeError()), testing::HasSubstr("undefined function `nosuch`"));

  auto Count = parseSignature(Env, "f(Ptr{Int,Int})");
  ASSERT_FALSE(static_cast<bool>(Count));
  EXPECT_THAT(messages(Count.takeError()),
              testing::HasSubstr("wrong number of type parameters for `Ptr`: expected 1, got 2"));
}

TEST(Loader, GathersDefinitionErrors) {
  GlobalEnv Env;
  ASSERT_OK(load(Env, "arrays.jl", ArrayDefs));
  auto R = load(Env, "bad.jl",
                "struct P\n"
                "    x::Real\n" // 2: not concrete
                "end\n"
                "f(x::Flaot32) = x\n"                  // 4: undefined type
                "g(a::DeviceArray{Float32,1,2}) = a\n" // 5: wrong count
                "struct Q{T}\n"
                "    v::Union{T,Nothing}\n" // 7: not concrete
                "end\n"
                "h(p::P) = p.x\n"); // no error of its own
  ASSERT_FALSE(static_cast<bool>(R));
  std::string S = messages(R.takeError());
  // A use of the broken P is not another error.
  EXPECT_THAT(S, testing::Not(testing::HasSubstr("undefined type name `P`")));
  EXPECT_THAT(S, testing::HasSubstr("bad.jl:2:5: field `x` of struct `P` has non-concrete type `Real`"));
  EXPECT_THAT(S, testing::HasSubstr("bad.jl:4:6: undefined type name `Flaot32`"));
  EXPECT_THAT(S, testing::HasSubstr("bad.jl:5:6: wrong number of type parameters for `DeviceArray`: expected 2, got 3"));
  EXPECT_THAT(S, testing::HasSubstr("bad.jl:7:5: field `v`"));
}

TEST(Loader, StructRedefinition) {
  GlobalEnv Env;
  ASSERT_OK(load(Env, "a.jl", "struct S\n  x::Int32\nend\n"));
  // Identical: allowed, as in Julia.
  ASSERT_OK(load(Env, "b.jl", "struct S\n  x::Int32\nend\n"));
  auto R = load(Env, "c.jl", "struct S\n  x::Int64\nend\n");
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_THAT(messages(R.takeError()),
              testing::HasSubstr("c.jl:1:1: invalid redefinition of struct `S` with different fields"));
  auto B = load(Env, "d.jl", "struct Int64\n  x::Int32\nend\n");
  ASSERT_FALSE(static_cast<bool>(B));
  EXPECT_THAT(messages(B.takeError()), testing::HasSubstr("cannot redefine builtin type `Int64`"));
}

TEST(Loader, DefaultConstructors) {
  GlobalEnv Env;
  auto R = load(Env, "p.jl",
                "struct Point{T<:Real}\n    x::T\n    y::T\nend\n"
                "struct Plain\n    a::Int32\n    p::Ptr{Float32}\nend\n");
  ASSERT_OK(R);
  TypeContext &C = TypeContext::get();
  TypeName *Point = Env.lookupType(Symbol::get("Point"));
  ASSERT_NE(Point, nullptr);
  GenericFunction *Ctor = Env.constructorFunction(Point);
  World W = Env.currentWorld();
  auto Ms = Ctor->methodsIn(W);
  ASSERT_EQ(Ms.size(), 2u);
  EXPECT_EQ(Ms[0]->signatureString(), "Point(x::T, y::T) where T<:Real");
  EXPECT_EQ(Ms[1]->signatureString(), "Point{T}(x, y) where T<:Real");

  // Point(1.0f0, 2.0f0): T = Float32 from the arguments.
  Type *Outer[] = {C.typeOfType(C.bareType(Point)), C.float32(), C.float32()};
  auto L = Ctor->lookup(Outer, W);
  ASSERT_EQ(L.Status, LookupStatus::Found);
  EXPECT_EQ(L.Match.M, Ms[0]);
  EXPECT_EQ(L.Match.SparamValues[0], C.float32());
  std::string IR = printLowered(*L.Match.M->Lowered);
  EXPECT_THAT(IR, testing::HasSubstr("new"));
  EXPECT_THAT(IR, testing::HasSubstr("apply_type"));
  // Point(1, 2.0f0) has no method (T must be one type)...
  Type *Mixed[] = {C.typeOfType(C.bareType(Point)), C.int64(), C.float32()};
  EXPECT_EQ(Ctor->lookup(Mixed, W).Status, LookupStatus::NoMethod);
  // ...but Point{Float32}(1, 2.0f0) converts.
  Type *PF[] = {C.apply(Point, std::vector<Type *>{C.float32()})};
  Type *Inner[] = {C.typeOfType(PF[0]), C.int64(), C.float32()};
  auto LI = Ctor->lookup(Inner, W);
  ASSERT_EQ(LI.Status, LookupStatus::Found);
  EXPECT_EQ(LI.Match.M, Ms[1]);
  EXPECT_EQ(LI.Match.SparamValues[0], C.float32());
  EXPECT_THAT(printLowered(*LI.Match.M->Lowered), testing::HasSubstr("convert"));
  // The bound is checked: Point(nothing, nothing) does not apply.
  Type *NoReal[] = {C.typeOfType(C.bareType(Point)), C.nothing(), C.nothing()};
  EXPECT_EQ(Ctor->lookup(NoReal, W).Status, LookupStatus::NoMethod);

  TypeName *Plain = Env.lookupType(Symbol::get("Plain"));
  ASSERT_NE(Plain, nullptr);
  auto PMs = Env.constructorFunction(Plain)->methodsIn(W);
  // The exact constructor, and Julia's converting one: Plain(1, p) works.
  ASSERT_EQ(PMs.size(), 2u);
  EXPECT_EQ(PMs[0]->signatureString(), "Plain(a::Int32, p::Ptr{Float32})");
  EXPECT_EQ(PMs[1]->signatureString(), "Plain(a, p)");
  EXPECT_THAT(printLowered(*PMs[1]->Lowered), testing::HasSubstr("convert"));
}

TEST(Loader, ConstructorAndConversionMethods) {
  GlobalEnv Env;
  auto R = load(Env, "c.jl",
                "struct Pair2{T}\n  a::T\n  b::T\nend\n"
                "Pair2(a::Int32) = Pair2(a, a)\n"
                "Float32(x::Int64) = sitofp(Float32, x)\n"
                "const N = 4\n"
                "const K = N * 2 + 1\n"
                "const MyF = Float32\n"
                "h(x::MyF, t::NTuple{N,Int}) = x\n");
  ASSERT_OK(R);
  TypeContext &C = TypeContext::get();
  World W = Env.currentWorld();
  auto Fl = Env.constructorFunction(C.float32()->name())->methodsIn(W);
  ASSERT_EQ(Fl.size(), 1u);
  EXPECT_EQ(Fl[0]->signatureString(), "Float32(x::Int64)");
  const ConstValue *K = Env.lookupConst(Symbol::get("K"));
  ASSERT_NE(K, nullptr);
  EXPECT_EQ(K->asSigned(), 9);
  GenericFunction *H = Env.lookupFunction(Symbol::get("h"));
  ASSERT_NE(H, nullptr);
  EXPECT_EQ(H->methodsIn(W)[0]->signatureString(),
            "h(x::Float32, t::NTuple{4, Int64})");
}

TEST(Loader, EachDefinitionInTheNextWorldAndReplacement) {
  GlobalEnv Env;
  auto R1 = load(Env, "v1.jl", "f(x::Int) = 1\ng(x) = 2\n");
  ASSERT_OK(R1);
  ASSERT_EQ(R1->Added.size(), 2u);
  EXPECT_EQ(R1->Added[1]->PrimaryWorld, R1->Added[0]->PrimaryWorld + 1);
  World Old = Env.currentWorld();
  auto R2 = load(Env, "v2.jl", "f(y::Int64) = 3\n");
  ASSERT_OK(R2);
  ASSERT_EQ(R2->Replaced.size(), 1u);
  EXPECT_EQ(R2->Replaced[0], R1->Added[0]);
  GenericFunction *F = Env.lookupFunction(Symbol::get("f"));
  Type *Args[] = {F->type(), TypeContext::get().int64()};
  EXPECT_EQ(F->lookup(Args, Old).Match.M, R1->Added[0]);
  auto New = F->lookup(Args, Env.currentWorld());
  EXPECT_EQ(New.Match.M, R2->Added[0]);
  EXPECT_EQ(New.Match.MinWorld, R2->Added[0]->PrimaryWorld);
  // Replacing a method of an earlier load is an edit: no warning.
  EXPECT_TRUE(R1->Warnings.empty());
  EXPECT_TRUE(R2->Warnings.empty());
}

TEST(Loader, AMethodDefinedTwiceInOneFileWarnsAsJuliaDoes) {
  GlobalEnv Env;
  auto R = load(Env, "twice.jl",
                "f(x::Int) = 1\ng(x) = 2\nf(y::Int64) = 3\nf(x::Int8) = 4\n");
  ASSERT_OK(R);
  ASSERT_EQ(R->Warnings.size(), 1u);
  const Diagnostic &D = R->Warnings[0];
  EXPECT_EQ(D.Sev, Severity::Warning);
  EXPECT_EQ(D.Loc.Line, 3u);
  EXPECT_EQ(D.Message, "method definition `f(y::Int64)` overwrites the one at "
                       "twice.jl:1, which is never called");
  ASSERT_EQ(D.Notes.size(), 1u);
  EXPECT_EQ(D.Notes[0].Loc.Line, 1u);
}

TEST(Loader, OverwritingAPreludeMethodWarns) {
  GlobalEnv Env;
  ASSERT_FALSE(static_cast<bool>(loadPrelude(Env)));
  // The prelude's `-(x::Bool, y::Bool)`, the same signature.
  auto R = load(Env, "minus.jl", "Base.:-(a::Bool, b::Bool) = 5\n");
  ASSERT_OK(R);
  ASSERT_EQ(R->Warnings.size(), 1u);
  EXPECT_THAT(R->Warnings[0].Message,
              ::testing::StartsWith("method definition `-(a::Bool, b::Bool)` "
                                    "overwrites the prelude's (Base's) at "));
  EXPECT_EQ(R->Warnings[0].Notes[0].Loc.FileName.rfind("prelude/", 0), 0u);
  // A new method of a prelude function is no overwrite, a more specific
  // one neither (Julia's `-(::Int64, ::Int64)` would be a new method of
  // Base's `-(x::T, y::T) where T<:BitInteger` too).
  auto New = load(Env, "v2.jl",
                  "struct V2\n x::Float32\nend\nBase.:-(a::V2, b::V2) = a\n"
                  "Base.:-(x::Int64, y::Int64) = 5\n");
  ASSERT_OK(New);
  EXPECT_TRUE(New->Warnings.empty());
}

TEST(Loader, AmbiguityFromSource) {
  GlobalEnv Env;
  auto R = load(Env, "amb.jl", "k(x::Int64, y) = 1\n\nk(x, y::Int64) = 2\n");
  ASSERT_OK(R);
  GenericFunction *K = Env.lookupFunction(Symbol::get("k"));
  TypeContext &C = TypeContext::get();
  Type *Args[] = {K->type(), C.int64(), C.int64()};
  auto L = K->lookup(Args, Env.currentWorld());
  ASSERT_EQ(L.Status, LookupStatus::Ambiguous);
  Diagnostic D = dispatchDiagnostic(*K, Args, L, {});
  std::string Notes;
  for (auto &N : D.Notes)
    Notes += N.Message + "\n";
  EXPECT_EQ(D.Message, "k(::Int64, ::Int64) is ambiguous");
  EXPECT_THAT(Notes, testing::HasSubstr("k(x::Int64, y) at amb.jl:1:1"));
  EXPECT_THAT(Notes, testing::HasSubstr("k(x, y::Int64) at amb.jl:3:1"));
}

// Each argument annotated with a bare parametric name is a UnionAll of
// its own: `f(a::Tuple, b::Tuple)` takes tuples of different lengths and
// `g(a::P, b::P)` a P{Int64} and a P{Float64}, as in Julia. The name's own
// parameter variables were shared by both arguments, which then had to
// agree. Redefining such a method still replaces it.
TEST(Loader, BareParametricArgumentsAreIndependent) {
  GlobalEnv Env;
  auto R =
      load(Env, "bare.jl",
           std::string(ArrayDefs) +
               "struct P{T}\n    x::T\nend\n"
               "f(a::Tuple, b::Tuple) = 1\n"
               "g(a::P, b::P) = 2\n"
               "h(a::DeviceArray{Float32}, b::DeviceArray{Float32}) = 3\n");
  ASSERT_OK(R);
  TypeContext &C = TypeContext::get();
  GenericFunction *F = Env.lookupFunction(Symbol::get("f"));
  Type *One[] = {C.int64()};
  Type *Two[] = {C.int64(), C.float64()};
  Type *FArgs[] = {F->type(), C.tuple(One), C.tuple(Two)};
  EXPECT_EQ(F->lookup(FArgs, Env.currentWorld()).Status, LookupStatus::Found);
  TypeName *PN = Env.lookupType(Symbol::get("P"));
  ASSERT_TRUE(PN);
  GenericFunction *G = Env.lookupFunction(Symbol::get("g"));
  Type *PI[] = {C.int64()}, *PF[] = {C.float64()};
  Type *GArgs[] = {G->type(), C.apply(PN, PI), C.apply(PN, PF)};
  EXPECT_EQ(G->lookup(GArgs, Env.currentWorld()).Status, LookupStatus::Found);
  // The dimensions left open are each argument's own.
  TypeName *AN = Env.lookupType(Symbol::get("DeviceArray"));
  GenericFunction *H = Env.lookupFunction(Symbol::get("h"));
  Type *A1[] = {C.float32(), C.intValue(1)},
       *A2[] = {C.float32(), C.intValue(2)};
  Type *HArgs[] = {H->type(), C.apply(AN, A1), C.apply(AN, A2)};
  EXPECT_EQ(H->lookup(HArgs, Env.currentWorld()).Status, LookupStatus::Found);
  // The parameters left open print as Julia leaves them out.
  EXPECT_EQ(H->lookup(HArgs, Env.currentWorld()).Match.M->Sig[1]->str(),
            "DeviceArray{Float32}");
  auto Again = load(Env, "bare2.jl", "f(x::Tuple, y::Tuple) = 4\n");
  ASSERT_OK(Again);
  EXPECT_EQ(Again->Replaced.size(), 1u);
  // The signature prints as written.
  EXPECT_EQ(F->lookup(FArgs, Env.currentWorld()).Match.M->Sig[1]->str(),
            "Tuple");
}

TEST(Loader, EmptyAndCommentOnlyFilesLoad) {
  GlobalEnv Env;
  EXPECT_OK(load(Env, "empty.jl", ""));
  EXPECT_OK(load(Env, "c.jl", "# nothing here\n#= block =#\n"));
}

TEST(Loader, Prelude) {
  GlobalEnv Env;
  llvm::Error E = loadPrelude(Env);
  if (E)
    FAIL() << messages(std::move(E));
  // The prelude defines DeviceArray (core/prelude/*.jl).
  if (!Env.lookupType(Symbol::get("DeviceArray")))
    GTEST_SKIP() << "the prelude does not define DeviceArray yet";
  auto Sig = parseSignature(Env, "getindex(DeviceArray{Float32,1}, Int)");
  EXPECT_OK(Sig);
}

TEST(Loader, PreludeDispatch) {
  GlobalEnv Env;
  llvm::Error E = loadPrelude(Env);
  if (E)
    FAIL() << messages(std::move(E));
  if (!Env.lookupType(Symbol::get("DeviceArray")))
    GTEST_SKIP() << "the prelude does not define DeviceArray yet";
  const char *Calls[] = {
      "+(Float32, Float32)", "+(Int64, Int64)", "+(Float32, Int64)",
      "*(Float32, Int64)", "-(Int32)", "<=(Int64, Int64)", "/(Int64, Int64)",
      "convert(Type{Float32}, Int64)", "convert(Type{Int64}, Int64)",
      "zero(Type{Float32})", "one(Type{Int32})", "Float32(Int64)",
      "Float32(Float64)", "Int32(Int64)", "length(DeviceArray{Float32,1})",
      "getindex(DeviceArray{Float32,1}, Int64)",
      "setindex!(DeviceArray{Float32,1}, Float32, Int64)",
      "promote_type(Type{Float32}, Type{Int64})", "max(Int32, Int32)",
      "ifelse(Bool, Float32, Float32)", "threadIdx()",
  };
  World W = Env.currentWorld();
  for (const char *Call : Calls) {
    auto Sig = parseSignature(Env, Call);
    if (!Sig) {
      ADD_FAILURE() << Call << ": " << messages(Sig.takeError());
      continue;
    }
    auto Types = Sig->lookupTypes();
    auto R = Sig->Func->lookup(Types, W);
    if (R.Status != LookupStatus::Found)
      ADD_FAILURE() << Call << ": "
                    << renderDiagnostic(dispatchDiagnostic(*Sig->Func, Types, R, {}));
  }
}

// `const π = Irrational{:π}()` is the only value of a fieldless struct with
// a symbol parameter; constructing anything else, or a bare symbol, is not
// a constant.
TEST(Loader, ConstantInstancesOfFieldlessStructs) {
  GlobalEnv Env;
  ASSERT_OK(load(Env, "f.jl",
                 "struct Irr{sym} end\n"
                 "const p = Irr{:π}()\n"
                 "f(::Irr{:π}) = 1\n"
                 "f(::Irr{:ℯ}) = 2\n"));
  const ConstValue *P = Env.lookupConst(Symbol::get("p"));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->K, ConstValue::Instance);
  EXPECT_EQ(P->Ty->str(), "Irr{:π}");
  EXPECT_EQ(P->str(), "Irr{:π}()");
  GenericFunction *F = Env.lookupFunction(Symbol::get("f"));
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->methodsIn(WorldInfinity - 1).size(), 2u)
      << "distinct symbols are distinct types";

  GlobalEnv Bad;
  auto R = load(Bad, "g.jl",
                "struct Pt x::Int end\n"
                "const a = Pt()\n"
                "const b = :x\n"
                "f() = 1\n"
                "const c = f()\n");
  ASSERT_FALSE(R);
  std::string Text = llvm::toString(R.takeError());
  EXPECT_NE(
      Text.find("g.jl:2:11: error: a constant may construct only a struct "
                "without fields, and `Pt` is not one"),
      std::string::npos)
      << Text;
  EXPECT_NE(
      Text.find("g.jl:3:11: error: a symbol is only a type parameter here"),
      std::string::npos)
      << Text;
  EXPECT_NE(Text.find("g.jl:5:11: error: unsupported constant expression"),
            std::string::npos)
      << Text;
}

// Mixed constant arithmetic promotes as Julia does, and an irrational is
// its exact value rounded once into the precision it meets.
TEST(Loader, ConstantArithmeticPromotes) {
  GlobalEnv Env;
  ASSERT_OK(load(Env, "f.jl",
                 "struct Irrational{sym} end\n"
                 "const p = Irrational{:π}()\n"
                 "const A = 2 * p\n"
                 "const B = p / 2f0\n"
                 "const C = 1.0f0 / 3\n"
                 "const D = 1 / 3\n"
                 "const E = Float32(p)\n"
                 "const F = -p\n"
                 "const G = Float16(2)\n"));
  auto Get = [&](const char *Name) {
    const ConstValue *V = Env.lookupConst(Symbol::get(Name));
    EXPECT_NE(V, nullptr) << Name;
    return V ? V->str() : std::string();
  };
  EXPECT_EQ(Get("A"), "6.283185307179586");
  EXPECT_EQ(Get("B"), "1.5707964f0");
  EXPECT_EQ(Get("C"), "0.33333334f0");
  EXPECT_EQ(Get("D"), "0.3333333333333333");
  EXPECT_EQ(Get("E"), "3.1415927f0");
  EXPECT_EQ(Get("F"), "-3.141592653589793");
  EXPECT_EQ(Get("G"), "Float16(2.0)");
}

// Integer constants convert exactly and compute at their promoted width,
// wrapping, as Julia's integers do: `const N = Int32(256)` is an idiom.
TEST(Loader, IntegerConstants) {
  GlobalEnv Env;
  ASSERT_OK(load(Env, "f.jl",
                 "const A = Int32(8)\n"
                 "const B = UInt8(3.0)\n"
                 "const C = 2^10\n"
                 "const D = -true\n"
                 "const E = 0xff + 0x01\n"
                 "const F = Int32(4) * 2\n"
                 "const T = Int16\n"
                 "const G = T(7)\n"
                 "const H = -B\n"
                 "const I = UInt64(1.8e19)\n"
                 "const J = true + true\n"
                 "const K = Float32(A) / 3\n"
                 "const L = 3^41\n"
                 "const M = Int32(-1) + 0x0001\n"
                 "const N = 2^-3\n"
                 "const O = true^-1\n"));
  auto Get = [&](const char *Name) {
    const ConstValue *V = Env.lookupConst(Symbol::get(Name));
    EXPECT_NE(V, nullptr) << Name;
    return V ? V->str() + "::" + V->Ty->str() : std::string();
  };
  EXPECT_EQ(Get("A"), "8::Int32");
  EXPECT_EQ(Get("B"), "0x03::UInt8");
  EXPECT_EQ(Get("C"), "1024::Int64");
  EXPECT_EQ(Get("D"), "-1::Int64");
  EXPECT_EQ(Get("E"), "0x00::UInt8");
  EXPECT_EQ(Get("F"), "8::Int64");
  EXPECT_EQ(Get("G"), "7::Int16");
  EXPECT_EQ(Get("H"), "0xfd::UInt8");
  EXPECT_EQ(Get("I"), "0xf9ccd8a1c5080000::UInt64");
  EXPECT_EQ(Get("J"), "2::Int64");
  EXPECT_EQ(Get("K"), "2.6666667f0::Float32");
  EXPECT_EQ(Get("L"), "-420491770248316829::Int64"); // wrapped, as Julia
  EXPECT_EQ(Get("M"), "0::Int32"); // the wider type: Int32 + UInt16 is Int32
  // A negative literal power: Base's literal_pow makes it a Float64's.
  EXPECT_EQ(Get("N"), "0.125::Float64");
  EXPECT_EQ(Get("O"), "1.0::Float64");

  // Each failure is named as Julia names it.
  for (auto [Bad, Message] :
       std::initializer_list<std::pair<const char *, const char *>>{
           {"const X = Int8(300)\n", "InexactError: trunc(Int8, 300)"},
           {"const X = UInt8(-1)\n", "InexactError: trunc(UInt8, -1)"},
           {"const X = UInt64(-1)\n",
            "InexactError: check_top_bit(UInt64, -1)"},
           {"const X = Int32(2.5)\n", "InexactError: Int32(2.5)"},
           {"const X = Bool(2)\n", "InexactError: Bool(2)"},
           {"const N = -3\nconst X = 2^N\n", "DomainError"}}) {
    GlobalEnv E;
    auto R = load(E, "f.jl", Bad);
    ASSERT_FALSE(bool(R)) << Bad;
    std::string Text = llvm::toString(R.takeError());
    EXPECT_NE(Text.find(Message), std::string::npos) << Bad << ": " << Text;
  }
}

// A power with a float operand computes as the prelude's `pow_float` does,
// in the promoted precision; `ℯ^x` is `exp(x)`.
TEST(Loader, FloatPowerConstants) {
  GlobalEnv Env;
  if (llvm::Error E = loadPrelude(Env)) // π and ℯ
    FAIL() << messages(std::move(E));
  ASSERT_OK(load(Env, "f.jl",
                 "const A = 2.0^3\n"
                 "const B = 2^0.5\n"
                 "const C = 2f0^10\n"
                 "const D = π^2\n"
                 "const E = ℯ^2\n"
                 "const F = (-2.0)^3\n"
                 "const G = Float16(3)^2\n"
                 "const H = 2^-1\n"
                 "const I = 1.1^3\n"
                 "const J = 2f0^-2\n"
                 "const K = Int8(3)^5\n"
                 "const L = 0xff^2\n"));
  auto Get = [&](const char *Name) {
    const ConstValue *V = Env.lookupConst(Symbol::get(Name));
    EXPECT_NE(V, nullptr) << Name;
    return V ? V->str() + "::" + V->Ty->str() : std::string();
  };
  EXPECT_EQ(Get("A"), "8.0::Float64");
  EXPECT_EQ(Get("B"), "1.4142135623730951::Float64");
  EXPECT_EQ(Get("C"), "1024.0f0::Float32");
  EXPECT_EQ(Get("D"), "9.869604401089358::Float64");
  EXPECT_EQ(Get("E"), "7.38905609893065::Float64");
  EXPECT_EQ(Get("F"), "-8.0::Float64");
  EXPECT_EQ(Get("G"), "Float16(9.0)::Float16");
  // A literal power from -2 to 3 is Julia's literal_pow: `inv(2)`, and
  // `1.1 * 1.1 * 1.1` rounded twice (pow rounds once: 1.331).
  EXPECT_EQ(Get("H"), "0.5::Float64");
  EXPECT_EQ(Get("I"), "1.3310000000000004::Float64");
  EXPECT_EQ(Get("J"), "0.25f0::Float32");
  EXPECT_EQ(Get("K"), "-13::Int8"); // 243 wrapped
  EXPECT_EQ(Get("L"), "0x01::UInt8");

  GlobalEnv Bad;
  auto R = load(Bad, "f.jl", "const X = (-2.0)^0.5\n");
  ASSERT_FALSE(bool(R));
  EXPECT_NE(llvm::toString(R.takeError()).find("DomainError"),
            std::string::npos);
}

// Float constants compute in their own precision, IEEE-rounded, as the
// prelude's `const Inf32 = 1.0f0 / 0.0f0` needs; a conversion to another
// float type rounds to nearest.
TEST(Loader, FloatConstantArithmetic) {
  GlobalEnv Env;
  auto R = load(Env, "f.jl",
                "const A = 1.0f0 / 3.0f0\n"
                "const B = 0.1 + 0.2\n"
                "const I = 1.0f0 / 0.0f0\n"
                "const N = 0.0 / 0.0\n"
                "const H = Float16(A)\n"
                "const HI = Float16(1.0e10)\n");
  ASSERT_OK(R);
  auto Get = [&](const char *Name) {
    const ConstValue *V = Env.lookupConst(Symbol::get(Name));
    EXPECT_NE(V, nullptr) << Name;
    return V ? *V : ConstValue();
  };
  TypeContext &C = TypeContext::get();
  float Third = 1.0f / 3.0f;
  uint32_t ThirdBits;
  std::memcpy(&ThirdBits, &Third, 4);
  EXPECT_EQ(Get("A").Ty, C.float32());
  EXPECT_EQ(Get("A").Bits, ThirdBits);
  double Sum = 0.1 + 0.2;
  uint64_t SumBits;
  std::memcpy(&SumBits, &Sum, 8);
  EXPECT_EQ(Get("B").Bits, SumBits); // 0.30000000000000004, not 0.3
  EXPECT_EQ(Get("I").Bits, 0x7f800000u);
  EXPECT_EQ(Get("N").Bits, 0x7ff8000000000000u); // Julia's NaN: positive, quiet
  EXPECT_EQ(Get("H").Ty, C.float16());
  EXPECT_EQ(Get("H").Bits, 0x3555u);  // Float16(1/3) = 0.3333
  EXPECT_EQ(Get("HI").Bits, 0x7c00u); // past Float16's range: Inf16
  // Negation of a float or an Int64 constant.
  auto Neg = load(Env, "n.jl", "const NI = -I\nconst NK = -(2 * 3)\n");
  ASSERT_OK(Neg);
  EXPECT_EQ(Get("NI").Bits, 0xff800000u);
  EXPECT_EQ(Get("NK").asSigned(), -6);
  // A Bool is a number, as in Julia: `1f0 / true` is 1.0f0.
  ASSERT_OK(load(Env, "m.jl", "const Mixed = 1.0f0 / true\n"));
  EXPECT_EQ(Get("Mixed").Bits, 0x3f800000u);
}
