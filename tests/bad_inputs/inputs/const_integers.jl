# Integer constants convert exactly and wrap at their promoted width, as in Julia.
const N32 = Int32(8)
const U = UInt8(3)
const K = 2^10
const NB = -true
const W = 0xff + 0x01
const M = Int32(4) * 2
const F = Float32(N32) / 3
const T = Int16
const S = T(7)
const NEG = -U
const BIG = UInt64(1.8e19)
const TT = true + true
const P0 = 2^0
const FB = false^0
consts() = (N32, U, K, NB, W, M, F, S, NEG, BIG, TT, P0, FB)
