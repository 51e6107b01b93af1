#include "TypeTestUtil.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>

using namespace prism;
using namespace prism::testutil;

namespace {
struct SubCase {
  const char *What;
  std::function<Type *()> A, B;
  bool Expected;
};

std::vector<SubCase> subtypeCases() {
  TypeContext &C = ctx();
  // By value: the cases outlive this function (ASan found `[&]` dangling).
  auto F32 = [] { return ctx().float32(); };
  auto I64 = [] { return ctx().int64(); };
  auto T = [](const char *N) { return [N] { return ty(N); }; };
  static GlobalEnv *Env = new GlobalEnv; // lives for the process, like the types
  GenericFunction *Square = Env->getOrCreateFunction(Symbol::get("square"));
  GenericFunction *Halve = Env->getOrCreateFunction(Symbol::get("halve"));
  return {
      {"Bool <: Integer", T("Bool"), T("Integer"), true},
      {"Bool <: Signed", T("Bool"), T("Signed"), false},
      {"Bool <: Real", T("Bool"), T("Real"), true},
      {"Int64 <: Signed", I64, T("Signed"), true},
      {"Int64 <: Unsigned", I64, T("Unsigned"), false},
      {"Int8 <: Integer", T("Int8"), T("Integer"), true},
      {"Int32 <: Number", T("Int32"), T("Number"), true},
      {"UInt8 <: Unsigned", T("UInt8"), T("Unsigned"), true},
      {"UInt64 <: Signed", T("UInt64"), T("Signed"), false},
      {"Float32 <: AbstractFloat", F32, T("AbstractFloat"), true},
      {"Float32 <: Integer", F32, T("Integer"), false},
      {"Float16 <: Real", T("Float16"), T("Real"), true},
      {"Float64 <: Float32", T("Float64"), F32, false},
      {"Integer <: Real", T("Integer"), T("Real"), true},
      {"Real <: Integer", T("Real"), T("Integer"), false},
      {"AbstractFloat <: Number", T("AbstractFloat"), T("Number"), true},
      {"Number <: Any", T("Number"), T("Any"), true},
      {"Any <: Number", T("Any"), T("Number"), false},
      {"Any <: Any", T("Any"), T("Any"), true},
      {"Int64 <: Any", I64, T("Any"), true},
      {"Union{} <: Int64", [&] { return C.bottom(); }, I64, true},
      {"Union{} <: Union{}", [&] { return C.bottom(); }, [&] { return C.bottom(); }, true},
      {"Int64 <: Union{}", I64, [&] { return C.bottom(); }, false},
      {"Nothing <: Any", T("Nothing"), T("Any"), true},
      {"Nothing <: Number", T("Nothing"), T("Number"), false},
      {"Ptr{Float32} <: Ptr{Float32}", [&] { return C.ptr(F32()); }, [&] { return C.ptr(F32()); }, true},
      {"Ptr{Float32} <: Ptr{Real} (invariance)", [&] { return C.ptr(F32()); }, [&] { return C.ptr(ty("Real")); }, false},
      {"Ptr{Float32} <: Ptr", [&] { return C.ptr(F32()); }, T("Ptr"), true},
      {"Ptr <: Ptr{Float32}", T("Ptr"), [&] { return C.ptr(F32()); }, false},
      {"DeviceArray{Int64,1} <: DeviceArray{Integer,1} (invariance)",
       [&] { return devArray(I64(), 1); }, [&] { return devArray(ty("Integer"), 1); }, false},
      {"DeviceArray{Float32,1} <: DeviceArray{Float32,2}",
       [&] { return devArray(F32(), 1); }, [&] { return devArray(F32(), 2); }, false},
      {"DeviceArray{Float32,1} <: AbstractArray{Float32,1}",
       [&] { return devArray(F32(), 1); }, [&] { return absArray(F32(), C.intValue(1)); }, true},
      {"DeviceArray{Float32,1} <: AbstractArray{Float32,2}",
       [&] { return devArray(F32(), 1); }, [&] { return absArray(F32(), C.intValue(2)); }, false},
      {"DeviceArray{Float32,1} <: AbstractArray{Real,1}",
       [&] { return devArray(F32(), 1); }, [&] { return absArray(ty("Real"), C.intValue(1)); }, false},
      {"DeviceArray{Float32,1} <: AbstractArray", [&] { return devArray(F32(), 1); }, T("AbstractArray"), true},
      {"DeviceArray{Float32,1} <: DeviceArray", [&] { return devArray(F32(), 1); },
       [&] { return C.bareType(deviceArrayName()); }, true},
      {"DeviceArray <: AbstractArray", [&] { return C.bareType(deviceArrayName()); }, T("AbstractArray"), true},
      {"AbstractArray <: DeviceArray", T("AbstractArray"), [&] { return C.bareType(deviceArrayName()); }, false},
      {"Tuple{Int64,Float32} <: Tuple{Integer,Real} (covariance)",
       [&] { return tup({I64(), F32()}); }, [&] { return tup({ty("Integer"), ty("Real")}); }, true},
      {"Tuple{Int64,Float32} <: Tuple{Integer,Integer}",
       [&] { return tup({I64(), F32()}); }, [&] { return tup({ty("Integer"), ty("Integer")}); }, false},
      {"Tuple{Int64} <: Tuple{Int64,Int64}", [&] { return tup({I64()}); }, [&] { return tup({I64(), I64()}); }, false},
      {"Tuple{} <: Tuple{}", [&] { return tup({}); }, [&] { return tup({}); }, true},
      {"Tuple{Int64,Float32} <: Tuple", [&] { return tup({I64(), F32()}); }, T("Tuple"), true},
      {"Tuple{} <: Tuple", [&] { return tup({}); }, T("Tuple"), true},
      {"Int64 <: Tuple", I64, T("Tuple"), false},
      {"Tuple{Int64,Int64,Int64} <: NTuple{3,Int64}",
       [&] { return tup({I64(), I64(), I64()}); }, [&] { return C.ntuple(3, I64()); }, true},
      {"Tuple{Int64,Int64} <: NTuple", [&] { return tup({I64(), I64()}); }, T("NTuple"), true},
      {"Tuple{Int64,Float32} <: NTuple (diagonal)", [&] { return tup({I64(), F32()}); }, T("NTuple"), false},
      {"Tuple{Union{Int64,Float32}} <: Tuple{Real}",
       [&] { return tup({uni({I64(), F32()})}); }, [&] { return tup({ty("Real")}); }, true},
      {"Tuple{Bool} <: Tuple{Integer}", [&] { return tup({ty("Bool")}); }, [&] { return tup({ty("Integer")}); }, true},
      {"Tuple{Int64,Ptr{Float32}} <: Tuple{Signed,Ptr}",
       [&] { return tup({I64(), C.ptr(F32())}); }, [&] { return tup({ty("Signed"), ty("Ptr")}); }, true},
      {"Type{Float32} <: Type", [&] { return C.typeOfType(F32()); }, T("Type"), true},
      {"Type{Float32} <: Type{AbstractFloat} (invariance)",
       [&] { return C.typeOfType(F32()); }, [&] { return C.typeOfType(ty("AbstractFloat")); }, false},
      {"Type{Float32} <: Type{Float32}", [&] { return C.typeOfType(F32()); }, [&] { return C.typeOfType(F32()); }, true},
      {"Type{Float32} <: Any", [&] { return C.typeOfType(F32()); }, T("Any"), true},
      {"Float32 <: Type", F32, T("Type"), false},
      {"typeof(square) <: Function", [=] { return Square->type(); }, T("Function"), true},
      {"typeof(square) <: typeof(halve)", [=] { return Square->type(); }, [=] { return Halve->type(); }, false},
      {"Function <: typeof(square)", T("Function"), [=] { return Square->type(); }, false},
      {"typeof(square) <: Number", [=] { return Square->type(); }, T("Number"), false},
      {"Int64 <: Union{Int64,Float32}", I64, [&] { return uni({I64(), F32()}); }, true},
      {"Union{Int64,Float32} <: Real", [&] { return uni({I64(), F32()}); }, T("Real"), true},
      {"Union{Int64,Float32} <: Integer", [&] { return uni({I64(), F32()}); }, T("Integer"), false},
      {"Union{Int32,Int64} <: Signed", [&] { return uni({ty("Int32"), I64()}); }, T("Signed"), true},
      {"Union{Int64,Nothing} <: Union{Int64,Nothing,Float32}",
       [&] { return uni({I64(), ty("Nothing")}); }, [&] { return uni({I64(), ty("Nothing"), F32()}); }, true},
      {"Union{Int64,Float32} <: Int64", [&] { return uni({I64(), F32()}); }, I64, false},
      {"Any <: Union{Int64,Float32}", T("Any"), [&] { return uni({I64(), F32()}); }, false},
      {"Float64 <: Union{Integer,AbstractFloat}", T("Float64"),
       [&] { return uni({ty("Integer"), ty("AbstractFloat")}); }, true},
      {"Ptr{Int64} <: Union{Ptr{Int64},Nothing}", [&] { return C.ptr(I64()); },
       [&] { return uni({C.ptr(I64()), ty("Nothing")}); }, true},
      {"Ptr{Union{Int64,Float32}} <: Ptr{Union{Float32,Int64}}",
       [&] { return C.ptr(uni({I64(), F32()})); }, [&] { return C.ptr(uni({F32(), I64()})); }, true},
  };
}
} // namespace

