// verify/printed_forms.hpp — the papers' formulas exactly as printed, against the forms the
// library uses, for the oracle (verify/test_printed_forms.cpp) and the table
// verify/results/printed_forms.csv (verify/printed_forms.cpp). Each search walks the true
// enumeration (row by row), never an inverse formula.
//   eq9-as-printed   000 eq. (9), the strictly lower triangle: i = floor(sqrt(1/4 + 2 lambda)
//                    + 1/2), j = lambda - i(i+1)/2 (float, ltm_strict_as_printed below)
//   eq9-float        the same row with j = lambda - i(i-1)/2 (ltm_strict_float)
//   eq9-exact        the row tri_root(lambda) + 1 (ltm_strict_exact), what the library uses
//   rb-as-printed    000 §IV-B: in a rectangle of N/2 columns and N+1 rows (N even),
//                    thread (tx, ty) below the diagonal (tx < ty) -> (ty - 1, tx); in or above
//                    it -> i = N - ty - 1, j = N - i - 1
//   rb-ours          map_rb.hpp RB (every N, even and odd)
//   eq14-float       003 eq. (14) in float (map_3d.hpp TetRootF, host cbrtf), pinned / fma
#pragma once
#include "oracle.hpp"

#include <cmath>
#include <string>

namespace tdmaps::oracle::printed {

// ---- 000 eq. (9), the strict variant, as printed (test-only; the library keeps the exact form,
// map_ltm.hpp ltm_strict_exact) ----------------------------------------------------------------
// eq. (9) as printed:  i = floor(sqrt(1/4 + 2 lambda) + 1/2), j = lambda - i(i+1)/2.
// With that j the first block (lambda = 0) lands at (1, -1): the printed j is a
// typo. Row i of the strictly lower triangle starts at i(i-1)/2, so the correct
// column is j = lambda - i(i-1)/2.
inline Cell2 ltm_strict_as_printed(u64 lambda) {
  const u64 i = float_floor_nonneg<u64>(fadd_rn(fsqrt_rn(ltm_arg(lambda)), 0.5f));
  return Cell2{i64(i), i64(lambda) - i64(tri(i)), true};
}
inline Cell2 ltm_strict_float(u64 lambda) {
  const u64 i = float_floor_nonneg<u64>(fadd_rn(fsqrt_rn(ltm_arg(lambda)), 0.5f));
  return Cell2{i64(i), i64(lambda) - i64(tri(i - 1)), true};
}

// The strict lower triangle {(i, j) : 0 <= j < i}: lambda's true row is tri_root(lambda) + 1
// (rows walked upward here), and its column lambda - i(i-1)/2.
// First lambda < limit where `g` gives another cell (limit if none). Parallel over rows.
template <class G>
u64 first_wrong_strict(G g, u64 limit) {
  return first_wrong_row(
      [&](u64 l) -> u64 {
        const Cell2 c = g(l);
        // c is right iff its row is the true strict row r + 1 and its column l - tri(r):
        // first_wrong_row compares our return value with the true row r of the triangle with
        // diagonal, so return r exactly when the cell is right, something else otherwise.
        if (c.i < 1) return ~0ull;
        const u64 r = u64(c.i) - 1;
        return c.j == i64(l) - i64(tri(r)) ? r : ~0ull;
      },
      limit);
}

// Lambdas below tri(rows) (strict rows 1..rows) that `g` maps to their true cell.
template <class G>
u64 strict_right_count(G g, u64 rows) {
  u64 ok = 0, l = 0;
  for (u64 i = 1; i <= rows; ++i)
    for (u64 j = 0; j < i; ++j, ++l) {
      const Cell2 c = g(l);
      ok += c.i == i64(i) && c.j == i64(j);
    }
  return ok;
}

// A rectangle walk: every thread (tx, ty) of a tx_n x ty_n rectangle through f(tx, ty) -> cell
// of the lower triangle with diagonal of side N; coverage as oracle.hpp Coverage. `first`:
// linear index ty * tx_n + tx of the first thread that lands outside or on a cell already hit.
struct RectWalk {
  Coverage c;
  u64 first = ~0ull;
};
template <class F>
RectWalk walk_rect(i64 N, i64 tx_n, i64 ty_n, F f) {
  RectWalk w;
  std::vector<uint8_t> seen(size_t(N) * size_t(N), 0);
  for (i64 ty = 0; ty < ty_n; ++ty)
    for (i64 tx = 0; tx < tx_n; ++tx) {
      const Cell2 x = f(tx, ty);
      if (!x.inside) continue;
      ++w.c.inside;
      const u64 lin = u64(ty) * u64(tx_n) + u64(tx);
      if (x.i < 0 || x.j < 0 || x.i >= N || x.j > x.i) {
        ++w.c.out_of_domain;
        w.first = std::min(w.first, lin);
        continue;
      }
      uint8_t& s = seen[size_t(x.i) * size_t(N) + size_t(x.j)];
      if (s) {
        ++w.c.duplicates;
        w.first = std::min(w.first, lin);
      } else {
        s = 1;
      }
    }
  w.c.missing = tri(u64(N)) - (w.c.inside - w.c.out_of_domain - w.c.duplicates);
  return w;
}

// 000 §IV-B as printed, for even N: N/2 columns, N+1 rows.
inline Cell2 rb_as_printed(i64 N, i64 tx, i64 ty) {
  if (tx < ty) return Cell2{ty - 1, tx, true};
  const i64 i = N - ty - 1;
  return Cell2{i, N - i - 1, true};
}
// The same with j = N - tx - 1 in the second branch (one reading that makes it a bijection).
inline Cell2 rb_printed_j_from_tx(i64 N, i64 tx, i64 ty) {
  if (tx < ty) return Cell2{ty - 1, tx, true};
  return Cell2{N - ty - 1, N - tx - 1, true};
}
inline RectWalk walk_rb_as_printed(i64 N) {
  return walk_rect(N, N / 2, N + 1, [N](i64 tx, i64 ty) { return rb_as_printed(N, tx, ty); });
}
inline RectWalk walk_rb_j_from_tx(i64 N) {
  return walk_rect(N, N / 2, N + 1, [N](i64 tx, i64 ty) { return rb_printed_j_from_tx(N, tx, ty); });
}
// First even N in [2, top] where the walk is not a bijection onto the triangle; 0 if none.
template <class W>
i64 first_bad_even_N(i64 top, W walk) {
  for (i64 N = 2; N <= top; N += 2)
    if (!walk(N).c.ok()) return N;
  return 0;
}

// eq. (14) of 003 in float: the radicand 729 l^2 - 3 and the layer, with rounding R.
template <class R> float eq14_radicand(u64 l) {
  const float lf = to_float_rn(l);
  return R::mul_sub(fmul_rn(729.0f, lf), lf, 3.0f);
}
template <class R> u64 eq14_first_wrong(u64 limit) {
  return first_wrong_layer([](u64 l) { return TetRootF::layer<u64, R>(l).k; }, limit);
}

}  // namespace tdmaps::oracle::printed
