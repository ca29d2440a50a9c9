// verify/range_proofs.hpp — exact ranges of the float maps proven from row boundaries,
// O(rows) instead of O(cells) (issue #23). The exhaustive searches of oracle.hpp stay as
// the reference: they run in `make verify-full` (suite 'slow'), and the tests cross-check
// both on every small size.
//
// The argument. Let t(k) be the true row of index k (a non-decreasing step function) and
// c(k) the row a map computes. If c is non-decreasing in k too, then c(first of row a) = a
// and c(last of row a) = a give a <= c(k) <= a for every k of row a: checking both ends of
// every row proves every index. c is non-decreasing whenever it is a chain of monotone
// operations of k, because rounding to nearest is monotone: a <= b implies fl(a) <= fl(b).
// Monotone operations used by the formulas:
//   float(k), double(k)                      conversion rounds to nearest
//   fl(a + b), fl(a - b), fl(a * b)          for a fixed float operand (b > 0 for *)
//   fl(c - 8 k) and fma(-8, k, c)            Pinned and Fused: one rounding of an exact
//                                            monotone value either way
//   sqrtf, sqrt (double)                     correctly rounded (IEEE 754)
//   floor(v / -2)                            division by -2 is exact; flips the direction
// Formula by formula:
//   ltm-x  floor(sqrtf(2 fl(l) + 1/4) - 1/2)                   monotone (both modes: the only
//                                                              product, 2 fl(l), is exact)
//   ltm-d  floor(sqrt(2 l + 1/4) - 1/2) in double              monotone
//   ltm-e  wide estimate = ltm-d's row, then one compare-and-step each way: right exactly
//          when the estimate is within one of the true row; the estimate is monotone, so
//          "within one" at both ends of every row covers the row
//   utm-x  a = floor((-(2n+1) + sqrtf(x(k))) / -2), x(k) = fl(fl(x0 - 8 fl(k)) + 1)
//          (Pinned) or fl(fma(-8, fl(k), x0) + 1) (Fused): x non-increasing in k, so a is
//          non-decreasing
//   utm-n  the same with x * rsqrt_newton3(x) for sqrtf, then Avril's two repairs. The
//          Newton steps from the bit-trick guess need not be monotone in x, so the
//          computed square root is bounded instead: over EVERY float x of the range
//          (enumerated once), |sqrt(x) * y(x) - 1| <= delta, y = rsqrt_newton3<R>(x).
//          The row from the upper bound sqrt(x)(1 + delta) and the row from the lower
//          bound are monotone in k and enclose the estimate; the repairs make the row
//          right exactly when the estimate is within one of it. So "lower-bound row at the
//          first index of row a >= a - 1 and upper-bound row at its last index <= a + 1"
//          proves the row. This is sufficient, not necessary: an N where the band is too
//          wide falls back to the exhaustive check of that N alone (counted and reported).
//   ltm-n  floor(x rsqrt_newton3(x) + eps - 1/2) has no repair, so no band can prove it
//          near its limit: its search stays exhaustive (1.3 million indices, well under a
//          second).
#pragma once
#include "oracle.hpp"

#include <cmath>
#include <mutex>
#include <utility>
#include <type_traits>