TEST(Subtype, Table) {
  auto Cases = subtypeCases();
  EXPECT_GE(Cases.size(), 60u);
  for (const SubCase &Case : Cases)
    EXPECT_EQ(isSubtype(Case.A(), Case.B()), Case.Expected) << Case.What;
}

namespace {
/// Matches concrete argument types against a pattern with where-variables.
std::optional<std::vector<Type *>> match(std::vector<Type *> Args,
                                         std::vector<Type *> Pattern,
                                         std::vector<Type *> Vars) {
  std::vector<Type *> Values;
  if (!matchTypes(Args, Pattern, Vars, &Values))
    return std::nullopt;
  return Values;
}
} // namespace

TEST(Subtype, WhereBoundCovariant) {
  TypeContext &C = ctx();
  Type *T = tv("T", ty("Real")); // f(x::T) where {T<:Real}
  auto M = match({C.float32()}, {T}, {T});
  ASSERT_TRUE(M);
  EXPECT_EQ((*M)[0], C.float32());
  EXPECT_FALSE(match({C.nothing()}, {T}, {T}));
  EXPECT_FALSE(match({C.ptr(C.float32())}, {T}, {T}));
  Type *I = tv("T", ty("Integer"));
  EXPECT_FALSE(match({C.float32()}, {I}, {I}));
  EXPECT_TRUE(match({C.boolTy()}, {I}, {I}));
}

