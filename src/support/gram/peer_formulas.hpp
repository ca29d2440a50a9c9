// gram/peer_formulas.hpp — peers' triangular index formulas, restated from their published
// descriptions (issue #27 item 6), and the row-boundary search that finds the first index each
// gets wrong. Host C++ only; no peer code is copied: each formula is written from its description.
//
//   pdist_row(n, k)        torch.pdist (ATen DistanceKernel.cu, as its comment describes it): the row
//                          of condensed index k among n points, in double,
//                          i = floor(n2 - sqrt(n2^2 - 1 - 2k)), n2 = n - 1/2.
//   tril_row(x)            PyTorch tril_indices / triu_indices ("resolve_root_int", as its comments
//                          describe it): the row of linear index x of the lower triangle with its
//                          diagonal (offset 0: b = 1, c = -2x): floor((-b + sqrt(b^2 - 4c)) / 2) with
//                          the root in double; where the double square of that root is not the integer
//                          b^2 - 4c again, a binary search over [res - e, res + e + 1),
//                          e = ceil(sqrt(|v - floor(sr)^2|)), for the largest m with (b + m) m <= 2x.
//                          Its int64 arithmetic overflows from x = 2^60 on (1 + 8x > 2^63 - 1): no
//                          defined value there (undefined_row).
//   quack_row_rn(idx)      QuACK (Dao-AILab/quack, triangular_idx_to_coord of TriangularTileScheduler):
//                          the row of tile index idx (Int32) of the lower triangle with its diagonal,
//                          row = ceil(sqrt(float(2 idx) + 2.25) - 0.5) - 1 in float32, the correctly
//                          rounded sqrt; 2 idx is an Int32 (no defined value from idx = 2^30 on).
//   quack_approx_admitted_row(idx, r)
//                          the newer QuACK's sqrt(..., approx=True), PTX sqrt.approx.f32, whose relative
//                          error the PTX ISA bounds by 2^-23: a CPU cannot reproduce the hardware, so
//                          this says whether SOME float within that bound of the exact root of the
//                          same float argument gives another row than r (a proof bound, not an error
//                          seen): exact rational arithmetic, no rounding of its own.
//
// Every formula's computed row is nondecreasing in the index (each step is monotone: a rounded sum,
// root, difference, floor or ceil of a monotone value), except tril_row's fallback; so a formula that
// is right at a row's first and last index is right on the whole row, and the row-boundary search
// below (each row's start and its two neighbours) is a proof for the monotone ones. The program
// experiments/gram/peer_index_audit.cpp writes the audit (experiments/results/cpu/peer_index_audit.csv);
// verify/test_gram.cpp checks its values.
#pragma once
#include <tdmaps/config.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace tdmaps::peers {

// A formula's row where its arithmetic has no defined value (an integer overflow, a NaN).
constexpr i64 undefined_row = -1;

// ---- torch.pdist: condensed index k of the n(n-1)/2 pairs i < j, row-major ----
inline i64 pdist_row(i64 n, i64 k) {
  const double n2 = double(n) - 0.5;
  return i64(std::floor(n2 - std::sqrt(n2 * n2 - 1 - 2.0 * double(k))));
}
// The exact first condensed index of row a: a n - a(a+1)/2.
inline i64 pdist_row_start(i64 n, i64 a) { return a * n - a * (a + 1) / 2; }

// ---- PyTorch tril_indices: linear index x of the lower triangle with its diagonal ----
inline i64 tril_row(i64 x) {
  const i64 b = 1;
  if (x > (std::numeric_limits<i64>::max() - b * b) / 8) return undefined_row;  // b^2 - 4c = 1 + 8x overflows
  const i64 v = b * b + 8 * x;
  const double sr = std::sqrt(double(v));
  i64 res = i64(std::floor((double(-b) + sr) / 2));
  if (v != i64(sr * sr)) {
    const i64 llsr = i64(std::floor(sr));
    const i64 e = i64(std::ceil(std::sqrt(std::fabs(double(v - llsr * llsr)))));
    i64 l = res > e ? res - e : 0, r = res + e + 1;
    const i64 x2 = 2 * x;
    while (l + 1 < r) {
      const i64 m = (l + r) / 2;
      if ((b + m) * m > x2) r = m;
      else l = m;
    }
    res = l;
  }
  return res;
}

// ---- the lower triangle with its diagonal (tril_indices, QuACK, ours): row r starts at r(r+1)/2 ----
// (u64 arithmetic: right for every r <= 2^32 - 1, whose start is below 2^63).
inline i64 tri_start(i64 r) { return i64(u64(r) * u64(r + 1) / 2); }

