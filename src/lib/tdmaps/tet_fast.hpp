// tdmaps/tet_fast.hpp — a cheap exact layer root for the tetrahedral map g(lambda)
// of 003_66f856975a7ab3ee.txt, eq. (11)-(16): the policy TetRootFast, used as
// TET<TetRootFast> (map_3d.hpp), so the map itself is still written once.
//
// Why: eq. (17)-(18) bound the gain of g(lambda) over the bounding box by 6 beta / tau,
// tau the cost of mapping one block. TetRootF (eq. (14) as published) is wrong from
// lambda = 10 on the host; TetRootE (map_3d.hpp) is exact for every size, from an
// approximate lg2/ex2 cube root and one compare-and-step each way (32-bit path).
// TetRootFast, the bit-trick alternative, is exact over a stated range and uses only
//   * a bit-trick reciprocal cube root with three Newton steps in pinned-rounding
//     float (fmul_rn / fsub_rn: the host reproduces the device bit for bit), and
//   * ONE integer check of the estimate, on 32-bit products widened once to 64 bits.
//
// Layer (eq. (11)-(13)): z is the largest integer with tet(z) <= lambda, i.e. with
//   w = z + 1:   w^3 - w <= 6 lambda < (w+1)^3 - (w+1).
// Hence cbrt(6 lambda) lies in [cbrt(w^3 - w), w + 1), and cbrt(w^3 - w) >= w - 0.19
// for every w >= 2 (w = 2 is the worst case: cbrt(6) = 1.817). With an estimate c of
// cbrt(6 lambda) whose absolute error is below 0.06, e = floor(c + 0.25) - 1 is z or
// z + 1, so z = e - [e(e+1)(e+2) > 6 lambda]: one product, one comparison.
// The oracle (verify/test_layout3d.cpp) proves the "z or z + 1" property for every
// lambda < tet(2048) directly, and for every lambda < tet_fast_blocks through every
// float value that 6 lambda can round to (the estimate depends on nothing else).
//
// Row (the 2D part of eq. (16)): y is the largest integer with y(y+1)/2 <= lambda',
// i.e. sqrt(8 lambda' + 1) in [2y + 1, 2y + 3). The estimate e = floor(s/2 - 0.25),
// s = fsqrt_rn(8 lambda' + 1), is y or y + 1 whenever the float error of s is below
// 0.5, so y = e - [e(e+1) > 2 lambda']. Proven by the oracle for every
// lambda' < 2^29 (every lambda' the layer range can produce: tri(29771) < 2^29).
#pragma once
#include "numbers.hpp"
#include "map_3d.hpp"

namespace tdmaps {

namespace limits {
// TetRootFast: leading block indices proven exact: grids of tet(n) blocks with
// n <= 29770 (tet(29771) > 2^42); layers z <= 29770, estimates e <= 29771, so
// e (e + 1) fits 32 bits and lambda' < tri(29771) < 2^29.
constexpr u64 tet_fast_blocks = 1ull << 42;
// Its row function: every lambda' below this is proven exact.
constexpr u64 tet_fast_row_limit = 1ull << 29;
}  // namespace limits

// Reciprocal cube root by the bit trick (magic 0x54a2fa8c, the cube-root analogue
// of 0x5f3759df) and three Newton steps y <- y (4/3 - (x/3) y^3), then
// cbrt(x) = x * y^2. Every rounding is pinned (no FMA contraction), so host and
// device produce the same bits. Relative error < 5e-7 for normal x > 0. x = 0 gives
// NaN (0 * inf in the Newton step), which float_floor_nonneg maps to 0.
TD_HD float cbrt_newton3(float x) {
  float y = bits_to_float(0x54a2fa8cu - float_to_bits(x) / 3u);
  const float x3 = fmul_rn(x, 0.333333343f);
  for (int k = 0; k < 3; ++k) y = fmul_rn(y, fsub_rn(1.33333337f, fmul_rn(x3, fmul_rn(fmul_rn(y, y), y))));
  return fmul_rn(fmul_rn(x, y), y);
}

// The layer estimate e in {z, z + 1} (see above), from 6 lambda.
TD_HD u32 tet_fast_layer_estimate(u64 six_l) {
  return tet_layer_from_cbrt(cbrt_newton3(u64_to_float_rn(six_l)));
}
// z (z + 1) (z + 2) for z < 2^15 - 2: the first product fits 32 bits, one widening multiply.
TD_HD u64 tet6_small(u32 z) { return u64(z * (z + 1u)) * u64(z + 2u); }

// The row estimate e in {y, y + 1}, from lambda' < 2^29.
TD_HD u32 tri_fast_row_estimate(u32 lp) {
  const float s = fsqrt_rn(fadd_rn(fmul_rn(8.0f, to_float_rn(lp)), 1.0f));
  return float_floor_nonneg<u32>(fsub_rn(fmul_rn(0.5f, s), 0.25f));
}

// The results are masked to 15 bits: a no-op over the proven range (z <= 29770,
// y <= 32767 since y(y+1)/2 <= lambda' < 2^29), which tells the compiler that the
// products that follow fit 32-bit arithmetic. U is the index width of the path
// (narrow u32: tet(z) < 2^32; wide u64: up to tet_fast_blocks).
struct TetRootFast {
  static constexpr const char* name = "tet-fast";
  static constexpr u64 exact_blocks = limits::tet_fast_blocks;
  static constexpr u64 row_limit = limits::tet_fast_row_limit;  // row() is exact for lambda' below it
  // eq. (11)-(13): largest z with tet(z) <= l, with tet(z); exact for l < tet_fast_blocks.
  template <class U> TD_HD static Root<U> layer(U l) {
    const u64 six_l = 6u * u64(l);
    const u32 e = tet_fast_layer_estimate(six_l);
    const u32 z = (e - u32(tet6_small(e) > six_l)) & 0x7fffu;
    return Root<U>{U(z), tet_from_tri(U(tri_t<u32>(z)), U(z))};  // tri in 32 bits: z <= 29770
  }
  // eq. (16), y part: largest y with y(y+1)/2 <= lp; exact for lp < tet_fast_row_limit.
  template <class U> TD_HD static Root<U> row(U lp) {
    const u32 l32 = u32(lp);
    const u32 e = tri_fast_row_estimate(l32);
    const u32 y = (e - u32(e * (e + 1u) > 2u * l32)) & 0x7fffu;
    return Root<U>{U(y), U(tri_t<u32>(y))};
  }
};

using TET_FAST = TET<TetRootFast>;

}  // namespace tdmaps
