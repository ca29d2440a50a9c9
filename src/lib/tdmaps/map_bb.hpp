// tdmaps/map_bb.hpp — BB, the bounding-box grid (000_dc8ca915cfc23e3c.txt §IV-B).
// n x n blocks of rho x rho threads; block (bx, by) serves block row by, column bx
// and is discarded when bx > by, before any thread coordinate is computed, as the
// paper's BB does. Wasted blocks: n(n-1)/2.
#pragma once
#include "plan.hpp"

namespace tdmaps {

// The n x n grid of rho x rho blocks (n = ceil(N/rho)) that BB and its thread-filtering
// variant BB_T (map_variants.hpp) launch: their plan (N, rho, n: GridPlan), grid and block.
struct SquareBlockGrid {
  using Params = GridPlan;
  static Params square_plan(const char* name, i64 N, int rho) {
    check_common(name, N, rho);
    Params p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    if (p.n > 65535)
      throw unsupported(std::string(name) + ": n = ceil(N/rho) must be <= 65535 (grid y limit); got n=" + std::to_string(p.n));
    p.narrow = narrow_coords(N, rho);
    return p;
  }
  static Dim3 grid(const Params& p, int) { return Dim3{u32(p.n), u32(p.n), 1}; }
  static Dim3 block(const Params& p) { return Dim3{u32(p.rho), u32(p.rho), 1}; }
};

struct BB : SquareBlockGrid {
  static constexpr const char* name = "bb";
  static constexpr bool blockwise = true;
  static Params plan(i64 N, int rho, bool /*allow_inexact: BB is exact*/ = false) { return square_plan(name, N, rho); }
  template <class Index = i64>
  TD_HD static Cell2T<Index> block_cell(const Params&, int, u32 bx, u32 by) {
    if (bx > by) return outside2<Index>();
    return Cell2T<Index>{Index(by), Index(bx), true};
  }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    return thread_in_block(p.N, p.rho, block_cell<Index>(p, pass, bx, by), tx, ty);
  }
};

}  // namespace tdmaps
