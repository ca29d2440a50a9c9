// tdmaps/numbers.hpp — triangular and tetrahedral numbers and their exact
// integer inverses (host and device).
//
//   tri(n) = n(n+1)/2            cells of a lower triangle with diagonal, side n
//   tet(n) = n(n+1)(n+2)/6       cells of the 3-simplex "pyramid" of side n
//                                (003_66f856975a7ab3ee.txt, eq. (2))
//
// tri_root(l) is the largest i with tri(i) <= l: the block row of linear block
// index l in the lower-triangular enumeration (000_dc8ca915cfc23e3c.txt, eq. (1)).
// tet_root(l) is the largest z with tet(z) <= l: the layer of l in the
// tetrahedral enumeration (003, eq. (11)). Both take a float estimate and then
// correct it with exact 64-bit integer comparisons, so the result is exact for
// every argument in the documented range whatever the rounding of the estimate
// (device sqrtf/cbrtf and the host's need not agree: the correction makes the
// answer unique).
#pragma once
#include "config.hpp"

namespace tdmaps {

TD_HD u64 tri(u64 n) {
  if (n < 65536) {  // n(n+1) < 2^32: one 32-bit multiply (the usual case on the device)
    const u32 m = static_cast<u32>(n);
    return static_cast<u64>((m * (m + 1)) >> 1);
  }
  return (n & 1u) ? n * ((n + 1) / 2) : (n / 2) * (n + 1);
}

TD_HD u64 tet(u64 n) {
  // n(n+1)(n+2)/6 = tri(n) * (n+2) / 3. The product is a multiple of 3, so the
  // division is a multiplication by 3's inverse modulo 2^64 (0xAAAAAAAAAAAAAAAB):
  // exact whenever tet(n) < 2^64, even if the product itself wraps, and free of
  // the 64-bit division the device would otherwise run on every block.
  return tri(n) * (n + 2) * 0xAAAAAAAAAAAAAAABull;
}

// Exact for every l < 2^62 (tri(i+1) stays below 2^64).
TD_HD u64 tri_root(u64 l) {
  const float x = fadd_rn(fmul_rn(2.0f, u64_to_float_rn(l)), 0.25f);
  u64 i = static_cast<u64>(float_to_i64_floor_nonneg(fsub_rn(fsqrt_rn(x), 0.5f)));
  while (tri(i + 1) <= l) ++i;  // estimate too small
  while (tri(i) > l) --i;       // estimate too large
  return i;
}

// Exact for every l < 2^60 (tet(z+1) stays below 2^64).
TD_HD u64 tet_root(u64 l) {
  // tet(z) ~ (z+1)^3/6, so z ~ cbrt(6l) - 1.
  const float c = cbrtf(fmul_rn(6.0f, u64_to_float_rn(l)));
  i64 z = float_to_i64_floor_nonneg(c) - 1;
  u64 zu = z > 0 ? static_cast<u64>(z) : 0;
  while (tet(zu + 1) <= l) ++zu;
  while (tet(zu) > l) --zu;
  return zu;
}

TD_HD i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

}  // namespace tdmaps
