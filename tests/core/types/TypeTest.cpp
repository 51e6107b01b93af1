#include "TypeTestUtil.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace prism;
using namespace prism::testutil;

TEST(Types, BuiltinHierarchy) {
  TypeContext &C = ctx();
  EXPECT_EQ(C.int64()->super(), ty("Signed"));
  EXPECT_EQ(ty("Signed")->super(), ty("Integer"));
  EXPECT_EQ(C.boolTy()->super(), ty("Integer"));
  EXPECT_EQ(C.float32()->super(), ty("AbstractFloat"));
  EXPECT_EQ(ty("Number")->super(), C.any());
  EXPECT_EQ(ty("Int"), C.int64());
  EXPECT_EQ(ty("UInt"), C.uint64());
  EXPECT_TRUE(C.int32()->isSignedInt());
  EXPECT_TRUE(C.uint8()->isUnsignedInt());
  EXPECT_FALSE(C.boolTy()->isInteger());
  EXPECT_TRUE(C.boolTy()->isBool());
  EXPECT_TRUE(C.float16()->isFloat());
  EXPECT_EQ(C.float16()->bitWidth(), 16u);
  EXPECT_TRUE(C.ptr(C.float32())->isPointer());
  EXPECT_EQ(C.ptr(C.float32())->bitWidth(), 64u);
  EXPECT_TRUE(C.nothing()->isNothing());
  EXPECT_TRUE(C.nothing()->isSingleton());
  EXPECT_EQ(ctx().builtinName(Symbol::get("NoSuchType")), nullptr);
}

TEST(Types, Concreteness) {
  TypeContext &C = ctx();
  EXPECT_TRUE(C.int64()->isConcrete());
  EXPECT_FALSE(ty("Real")->isConcrete());
  EXPECT_FALSE(C.any()->isConcrete());
  EXPECT_FALSE(uni({C.int64(), C.float32()})->isConcrete());
  EXPECT_TRUE(tup({C.int64(), C.float32()})->isConcrete());
  EXPECT_FALSE(tup({C.int64(), ty("Real")})->isConcrete());
  EXPECT_TRUE(devArray(C.float32(), 1)->isConcrete());
  EXPECT_FALSE(ty("Ptr")->isConcrete());
  EXPECT_TRUE(ty("Ptr")->hasTypeVars());
  EXPECT_TRUE(C.typeOfType(C.float32())->isConcrete());
  EXPECT_TRUE(C.typeOfType(C.float32())->isSingleton());
  // The value `DeviceArray` (a bare UnionAll) has a concrete type.
  EXPECT_TRUE(C.typeOfType(C.bareType(deviceArrayName()))->isConcrete());
  EXPECT_EQ(C.typeOfType(C.bareType(deviceArrayName()))->str(), "Type{DeviceArray}");
  EXPECT_FALSE(C.typeOfType(tv("T"))->isConcrete());
}

TEST(Types, InterningIsPointerEquality) {
  TypeContext &C = ctx();
  EXPECT_EQ(C.ptr(C.float32()), C.ptr(C.float32()));
  EXPECT_EQ(tup({C.int64(), C.float32()}), tup({C.int64(), C.float32()}));
  EXPECT_NE(tup({C.int64(), C.float32()}), tup({C.float32(), C.int64()}));
  EXPECT_EQ(uni({C.int64(), C.float32()}), uni({C.float32(), C.int64()}));
  EXPECT_EQ(uni({C.int64(), C.int64()}), C.int64());
  EXPECT_EQ(uni({C.int64(), ty("Integer")}), ty("Integer"));
  EXPECT_EQ(uni({}), C.bottom());
  EXPECT_EQ(uni({C.int32(), uni({C.int64(), C.float32()})}),
            uni({C.float32(), C.int32(), C.int64()}));
  EXPECT_EQ(C.intValue(3), C.intValue(3));
  EXPECT_EQ(devArray(C.float32(), 1), devArray(C.float32(), 1));
  // Type variables are never interned: each `where T` is its own variable.
  EXPECT_NE(tv("T"), tv("T"));
}

TEST(Types, InterningFromEightThreads) {
  constexpr int NumThreads = 8, Rounds = 50;
  std::vector<std::vector<Type *>> Seen(NumThreads);
  std::atomic<int> Ready{0};
  std::vector<std::thread> Threads;
  for (int I = 0; I < NumThreads; ++I)
    Threads.emplace_back([I, &Seen, &Ready] {
      TypeContext &C = ctx();
      // Start together so that threads race on creating the same types.
      Ready.fetch_add(1);
      while (Ready.load() < NumThreads)
        std::this_thread::yield();
      for (int R = 0; R < Rounds; ++R) {
        // Types nobody built before this test.
        Seen[I].push_back(devArray(C.uint16(), 3 + R));
        Seen[I].push_back(tup({C.int8(), C.ptr(C.ptr(C.uint16())), C.intValue(1000 + R)}));
        Seen[I].push_back(uni({C.int16(), C.ptr(C.float16()), C.ptr(devArray(C.int8(), R))}));
        Seen[I].push_back(C.ntuple(5 + R, C.uint8()));
        Seen[I].push_back(C.typeOfType(devArray(C.int8(), 100 + R)));
      }
    });
  for (auto &T : Threads)
    T.join();
  for (int I = 1; I < NumThreads; ++I) {
    ASSERT_EQ(Seen[I].size(), Seen[0].size());
    for (size_t K = 0; K < Seen[0].size(); ++K)
      EXPECT_EQ(Seen[0][K], Seen[I][K]) << "thread " << I << " type " << K;
  }
  EXPECT_EQ(Seen[0][0], devArray(ctx().uint16(), 3));
}