namespace tdmaps::oracle {

// ---- rows of the linear block enumeration (LTM) ------------------------------------------
// First lambda < limit where ok(lambda, i) fails, i the true row of lambda; `limit` if none.
// ok must hold on a prefix of each row whenever it holds at the row's first index (true of
// "row(l) == i" and of "est(l) within one of i" for a non-decreasing row or estimate: past the
// first index it can only fail by growing too large). Checks both ends of each row, rows in
// order; in the first row that fails at its last index only, a binary search finds the first
// failing lambda.
template <class Ok>
u64 first_failing_by_row_ends(Ok ok, u64 limit) {
  for (u64 i = 0;; ++i) {
    const u64 lo = tri(i);
    if (lo >= limit) return limit;
    const u64 hi = std::min(tri(i + 1) - 1, limit - 1);
    if (!ok(lo, i)) return lo;
    if (!ok(hi, i)) {
      u64 a = lo, b = hi;  // ok(a), !ok(b)
      while (b - a > 1) {
        const u64 m = a + (b - a) / 2;
        (ok(m, i) ? a : b) = m;
      }
      return b;
    }
  }
}
// First lambda < limit where a non-decreasing row function differs from the true row.
template <class RowFn>
u64 first_wrong_row_monotone(RowFn row, u64 limit) {
  return first_failing_by_row_ends([&](u64 l, u64 i) { return row(l) == i; }, limit);
}
// First lambda < limit whose non-decreasing estimate is not within one of its true row (an
// estimate that a one-step correction repairs).
template <class EstFn>
u64 first_estimate_off_by_two(EstFn est, u64 limit) {
  return first_failing_by_row_ends([&](u64 l, u64 i) { const u64 e = est(l); return e + 1 >= i && e <= i + 1; }, limit);
}

// ---- UTM -----------------------------------------------------------------------------------
// Both ends of 1-based upper row a (n = N + 1): k in [row_start(a), row_start(a + 1) - 1].
// utm-x: the computed row is monotone in k (above), so right at both ends of every row is
// right everywhere; and a right row makes the column b = (a+1) + k - row_start(a) right.
template <class U, class R = Pinned>
bool utm_exact_by_row_ends(i64 N) {
  const i64 n = N + 1;
  for (i64 a = 1; a <= N; ++a) {
    const i64 lo = utm_row_start<i64>(n, a), hi = utm_row_start<i64>(n, a + 1) - 1;
    // row a of the upper triangle is column j = a - 1, rows i = a - 1 .. N - 1 (map_utm.hpp)
    const Cell2 first = U::template map_thread<i64, R>(N, lo), last = U::template map_thread<i64, R>(N, hi);
    if (first.j != a - 1 || first.i != a - 1 || last.j != a - 1 || last.i != N - 1) return false;
  }
  return true;
}

// Largest |sqrt(x) * rsqrt_newton3<R>(x) - 1| over every float x in [x_lo, x_hi] (x_lo >= 1):
// the relative error of x * y as a real number, before the product is rounded (Pinned rounds
// it afterwards, Fused adds 2n+1 before rounding: both are monotone in the real product).
// Computed once per (R, range) and remembered (about a second of enumeration each).
template <class R>
double utm_n_sqrt_delta(float x_lo, float x_hi) {
  static std::mutex mu;
  static std::vector<std::pair<std::pair<float, float>, double>> memo;
  {
    std::lock_guard<std::mutex> g(mu);
    for (const auto& m : memo)
      if (m.first.first == x_lo && m.first.second == x_hi) return m.second;
  }
  const u32 b0 = float_to_bits(x_lo), b1 = float_to_bits(x_hi);
  std::atomic<u64> worst_bits{0};
  parallel_for(u64(b1 - b0) + 1, [&](u64 b, u64 e) {
    double w = 0;
    for (u64 t = b; t < e; ++t) {
      const float x = bits_to_float(u32(b0 + t));
      const double d = std::fabs(std::sqrt(double(x)) * double(rsqrt_newton3<R>(x)) - 1.0);
      w = std::max(w, d);
    }
    u64 wb;
    std::memcpy(&wb, &w, 8);
    u64 cur = worst_bits.load();
    while (wb > cur && !worst_bits.compare_exchange_weak(cur, wb)) {}  // positive doubles order as bits
  });
  double w;
  const u64 wb = worst_bits.load();
  std::memcpy(&w, &wb, 8);
  std::lock_guard<std::mutex> g(mu);
  memo.push_back({{x_lo, x_hi}, w});
  return w;
}

// The floats the utm-n square root is enumerated over for every N' <= to: the argument
// 4n^2 - 4n - 8k + 1 lies in [9, 4n^2] exactly; rounded, in [1, 2^(ceil(log2(4 n^2)) + 1)].
// An argument outside (never seen) leaves that N to the exhaustive check.
struct UtmArgRange {
  float lo, hi;
};
inline UtmArgRange utm_arg_range(i64 to) {
  const double top = 4.0 * double(to + 1) * double(to + 1);
  return UtmArgRange{1.0f, float(std::ldexp(1.0, int(std::ceil(std::log2(top))) + 1))};
}

// The utm-n estimate's bounds for index k: the rows the code's own arithmetic gives when
// x * y is replaced by sqrt(x)(1 + delta') (lowest row) and sqrt(x)(1 - delta') (highest).
// delta' = delta + 2^-45 covers the double rounding of the bounds themselves.
template <class R>
struct UtmNBand {
  i64 lo, hi;  // lo <= estimate <= hi
  bool x_in_range;
};
template <class R>
UtmNBand<R> utm_n_band(i64 n, i64 k, double delta, float x_lo, float x_hi) {
  const float x = utm_arg<i64, R>(n, k);
  const double s = std::sqrt(double(x)), d = delta + std::ldexp(1.0, -45);
  const float c = -float(2 * n + 1);
  float num_hi, num_lo;
  if constexpr (std::is_same_v<R, Fused>) {  // fl(x*y - (2n+1)): one rounding of the real value
    num_hi = float(s * (1 + d) + double(c));
    num_lo = float(s * (1 - d) + double(c));
  } else {  // fl(-(2n+1) + fl(x*y))
    num_hi = fadd_rn(c, float(s * (1 + d)));
    num_lo = fadd_rn(c, float(s * (1 - d)));
  }
  return UtmNBand<R>{utm_row_from_num<i64>(num_hi), utm_row_from_num<i64>(num_lo), x >= x_lo && x <= x_hi};
}
// utm-n proven for N through the band at both ends of every row; false: not proven (the
// caller falls back to the exhaustive check).
template <class R>
bool utm_n_proven_by_band(i64 N, double delta, float x_lo, float x_hi) {
  const i64 n = N + 1;
  for (i64 a = 1; a <= N; ++a) {
    const i64 lo = utm_row_start<i64>(n, a), hi = utm_row_start<i64>(n, a + 1) - 1;
    const UtmNBand<R> bl = utm_n_band<R>(n, lo, delta, x_lo, x_hi), bh = utm_n_band<R>(n, hi, delta, x_lo, x_hi);
    if (!bl.x_in_range || !bh.x_in_range) return false;
    if (bl.lo < a - 1 || bh.hi > a + 1) return false;
  }
  return true;
}

// The UTM range search by proof: largest N such that every N' <= N is exact, searching
// N' = 1..to in parallel (to: one past the expected limit). utm-x by row ends (exact
// characterisation); utm-n by the band, and exhaustively (utm_exact_for) for any N' the band
// does not prove. `exhaustive` counts those.
struct UtmSearch {
  i64 last_exact = 0;
  u64 exhaustive = 0;
  double delta = 0;
};
template <class U, class R = Pinned>
UtmSearch utm_last_exact_N_proven(i64 to) {
  constexpr bool newton = std::is_same_v<U, UTM_N>;
  UtmSearch out;
  const UtmArgRange xr = utm_arg_range(to);
  const float x_lo = xr.lo, x_hi = xr.hi;
  if constexpr (newton) out.delta = utm_n_sqrt_delta<R>(x_lo, x_hi);
  std::atomic<u64> fallback{0};
  out.last_exact = last_good_N(to, [&](i64 N) {
    if constexpr (newton) {
      if (utm_n_proven_by_band<R>(N, out.delta, x_lo, x_hi)) return true;
      ++fallback;
      return utm_exact_for<U, R>(N);
    } else {
      return utm_exact_by_row_ends<U, R>(N);
    }
  });
  out.exhaustive = fallback.load();
  return out;
}

}  // namespace tdmaps::oracle
