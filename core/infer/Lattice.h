/// \file
/// Helpers over inference's lattice (`LatticeType`): building constants,
/// the join used at control-flow merges, and the mapping from singleton
/// types to their constant. Internal to infer/.
#pragma once

#include "infer/CodeInstance.h"

namespace prism::infer {

/// Unions wider than this are widened to Any at merges: the kernel language
/// cannot represent them anyway and it bounds the lattice height, which is
/// what makes loops and recursion converge.
constexpr unsigned MaxUnionMembers = 4;

LatticeType bottomLattice();
LatticeType anyLattice();
/// The lattice element of a value of type T: singleton types carry their
/// constant (`Type{Float32}` → Const(Float32), `typeof(f)` → Const(f),
/// `Nothing` → Const(nothing)).
LatticeType latticeOf(Type *T);

ConstValue constInt(Type *Ty, uint64_t Bits);
ConstValue constBool(bool B);
ConstValue constFloat(Type *Ty, double V); ///< Float32/Float64 (rounded to Ty)
ConstValue constType(Type *T);             ///< `Float32` as a value
ConstValue constFunc(GenericFunction *F);
ConstValue constNothing();
ConstValue constSym(Symbol S);
/// A `where`-bound parameter value as a constant: an IntValue becomes an
/// Int64 constant (`N`), a type a Type constant.
std::optional<ConstValue> constOfParam(Type *P);

/// Least upper bound: equal constants stay, otherwise the types join
/// (typeJoin), unions wider than MaxUnionMembers become Any.
LatticeType join(const LatticeType &A, const LatticeType &B);
/// A ⊑ B (A at least as precise as B).
bool lessOrEqual(const LatticeType &A, const LatticeType &B);
bool sameLatticeFields(const LatticeType &A, const LatticeType &B);
/// Drops constants and partial fields (used when widening recursion).
LatticeType widenConst(const LatticeType &A);

/// Int/Bool bits truncated to the width of Ty.
uint64_t truncBits(Type *Ty, uint64_t Bits);
/// Sign-extends Bits from Ty's width.
int64_t signedValue(Type *Ty, uint64_t Bits);

} // namespace prism::infer
