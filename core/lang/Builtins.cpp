#include "lang/HostMath.h"
#include "lang/IR.h"

#include <string_view>

namespace prism {

namespace {
struct BuiltinEntry {
  Builtin B;
  const char *Name;
};
// Names as the prelude spells them (Julia's Core / Core.Intrinsics names
// where one exists).
constexpr BuiltinEntry BuiltinTable[] = {
    {Builtin::None, "<none>"},
    {Builtin::GetField, "getfield"},
    {Builtin::SetField, "setfield!"},
    {Builtin::TupleNew, "tuple"},
    {Builtin::New, "new"},
    {Builtin::Egal, "==="},
    {Builtin::TypeOf, "typeof"},
    {Builtin::IsA, "isa"},
    {Builtin::Throw, "throw"},
    {Builtin::BoundsCheck, "boundscheck"},
    {Builtin::TypeAssert, "typeassert"},
    {Builtin::ApplyType, "apply_type"},
    {Builtin::TypeJoin, "typejoin"},
    {Builtin::NFields, "nfields"},
    {Builtin::SizeOf, "sizeof_type"},
    {Builtin::AddInt, "add_int"},
    {Builtin::SubInt, "sub_int"},
    {Builtin::MulInt, "mul_int"},
    {Builtin::NegInt, "neg_int"},
    {Builtin::SDivInt, "sdiv_int"},
    {Builtin::UDivInt, "udiv_int"},
    {Builtin::SRemInt, "srem_int"},
    {Builtin::URemInt, "urem_int"},
    {Builtin::AndInt, "and_int"},
    {Builtin::OrInt, "or_int"},
    {Builtin::XorInt, "xor_int"},
    {Builtin::NotInt, "not_int"},
    {Builtin::ShlInt, "shl_int"},
    {Builtin::LShrInt, "lshr_int"},
    {Builtin::AShrInt, "ashr_int"},
    {Builtin::EqInt, "eq_int"},
    {Builtin::NeInt, "ne_int"},
    {Builtin::SltInt, "slt_int"},
    {Builtin::SleInt, "sle_int"},
    {Builtin::UltInt, "ult_int"},
    {Builtin::UleInt, "ule_int"},
    {Builtin::CtpopInt, "ctpop_int"},
    {Builtin::CtlzInt, "ctlz_int"},
    {Builtin::CttzInt, "cttz_int"},
    {Builtin::BswapInt, "bswap_int"},
    {Builtin::BitreverseInt, "bitreverse_int"},
    {Builtin::AddFloat, "add_float"},
    {Builtin::SubFloat, "sub_float"},
    {Builtin::MulFloat, "mul_float"},
    {Builtin::DivFloat, "div_float"},
    {Builtin::RemFloat, "rem_float"},
    {Builtin::NegFloat, "neg_float"},
    {Builtin::FmaFloat, "fma_float"},
    {Builtin::MuladdFloat, "muladd_float"},
    {Builtin::EqFloat, "eq_float"},
    {Builtin::NeFloat, "ne_float"},
    {Builtin::LtFloat, "lt_float"},
    {Builtin::LeFloat, "le_float"},
    {Builtin::SqrtLlvm, "sqrt_llvm"},
    {Builtin::AbsFloat, "abs_float"},
    {Builtin::CopysignFloat, "copysign_float"},
    {Builtin::FloorLlvm, "floor_llvm"},
    {Builtin::CeilLlvm, "ceil_llvm"},
    {Builtin::TruncLlvm, "trunc_llvm"},
    {Builtin::RintLlvm, "rint_llvm"},
    {Builtin::ExpFloat, "exp_float"},
    {Builtin::LogFloat, "log_float"},
    {Builtin::SinFloat, "sin_float"},
    {Builtin::CosFloat, "cos_float"},
    {Builtin::PowFloat, "pow_float"},
    {Builtin::Exp2Float, "exp2_float"},
    {Builtin::Log2Float, "log2_float"},
    {Builtin::Log10Float, "log10_float"},
    {Builtin::TanFloat, "tan_float"},
    {Builtin::AtanFloat, "atan_float"},
    {Builtin::Atan2Float, "atan2_float"},
    {Builtin::TanhFloat, "tanh_float"},
    {Builtin::SinhFloat, "sinh_float"},
    {Builtin::CoshFloat, "cosh_float"},
    {Builtin::AsinFloat, "asin_float"},
    {Builtin::AcosFloat, "acos_float"},
    {Builtin::CbrtFloat, "cbrt_float"},
    {Builtin::Expm1Float, "expm1_float"},
    {Builtin::Log1pFloat, "log1p_float"},
    {Builtin::SextInt, "sext_int"},
    {Builtin::ZextInt, "zext_int"},
    {Builtin::TruncInt, "trunc_int"},
    {Builtin::FptoSi, "fptosi"},
    {Builtin::FptoUi, "fptoui"},
    {Builtin::SitoFp, "sitofp"},
    {Builtin::UitoFp, "uitofp"},
    {Builtin::Fptrunc, "fptrunc"},
    {Builtin::Fpext, "fpext"},
    {Builtin::Bitcast, "bitcast"},
    {Builtin::PointerRef, "pointerref"},
    {Builtin::PointerSet, "pointerset"},
    {Builtin::PointerAdd, "pointeradd"},
    {Builtin::AtomicAdd, "atomic_add"},
    {Builtin::ThreadIdxX, "thread_idx_x"},
    {Builtin::ThreadIdxY, "thread_idx_y"},
    {Builtin::ThreadIdxZ, "thread_idx_z"},
    {Builtin::BlockIdxX, "block_idx_x"},
    {Builtin::BlockIdxY, "block_idx_y"},
    {Builtin::BlockIdxZ, "block_idx_z"},
    {Builtin::BlockDimX, "block_dim_x"},
    {Builtin::BlockDimY, "block_dim_y"},
    {Builtin::BlockDimZ, "block_dim_z"},
    {Builtin::GridDimX, "grid_dim_x"},
    {Builtin::GridDimY, "grid_dim_y"},
    {Builtin::GridDimZ, "grid_dim_z"},
    {Builtin::SyncThreads, "sync_threads"},
    {Builtin::SharedArray, "shared_array"},
    {Builtin::BpfLoadByte, "bpf_load_byte"},
    {Builtin::BpfLoadHalf, "bpf_load_half"},
    {Builtin::BpfLoadWord, "bpf_load_word"},
};
static_assert(std::size(BuiltinTable) ==
                  static_cast<size_t>(Builtin::NumBuiltins),
              "every Builtin needs a name");
constexpr bool tableInEnumOrder() {
  for (size_t I = 0; I < std::size(BuiltinTable); ++I)
    if (static_cast<size_t>(BuiltinTable[I].B) != I)
      return false;
  return true;
}
static_assert(tableInEnumOrder(), "BuiltinTable must follow enum order");
} // namespace

const char *builtinName(Builtin B) {
  auto I = static_cast<size_t>(B);
  if (I >= std::size(BuiltinTable))
    return "<invalid>";
  return BuiltinTable[I].Name;
}

Builtin builtinByName(std::string_view Name) {
  for (const BuiltinEntry &E : BuiltinTable)
    if (E.B != Builtin::None && Name == E.Name)
      return E.B;
  return Builtin::None;
}

static constexpr LibmOnlyFn LibmOnlyTable[] = {
    {Builtin::TanFloat, "tan", "tan", 1},
    {Builtin::AtanFloat, "atan", "atan", 1},
    {Builtin::Atan2Float, "atan2", "atan", 2},
    {Builtin::TanhFloat, "tanh", "tanh", 1},
    {Builtin::SinhFloat, "sinh", "sinh", 1},
    {Builtin::CoshFloat, "cosh", "cosh", 1},
    {Builtin::AsinFloat, "asin", "asin", 1},
    {Builtin::AcosFloat, "acos", "acos", 1},
    {Builtin::CbrtFloat, "cbrt", "cbrt", 1},
    {Builtin::Expm1Float, "expm1", "expm1", 1},
    {Builtin::Log1pFloat, "log1p", "log1p", 1},
};

const LibmOnlyFn *libmOnly(Builtin B) {
  for (const LibmOnlyFn &F : LibmOnlyTable)
    if (F.B == B)
      return &F;
  return nullptr;
}

const LibmOnlyFn *libmOnlyByC(std::string_view Name) {
  if (Name.ends_with('f'))
    if (const LibmOnlyFn *F = libmOnlyByC(Name.substr(0, Name.size() - 1)))
      return F;
  for (const LibmOnlyFn &F : LibmOnlyTable)
    if (Name == F.C)
      return &F;
  return nullptr;
}

bool float32InFloat64(Builtin B) {
  return B == Builtin::SinFloat || B == Builtin::CosFloat ||
         B == Builtin::TanFloat || B == Builtin::LogFloat ||
         B == Builtin::Log2Float || B == Builtin::Log10Float ||
         B == Builtin::CbrtFloat;
}

uint64_t foldIntUnary(Builtin B, uint64_t X, unsigned W) {
  uint64_t Mask = W >= 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
  X &= Mask;
  switch (B) {
  case Builtin::CtpopInt:
    return __builtin_popcountll(X);
  case Builtin::CtlzInt:
    return X == 0 ? W : __builtin_clzll(X) - (64 - W);
  case Builtin::CttzInt:
    return X == 0 ? W : __builtin_ctzll(X);
  case Builtin::BswapInt:
    return W % 16 ? X : __builtin_bswap64(X) >> (64 - W);
  case Builtin::BitreverseInt: {
    uint64_t R = 0;
    for (unsigned I = 0; I < W; ++I)
      R |= ((X >> I) & 1) << (W - 1 - I);
    return R;
  }
  default:
    return X;
  }
}

} // namespace prism
