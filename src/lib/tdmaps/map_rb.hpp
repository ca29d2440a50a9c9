// tdmaps/map_rb.hpp — RB, the rectangular box (Jung & O'Leary's packing used as a
// map, 000_dc8ca915cfc23e3c.txt §IV-B), in our own thread-level formulation.
//
// Row r of the upper half pairs with row N-1-r of the lower half: together they
// hold (r+1) + (N-r) = N+1 cells, so the triangle folds into a rectangle of
// ceil(N/2) rows and N+1 columns. Thread (x, y) of that rectangle maps to
//     x <= y :  (i, j) = (y, x)                  (upper-half row y, as is)
//     x >  y :  (i, j) = (N-1-y, x-y-1)          (lower-half row, rotated)
// and the second branch is discarded when N-1-y == y (the middle row of odd N,
// already covered by the first branch). Even N wastes no thread of the
// rectangle; odd N wastes (N+1)/2. The rectangle is tiled by rho x rho blocks.
#pragma once
#include "plan.hpp"

namespace tdmaps {

struct RB {
  static constexpr const char* name = "rb";
  static constexpr bool blockwise = false;
  using Params = GridPlan;
  static Params plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    (void)allow_inexact;
    Params p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    const i64 gy = ceil_div(ceil_div(N, 2), rho);
    if (gy > 65535) throw unsupported("rb: ceil(ceil(N/2)/rho) must be <= 65535 (grid y limit); got " + std::to_string(gy));
    p.narrow = narrow_coords(N + 1, rho);
    return p;
  }
  static Dim3 grid(const Params& p, int) {
    return Dim3{u32(ceil_div(p.N + 1, p.rho)), u32(ceil_div(ceil_div(p.N, 2), p.rho)), 1};
  }
  static Dim3 block(const Params& p) { return Dim3{u32(p.rho), u32(p.rho), 1}; }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int, u32 bx, u32 by, u32 tx, u32 ty) {
    const Index N = Index(p.N);
    const Index x = Index(bx) * Index(p.rho) + Index(tx), y = Index(by) * Index(p.rho) + Index(ty);
    if (x > N || y >= ((N + 1) >> 1)) return outside2<Index>();
    if (x <= y) return Cell2T<Index>{y, x, true};
    const Index i = N - 1 - y;
    if (i <= y) return outside2<Index>();
    return Cell2T<Index>{i, x - y - 1, true};
  }
};

}  // namespace tdmaps