TEST(Subtype, InvariantBindingInParameters) {
  TypeContext &C = ctx();
  // map!(f, out::DeviceArray{T,1}, x::DeviceArray{T,1}) where {T}
  Type *T = tv("T");
  std::vector<Type *> Pat = {C.any(), devArray(T, 1), devArray(T, 1)};
  auto M = match({C.int64(), devArray(C.float32(), 1), devArray(C.float32(), 1)}, Pat, {T});
  ASSERT_TRUE(M);
  EXPECT_EQ((*M)[0], C.float32());
  EXPECT_FALSE(match({C.int64(), devArray(C.float32(), 1), devArray(C.int64(), 1)}, Pat, {T}));
  EXPECT_FALSE(match({C.int64(), devArray(C.float32(), 2), devArray(C.float32(), 2)}, Pat, {T}));
  // AbstractArray{T,N} where {T,N} through the supertype.
  Type *T2 = tv("T"), *N = tv("N");
  auto M2 = match({devArray(C.float32(), 2)}, {absArray(T2, N)}, {T2, N});
  ASSERT_TRUE(M2);
  EXPECT_EQ((*M2)[0], C.float32());
  EXPECT_EQ((*M2)[1], C.intValue(2));
}

TEST(Subtype, TypeOfTypeDispatch) {
  TypeContext &C = ctx();
  Type *T = tv("T"); // zero(::Type{T}) where {T}
  auto M = match({C.typeOfType(C.float32())}, {C.typeOfType(T)}, {T});
  ASSERT_TRUE(M);
  EXPECT_EQ((*M)[0], C.float32());
  EXPECT_FALSE(match({C.float32()}, {C.typeOfType(T)}, {T}));
  // convert(::Type{T}, x::T) where {T}
  Type *U = tv("T");
  auto M2 = match({C.typeOfType(C.float32()), C.float32()}, {C.typeOfType(U), U}, {U});
  ASSERT_TRUE(M2);
  EXPECT_EQ((*M2)[0], C.float32());
  EXPECT_FALSE(match({C.typeOfType(C.float32()), C.int64()}, {C.typeOfType(U), U}, {U}));
  // x::T with T fixed invariantly to an abstract type: covariant use is <:.
  auto M3 = match({C.typeOfType(ty("Real")), C.int64()}, {C.typeOfType(U), U}, {U});
  ASSERT_TRUE(M3);
  EXPECT_EQ((*M3)[0], ty("Real"));
}

