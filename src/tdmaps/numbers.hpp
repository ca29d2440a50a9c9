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
// tetrahedral enumeration (003, eq. (11)). Both take an estimate that is proven to
// be within one of the answer and make ONE compare-and-step each way
// (tri_correct / tet_correct): no loops. The same correction serves the maps'
// narrow (u32) and wide (u64) paths.
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

// ---- one index width at a time (U = u32 or u64) ------------------------------------
// tri(n) in U: exact while n(n+1) < 2^bits(U) (u32: n <= 65535).
template <class U> TD_HD U tri_t(U n) { return (n * (n + 1u)) >> 1; }
// tet(n) in U from t = tri(n): t(n+2) is a multiple of 3, so dividing it by 3 is
// multiplying by 3's inverse modulo 2^bits(U): exact whenever tet(n) < 2^bits(U),
// even if the product itself wraps.
template <class U> struct inv3;
template <> struct inv3<u32> { static constexpr u32 value = 0xAAAAAAABu; };
template <> struct inv3<u64> { static constexpr u64 value = 0xAAAAAAAAAAAAAAABull; };
template <class U> TD_HD U tet_from_tri(U t, U n) { return t * (n + 2u) * inv3<U>::value; }
// tet(n) in U, exact while n(n+1) < 2^bits(U) and tet(n) < 2^bits(U) (the layouts'
// slot offsets: u64 for n < 2^21; verify/test_layout3d.cpp compares it with tet()).
template <class U> TD_HD U tet_t(U n) { return tet_from_tri(tri_t(n), n); }

TD_HD u64 tet(u64 n) {
  // n(n+1)(n+2)/6 = tri(n) * (n+2) / 3 (tet_from_tri: the division is a multiplication
  // by 3's inverse modulo 2^64, exact whenever tet(n) < 2^64, free of a 64-bit division).
  return tet_from_tri<u64>(tri(n), n);
}

// A root with its base: k and tri(k) (rows) or tet(k) (layers).
template <class U> struct Root {
  U k, base;
};
// The row of l from an estimate e in {i-1, i, i+1} (i = the row): one compare-and-step
// each way. tri(e+1) = tri(e) + e + 1 and tri(e-1) = tri(e) - e, so tri is evaluated
// once. Needs tri(e) and tri(e+1) representable in U.
template <class U> TD_HD Root<U> tri_correct(U l, U e) {
  U t = tri_t(e);
  if (l < t) { t -= e; e -= 1u; }                // estimate one too large
  else if (l - t > e) { e += 1u; t += e; }       // l >= tri(e+1): one too small
  return Root<U>{e, t};
}
// The layer of l from an estimate e in {z-1, z, z+1}: tet(e+1) = tet(e) + tri(e+1),
// tet(e-1) = tet(e) - tri(e). Needs tet(e+1) < 2^bits(U) and e(e+1) < 2^bits(U).
template <class U> TD_HD Root<U> tet_correct(U l, U e) {
  const U t = tri_t(e);
  U T = tet_from_tri(t, e);
  if (l < T) { T -= t; e -= 1u; }
  else if (l - T > t + e) { T += t + e + 1u; e += 1u; }
  return Root<U>{e, T};
}

// Wide estimates (u64), used beyond the narrow path: double precision, so the
// rounding error stays far below one for every argument the maps accept.
//   row:   floor(sqrt(2l + 1/4) - 1/2) in double: for l < 2^62 the computed value is
//          within 2^-19 of the real one, so the estimate is i or i +- 1
//          (verify/test_index_paths.cpp checks both ends of every row, where the
//          estimate is monotone in l).
//   layer: floor(cbrt(6l)) - 1 in double, for l < 2^60 (z < 2^21): within 2^-30 of
//          cbrt(6l) in [z + 0.81, z + 2), so z - 1 <= estimate <= z.
TD_HD u64 tri_estimate_wide(u64 l) {
  const double x = dadd_rn(dmul_rn(2.0, to_double_rn(l)), 0.25);
  return double_floor_nonneg<u64>(dsub_rn(dsqrt_rn(x), 0.5));
}
TD_HD u64 tet_estimate_wide(u64 l) {
  const u64 c = double_floor_nonneg<u64>(cbrt(dmul_rn(6.0, to_double_rn(l))));
  return c > 0 ? c - 1 : 0;
}

// Exact for every l < 2^62 (tri(i+1) stays below 2^64).
TD_HD u64 tri_root(u64 l) { return tri_correct<u64>(l, tri_estimate_wide(l)).k; }
// Exact for every l < 2^60 (tet(z+1) stays below 2^64).
TD_HD u64 tet_root(u64 l) { return tet_correct<u64>(l, tet_estimate_wide(l)).k; }

// a / b rounded up, for a >= 0, b > 0, without the overflow of a + b - 1 near 2^63.
TD_HD i64 ceil_div(i64 a, i64 b) { return a / b + (a % b != 0); }

}  // namespace tdmaps
