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

// ---- the rounding of a float map's a*b + c (the FMA mode) --------------------------------
// The float maps (map_ltm.hpp ltm-x/n/r, map_utm.hpp utm-x/n, map_3d.hpp tet-f) write every
// multiply-then-add of their formula through a rounding policy R:
//   Pinned  the product rounded, then the sum: two roundings, the pinned *_rn helpers of
//           config.hpp. The library's kernels and plan() use this (the default everywhere).
//   Fused   a*b + c with ONE rounding (fmaf): what nvcc's default -fmad=true makes of the
//           papers' formulas written in plain C. Used only by the exact-range searches (the
//           oracle, verify/exact_table, and experiments/maps2d/gpu_exact_range, which
//           compiles it to __fmaf_rn) to find the ranges of the papers' binaries.
// Which products nvcc fuses was read from the SASS of the formulas as printed
// (verify/fma_contraction.cu, checked by verify/fma_contraction.sh): each call site below
// is one FFMA there. Four shapes, so that Pinned keeps the operation order the kernels had
// (their SASS unchanged):
//   mul_add(a, b, c) = a*b + c,  add_mul(c, a, b) = c + a*b,  mul_sub(a, b, c) = a*b - c,
//   sub_mul(c, a, b) = c - a*b.
TD_HD float ffma_rn(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);  // correctly rounded (libm fmaf), with or without a hardware FMA
#endif
}
struct Pinned {
  static constexpr const char* name = "pinned";
  TD_HD static float mul_add(float a, float b, float c) { return fadd_rn(fmul_rn(a, b), c); }
  TD_HD static float add_mul(float c, float a, float b) { return fadd_rn(c, fmul_rn(a, b)); }
  TD_HD static float mul_sub(float a, float b, float c) { return fsub_rn(fmul_rn(a, b), c); }
  TD_HD static float sub_mul(float c, float a, float b) { return fsub_rn(c, fmul_rn(a, b)); }
};
struct Fused {
  static constexpr const char* name = "fma";
  TD_HD static float mul_add(float a, float b, float c) { return ffma_rn(a, b, c); }
  TD_HD static float add_mul(float c, float a, float b) { return ffma_rn(a, b, c); }
  TD_HD static float mul_sub(float a, float b, float c) { return ffma_rn(a, b, -c); }
  TD_HD static float sub_mul(float c, float a, float b) { return ffma_rn(-a, b, c); }
};

// a / b rounded up, for a >= 0, b > 0, without the overflow of a + b - 1 near 2^63.
TD_HD i64 ceil_div(i64 a, i64 b) { return a / b + (a % b != 0); }

}  // namespace tdmaps
