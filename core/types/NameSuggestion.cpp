#include "types/NameSuggestion.h"

#include "types/Method.h"
#include "types/Type.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

namespace prism {

bool isBaseOnlyFunction(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {
      "zeros",         "ones",        "fill",         "similar",
      "map",           "map!",        "reduce",       "foldl",
      "foldr",         "mapreduce",   "sum",          "prod",
      "maximum",       "minimum",     "extrema",      "any",
      "all",           "count",       "findfirst",    "findall",
      "filter",        "sort",        "sort!",        "reverse",
      "collect",       "push!",       "append!",      "pop!",
      "println",       "print",       "show",         "string",
      "repr",          "error",       "rand",         "randn",
      "ntuple",        "mod1",        "fld1",         "isqrt",
      "exp10",         "cospi",       "sinpi",        "sincos",
      "sincospi",      "bitrotate",   "widemul",      "lcm",
      "factorial",     "binomial",    "cumsum",       "cumprod",
      "vec",           "reshape",     "view",         "copy",
      "deepcopy",      "keys",        "values",       "pairs",
      "Dict",          "Vector",      "Array",        "Matrix",
      "CuArray",       "cu",          "sum!",         "fill!",
      "copyto!",       "ldexp",       "frexp",        "exponent",
      "significand",   "ispow2",      "isapprox",     "widen",
      "nextpow",       "prevpow",     "asinh",        "acosh",
      "atanh",         "sec",         "csc",          "cot",
      "deg2rad",       "rad2deg",     "mod2pi",       "rem2pi",
      "RoundDown",     "RoundUp",     "RoundNearest", "RoundToZero",
      "RoundFromZero", "RoundingMode"};
  return Names.contains(Name);
}

std::string cudaOnlyAdvice(llvm::StringRef Name) {
  static const llvm::StringSet<> Warp = {
      "shfl_sync",     "shfl_up_sync",  "shfl_down_sync", "shfl_xor_sync",
      "vote_all_sync", "vote_any_sync", "vote_uni_sync",  "vote_ballot_sync",
      "sync_warp",     "laneid",        "warpsize",       "active_mask",
      "lanemask"};
  static const llvm::StringSet<> Atomics = {
      "atomic_cas!", "atomic_max!", "atomic_min!", "atomic_xchg!",
      "atomic_sub!", "atomic_and!", "atomic_or!",  "atomic_xor!",
      "atomic_inc!", "atomic_dec!"};
  if (Warp.contains(Name))
    return "warp-level functions are CUDA.jl's, not the kernel language's: "
           "share values through a `CuStaticSharedArray` and `sync_threads()`";
  if (Atomics.contains(Name))
    return "of CUDA.jl's atomics the kernel language has `atomic_add!` (and "
           "`@atomic a[i] += x`) only";
  if (Name == "CuDynamicSharedArray")
    return "dynamic shared memory is not in the kernel language: use "
           "`CuStaticSharedArray(T, n)` with a constant size";
  if (Name == "sync_threads_count" || Name == "sync_threads_and" ||
      Name == "sync_threads_or")
    return "CUDA.jl's `" + Name.str() +
           "` is not in the kernel language: `sync_threads()` and a shared "
           "array do the same";
  if (Name.startswith("threadfence"))
    return "memory fences are not in the kernel language: `sync_threads()` "
           "orders a block's memory";
  if (Name == "rsqrt")
    return "CUDA.jl's `rsqrt` is not in the kernel language: write "
           "`1 / sqrt(x)`";
  if (Name == "i32" || Name == "i64")
    return "CUDA.jl's literal suffix `" + Name.str() + "` (`10" + Name.str() +
           "`) is not in the kernel language: write `" +
           (Name == "i32" ? "Int32" : "Int64") + "(10)`";
  return "";
}

namespace {

/// The nearest candidate within the edit limit; `Preferred` wins a tie.
class Nearest {
public:
  explicit Nearest(llvm::StringRef Name)
      : Name(Name),
        Limit(Name.size() <= 2 ? 0 : Name.size() <= 4 ? 1 : 2) {}
  bool possible() const { return Limit > 0; }
  void consider(llvm::StringRef Candidate, bool Preferred) {
    // Lowering's names are not the user's either.
    if (Candidate.empty() || Candidate == Name || Candidate.front() == '#' ||
        Candidate.front() == '_' || Candidate.contains('#'))
      return;
    unsigned D = Name.edit_distance(Candidate, true, Limit);
    bool Better = D < BestDistance ||
                  (D == BestDistance && Preferred && !BestPreferred) ||
                  (D == BestDistance && Preferred == BestPreferred &&
                   Candidate < Best);
    if (D <= Limit && Better) {
      BestDistance = D;
      Best = Candidate.str();
      BestPreferred = Preferred;
    }
  }
  std::string best() const { return Best; }

private:
  llvm::StringRef Name;
  unsigned Limit;
  std::string Best;
  unsigned BestDistance = 3;
  bool BestPreferred = false;
};

} // namespace

std::string nearestFunctionName(const GlobalEnv &Env, llvm::StringRef Name,
                                llvm::ArrayRef<llvm::StringRef> Locals) {
  // Public prelude names with an underscore; the others are its own.
  static const llvm::StringSet<> PublicWithUnderscore = {
      "atomic_add!",    "count_ones",   "count_zeros", "leading_zeros",
      "trailing_zeros", "unsafe_trunc", "unsafe_load", "unsafe_store!",
      "sync_threads",   "promote_type"};
  Nearest N(Name);
  if (!N.possible() || isBaseOnlyFunction(Name) ||
      !cudaOnlyAdvice(Name).empty())
    return "";
  for (const GenericFunction *GF : Env.functions()) {
    if (GF->K == GenericFunction::BuiltinFn)
      continue;
    llvm::StringRef F = GF->Name.str();
    bool PreludeOnly =
        llvm::all_of(GF->methodsIn(WorldInfinity - 1),
                     [](const Method *M) { return M->IsPrelude; });
    if (PreludeOnly && F.contains('_') && !PublicWithUnderscore.contains(F))
      continue;
    N.consider(F, /*Preferred=*/true);
  }
  for (llvm::StringRef L : Locals)
    N.consider(L, /*Preferred=*/false);
  return N.best();
}

std::string nearestTypeName(const GlobalEnv &Env, llvm::StringRef Name) {
  Nearest N(Name);
  if (!N.possible())
    return "";
  for (const TypeName *T : Env.typeNames())
    N.consider(T->Name.str(), /*Preferred=*/true);
  // The builtin types are the type context's, not the environment's.
  for (const char *B :
       {"Bool", "Int8", "Int16", "Int32", "Int64", "Int128", "UInt8", "UInt16",
        "UInt32", "UInt64", "UInt128", "Float16", "Float32", "Float64", "Int",
        "UInt", "Ptr", "Tuple", "NTuple", "Any", "Nothing", "Type"})
    if (TypeContext::get().builtinName(Symbol::get(B)) ||
        Env.lookupType(Symbol::get(B)))
      N.consider(B, /*Preferred=*/true);
  return N.best();
}

std::string arrayTypeAdvice(llvm::StringRef Name) {
  if (Name == "Vector" || Name == "CuVector")
    return "a kernel takes a vector as `DeviceArray{T,1}`, e.g. "
           "`DeviceArray{Float32,1}`";
  if (Name == "Matrix" || Name == "CuMatrix")
    return "a kernel takes a matrix as `DeviceArray{T,2}`, e.g. "
           "`DeviceArray{Float32,2}`";
  if (Name == "Array" || Name == "CuArray")
    return "a kernel takes an array as `DeviceArray{T,N}` (CUDA.jl's "
           "`CuDeviceArray{T,N}`), e.g. `DeviceArray{Float32,1}`";
  return "";
}

} // namespace prism