TEST(Subtype, DiagonalRule) {
  TypeContext &C = ctx();
  Type *T = tv("T"); // f(a::T, b::T) where T
  auto M = match({C.int64(), C.int64()}, {T, T}, {T});
  ASSERT_TRUE(M);
  EXPECT_EQ((*M)[0], C.int64());
  EXPECT_FALSE(match({C.int64(), C.float32()}, {T, T}, {T}));
  // Abstract arguments cannot satisfy a diagonal variable.
  EXPECT_FALSE(match({ty("Real"), ty("Real")}, {T, T}, {T}));
  // T also occurs invariantly: no diagonal rule, T = Real.
  Type *S = tv("T");
  auto M2 = match({C.int64(), C.float32(), C.ptr(ty("Real"))}, {S, S, C.ptr(S)}, {S});
  ASSERT_TRUE(M2);
  EXPECT_EQ((*M2)[0], ty("Real"));
  EXPECT_FALSE(match({C.int64(), C.ptr(C.int32())}, {S, C.ptr(S)}, {S}));
}

TEST(Subtype, NTupleBindsLengthAndElement) {
  TypeContext &C = ctx();
  Type *N = tv("N"), *T = tv("T");
  Type *Ps[] = {N, T};
  Type *Pat = C.apply(C.ntupleName(), Ps);
  auto M = match({C.ntuple(3, C.int32())}, {Pat}, {N, T});
  ASSERT_TRUE(M);
  EXPECT_EQ((*M)[0], C.intValue(3));
  EXPECT_EQ((*M)[1], C.int32());
  EXPECT_FALSE(match({tup({C.int32(), C.int64()})}, {Pat}, {N, T}));
  auto Empty = match({tup({})}, {Pat}, {N, T});
  ASSERT_TRUE(Empty);
  EXPECT_EQ((*Empty)[0], C.intValue(0));
  EXPECT_EQ((*Empty)[1], nullptr);
}

TEST(Subtype, DependentBounds) {
  TypeContext &C = ctx();
  // f(::Type{T}, y::S) where {T<:Real, S<:T}: S's bound mentions T.
  Type *T = tv("T", ty("Real"));
  Type *S = C.typeVar(Symbol::get("S"), nullptr, T);
  EXPECT_FALSE(match({C.typeOfType(ty("Integer")), C.float32()}, {C.typeOfType(T), S}, {T, S}));
  EXPECT_TRUE(match({C.typeOfType(ty("Integer")), C.int16()}, {C.typeOfType(T), S}, {T, S}));
}

TEST(Subtype, JoinAndIntersect) {
  TypeContext &C = ctx();
  EXPECT_EQ(typeJoin(C.int64(), C.int64()), C.int64());
  EXPECT_EQ(typeJoin(C.int64(), ty("Integer")), ty("Integer"));
  EXPECT_EQ(typeJoin(C.int64(), C.float32()), uni({C.int64(), C.float32()}));
  EXPECT_EQ(typeJoin(C.bottom(), C.float32()), C.float32());
  Type *Four = uni({C.int8(), C.int16(), C.int32(), C.int64()});
  EXPECT_EQ(typeJoin(Four, C.uint8()), ty("Integer"));
  EXPECT_EQ(typeJoin(Four, C.float32()), ty("Real"));
  EXPECT_EQ(typeJoin(Four, C.nothing()), C.any());
  EXPECT_EQ(typeJoin(uni({C.int8(), C.int16(), C.int32()}), C.int64()), Four);

  EXPECT_EQ(typeIntersect(ty("Integer"), C.int64()), C.int64());
  EXPECT_EQ(typeIntersect(ty("Integer"), ty("AbstractFloat")), C.bottom());
  EXPECT_EQ(typeIntersect(uni({C.int64(), C.float32()}), ty("Integer")), C.int64());
  EXPECT_EQ(typeIntersect(tup({C.int64(), C.any()}), tup({C.any(), C.int64()})),
            tup({C.int64(), C.int64()}));
  EXPECT_EQ(typeIntersect(tup({C.int64()}), tup({C.int64(), C.int64()})), C.bottom());
  EXPECT_EQ(typeIntersect(C.ptr(C.int64()), C.ptr(C.int32())), C.bottom());
  EXPECT_EQ(typeIntersect(C.ptr(C.int64()), ty("Ptr")), C.ptr(C.int64()));
  EXPECT_EQ(typeIntersect(C.any(), C.nothing()), C.nothing());
}