TEST(Types, NTupleNormalisesToTuple) {
  TypeContext &C = ctx();
  Type *NT[] = {C.intValue(3), C.int64()};
  EXPECT_EQ(C.apply(C.ntupleName(), NT), tup({C.int64(), C.int64(), C.int64()}));
  EXPECT_EQ(C.ntuple(0, C.int64()), tup({}));
  // The field pattern `dims::NTuple{N,Int}` becomes a plain tuple once N is
  // known.
  Type *DA = devArray(C.float32(), 2);
  ASSERT_EQ(DA->fieldTypes().size(), 2u);
  EXPECT_EQ(DA->fieldTypes()[0], C.ptr(C.float32()));
  EXPECT_EQ(DA->fieldTypes()[1], tup({C.int64(), C.int64()}));
  EXPECT_EQ(DA->fieldIndex(Symbol::get("dims")), 1);
  EXPECT_EQ(DA->fieldIndex(Symbol::get("nope")), -1);
  EXPECT_EQ(DA->super(), absArray(C.float32(), C.intValue(2)));
  // With N unbound it stays a pattern.
  Type *N = tv("N");
  Type *Pat[] = {N, C.int64()};
  Type *P = C.apply(C.ntupleName(), Pat);
  EXPECT_TRUE(P->hasTypeVars());
  EXPECT_EQ(P->str(), "NTuple{N, Int64}");
  Type *Vals[] = {C.intValue(2)};
  Type *Vars[] = {N};
  EXPECT_EQ(C.substitute(P, Vars, Vals), tup({C.int64(), C.int64()}));
}

TEST(Types, PrintingAsJulia) {
  TypeContext &C = ctx();
  EXPECT_EQ(C.int64()->str(), "Int64");
  EXPECT_EQ(ty("Int")->str(), "Int64");
  EXPECT_EQ(C.any()->str(), "Any");
  EXPECT_EQ(C.bottom()->str(), "Union{}");
  EXPECT_EQ(C.nothing()->str(), "Nothing");
  EXPECT_EQ(devArray(C.float32(), 1)->str(), "DeviceArray{Float32, 1}");
  EXPECT_EQ(C.ptr(C.float32())->str(), "Ptr{Float32}");
  EXPECT_EQ(uni({C.int64(), C.float32()})->str(), "Union{Float32, Int64}");
  EXPECT_EQ(uni({C.int64(), C.nothing()})->str(), "Union{Nothing, Int64}");
  EXPECT_EQ(uni({ty("Integer"), C.float64()})->str(), "Union{Float64, Integer}");
  EXPECT_EQ(C.typeOfType(C.float32())->str(), "Type{Float32}");
  EXPECT_EQ(tup({C.int64(), C.float32()})->str(), "Tuple{Int64, Float32}");
  EXPECT_EQ(tup({})->str(), "Tuple{}");
  // Julia prints homogeneous tuples compactly only past three elements.
  EXPECT_EQ(C.ntuple(3, C.int64())->str(), "Tuple{Int64, Int64, Int64}");
  EXPECT_EQ(C.ntuple(4, C.int64())->str(), "NTuple{4, Int64}");
  EXPECT_EQ(tup({C.float32(), C.int64(), C.int64(), C.int64()})->str(),
            "Tuple{Float32, Int64, Int64, Int64}");
  EXPECT_EQ(ty("Ptr")->str(), "Ptr");
  EXPECT_EQ(ty("Type")->str(), "Type");
  EXPECT_EQ(ty("Tuple")->str(), "Tuple");
  EXPECT_EQ(ctx().bareType(deviceArrayName())->str(), "DeviceArray");
  Type *T = tv("T");
  EXPECT_EQ(devArray(T, 1)->str(), "DeviceArray{T, 1}");
  EXPECT_EQ(C.intValue(-3)->str(), "-3");
  EXPECT_EQ(C.symbolValue(Symbol::get("π"))->str(), ":π");
}

// A symbol parameter (`Irrational{:π}`) is a value, interned like `1`:
// equal symbols are one object, distinct ones never equal.
TEST(Types, SymbolParametersAreInternedValues) {
  TypeContext &C = ctx();
  Type *Pi = C.symbolValue(Symbol::get("π"));
  EXPECT_EQ(Pi, C.symbolValue(Symbol::get("π")));
  EXPECT_NE(Pi, C.symbolValue(Symbol::get("ℯ")));
  EXPECT_TRUE(Pi->isValueParam());
  EXPECT_FALSE(Pi->isConcrete());
  EXPECT_FALSE(typeEqual(Pi, C.symbolValue(Symbol::get("ℯ"))));
}

TEST(Types, FunctionTypes) {
  GlobalEnv Env;
  GenericFunction *Sq = Env.getOrCreateFunction(Symbol::get("square"));
  Type *T = Sq->type();
  EXPECT_EQ(T, Sq->type());
  EXPECT_EQ(T, ctx().functionType(Sq));
  EXPECT_EQ(T->str(), "typeof(square)");
  EXPECT_TRUE(T->isFunctionType());
  EXPECT_TRUE(T->isConcrete());
  EXPECT_TRUE(T->isSingleton());
  EXPECT_EQ(T->name()->Func, Sq);
  EXPECT_TRUE(isSubtype(T, ty("Function")));
}