// ---- QuACK triangular_idx_to_coord, float32 ----
// The float argument float(2 idx) + 2.25 (each conversion and sum rounded to nearest).
inline float quack_arg(i32 idx) { return float(2 * idx) + 2.25f; }
inline i64 quack_row_rn(i32 idx) {
  if (idx < 0 || idx >= (i32(1) << 30)) return undefined_row;  // 2 idx overflows Int32
  const volatile float s = std::sqrt(quack_arg(idx));              // sqrtf, correctly rounded
  const volatile float t = s - 0.5f;
  return i64(std::ceil(t)) - 1;
}
// sqrt.approx.f32 within a relative 2^-23 of sqrt(x), x = quack_arg(idx), for an index of row r: the
// other row that SOME float y in [(1 - 2^-23) sqrt(x), (1 + 2^-23) sqrt(x)] gives, or r if every such y
// gives r. Row r needs r + 1/2 < y <= r + 3/2 (y - 1/2 is exact: y < 2^16): row r + 1 is admitted iff
// the float just above r + 3/2 is <= (1 + 2^-23) sqrt(x), row r - 1 iff r + 1/2 >= (1 - 2^-23) sqrt(x).
// x has at most two fraction bits (X = 4x is an integer < 2^33), the floats near r + 3/2 at most 23
// (Y = 2^24 y): both tests in 128-bit integers, exact.
inline i64 quack_approx_admitted_row(i32 idx, i64 r) {
  if (idx < 0 || idx >= (i32(1) << 30) || r < 0 || r >= (i64(1) << 16)) return undefined_row;
  using u128 = unsigned __int128;
  const float x = quack_arg(idx);
  const u128 X = u128(u64(double(x) * 4.0));  // exact: x * 4 is an integer below 2^33
  const float above = std::nextafter(float(r) + 1.5f, std::numeric_limits<float>::infinity());
  const u128 Y = u128(u64(std::ldexp(double(above), 24)));  // exact: above < 2^16 has <= 23 fraction bits
  const u128 up = (u128(1) << 23) + 1, dn = (u128(1) << 23) - 1;
  if (Y * Y <= up * up * X) return r + 1;   // a float above r + 3/2 is within the bound
  const u128 h = u128(2 * r + 1);           // r + 1/2 = h / 2
  if ((h * h) << 46 >= dn * dn * X) return r - 1;  // r + 1/2 itself is within the bound
  return r;
}

// ---- the row-boundary search ----
// The first index (smallest) among those checked whose row `row_of` gets wrong; -1 if none.
struct FirstWrong {
  i64 index = -1;  // the first wrong index checked, -1 if none
  i64 got = 0;     // the formula's row there (undefined_row: no defined value)
  i64 want = 0;    // the right row
  u64 checked = 0;
  void see(i64 x, i64 g, i64 w) {
    ++checked;
    if (g != w && (index < 0 || x < index)) {
      index = x;
      got = g;
      want = w;
    }
  }
};
// Rows [r0, r1) of a triangle whose row r starts at start(r): each row's first index, the index before
// it (the previous row's last) and the one after, where they lie in [0, limit); it stops past the
// first wrong index found (rows ahead hold larger indices only). row_of(x) is the
// formula's row of x; for a bound (quack_approx_admitted_row) use boundary_search_bound, which passes
// the right row too.
template <class Start, class RowOfGiven>
void boundary_search_bound(FirstWrong& fw, i64 r0, i64 r1, i64 limit, Start start, RowOfGiven row_of_given) {
  for (i64 r = r0; r < r1; ++r) {
    const i64 s = start(r);
    if (fw.index >= 0 && fw.index < s - 1) return;  // the rows ahead hold larger indices only
    for (i64 x : {s - 1, s, s + 1}) {
      if (x < 0 || x >= limit) continue;
      const i64 want = x < s ? r - 1 : (x >= start(r + 1) ? r + 1 : r);
      fw.see(x, row_of_given(x, want), want);
    }
  }
}
template <class Start, class RowOf>
void boundary_search(FirstWrong& fw, i64 r0, i64 r1, i64 limit, Start start, RowOf row_of) {
  boundary_search_bound(fw, r0, r1, limit, start, [&](i64 x, i64) { return row_of(x); });
}
// Every index of [0, limit) (rows walked as the index grows); stops at the first wrong one.
template <class Start, class RowOfGiven>
void exhaustive_search_bound(FirstWrong& fw, i64 limit, Start start, RowOfGiven row_of_given) {
  i64 r = 0, next = start(1);
  for (i64 x = 0; x < limit; ++x) {
    while (x >= next) next = start(++r + 1);
    fw.see(x, row_of_given(x, r), r);
    if (fw.index >= 0) return;
  }
}
template <class Start, class RowOf>
void exhaustive_search(FirstWrong& fw, i64 limit, Start start, RowOf row_of) {
  exhaustive_search_bound(fw, limit, start, [&](i64 x, i64) { return row_of(x); });
}

}  // namespace tdmaps::peers
