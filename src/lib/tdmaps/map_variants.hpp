// tdmaps/map_variants.hpp — variants of the papers' maps that change one thing and keep
// the arithmetic of the map they vary (issue #12, "fair comparisons"):
//
//   BB_T    "bb-t": BB filtering by thread. The grid of BB (n x n blocks), but no
//           block-level discard: every thread computes its coordinate
//           (by*rho + ty, bx*rho + tx) and tests j <= i, i < N. 000_dc8ca915cfc23e3c.txt
//           §IV-B: "This implementation of BB [block test first] is faster than computing
//           the thread coordinate first and filtering afterwards"; §II blames the
//           thread-ID filter for the 2x of the UTM paper.
//   RB_B    "rb-b": the rectangular box of §IV-B (map_rb.hpp) folded in BLOCK space. The
//           n x n block triangle (n = ceil(N/rho)) folds into a rectangle of
//           ceil(n/2) block rows and n + 1 block columns, exactly as RB folds cells:
//               bx <= by :  block (by, bx)                  (upper-half block row by)
//               bx >  by :  block (n-1-by, bx-by-1)         (lower-half block row, rotated)
//           and the second branch is discarded when n-1-by == by (the middle block row
//           of odd n, already covered by the first branch). Every block covers ONE tile
//           of the lower triangle, so the shared-memory kernels (collision) run it like
//           BB and LTM. Launched blocks: (n+1) ceil(n/2) = n(n+1)/2 for even n, plus
//           (n+1)/2 wasted for odd n. verify/test_maps2d.cpp walks every n <= 2048.
//   LtmSquare<LTM_x>  "ltm-r-sq", "ltm-e-sq", "ltm-x-sq", "ltm-n-sq", "ltm-d-sq": the grid
//           shape of both papers, for each root of the square-root study. 000 §III-A
//           launches g(lambda) on a balanced n' x n' grid, n' = ceil(sqrt(n(n+1)/2)),
//           lambda = bx + by n', and discards the blocks with lambda >= n(n+1)/2 (at most
//           n' - 1 of them, the ~n/2 wasted blocks of §III-A). Only grid() and the
//           forming of lambda differ from LTM: the row of lambda is the base map's g().
#pragma once
#include "map_bb.hpp"
#include "map_ltm.hpp"
#include "map_rb.hpp"

#include <cmath>

namespace tdmaps {

// ---- BB filtering by thread ----------------------------------------------------------
struct BB_T : SquareBlockGrid {  // BB's plan, grid and block
  static constexpr const char* name = "bb-t";
  static constexpr bool blockwise = false;  // no block test: the thread filters itself
  static Params plan(i64 N, int rho, bool /*allow_inexact: exact*/ = false) { return square_plan(name, N, rho); }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int, u32 bx, u32 by, u32 tx, u32 ty) {
    const Index i = Index(by) * Index(p.rho) + Index(ty), j = Index(bx) * Index(p.rho) + Index(tx);
    return Cell2T<Index>{i, j, i < Index(p.N) && j <= i};
  }
};

// ---- RB folded in block space ----------------------------------------------------------
struct RB_B {
  static constexpr const char* name = "rb-b";
  static constexpr bool blockwise = true;
  using Params = GridPlan;
  static Params plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    (void)allow_inexact;
    Params p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    const i64 gy = ceil_div(p.n, 2);
    if (gy > 65535)
      throw unsupported("rb-b: ceil(n/2) block rows (n = ceil(N/rho)) must be <= 65535 (grid y limit); got " + std::to_string(gy));
    // block indices <= n <= 131070 and cells b*rho + t < n*rho <= N + rho: the BB condition
    p.narrow = narrow_coords(N, rho);
    return p;
  }
  static Dim3 grid(const Params& p, int) { return Dim3{u32(p.n + 1), u32(ceil_div(p.n, 2)), 1}; }
  static Dim3 block(const Params& p) { return Dim3{u32(p.rho), u32(p.rho), 1}; }
  // The grid is exactly the rectangle (bx <= n, by < ceil(n/2)): no range test.
  template <class Index = i64>
  TD_HD static Cell2T<Index> block_cell(const Params& p, int, u32 bx, u32 by) {
    const Index x = Index(bx), y = Index(by);
    if (x <= y) return Cell2T<Index>{y, x, true};
    const Index i = Index(p.n) - 1 - y;
    if (i <= y) return outside2<Index>();  // odd n: the middle block row, covered above
    return Cell2T<Index>{i, x - y - 1, true};
  }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    return thread_in_block(p.N, p.rho, block_cell<Index>(p, pass, bx, by), tx, ty);
  }
};

// ---- LTM on the papers' balanced square grid -------------------------------------------
// ceil(sqrt(t)), exactly (host).
inline u64 ceil_sqrt_u64(u64 t) {
  u64 s = u64(std::sqrt(double(t)));
  while (s > 0 && (s - 1) * (s - 1) >= t) --s;
  while (s * s < t) ++s;
  return s;
}

struct ltm_r_sq_name { static constexpr const char* value = "ltm-r-sq"; };
struct ltm_e_sq_name { static constexpr const char* value = "ltm-e-sq"; };
struct ltm_x_sq_name { static constexpr const char* value = "ltm-x-sq"; };
struct ltm_n_sq_name { static constexpr const char* value = "ltm-n-sq"; };
struct ltm_d_sq_name { static constexpr const char* value = "ltm-d-sq"; };

template <class Base, class Name>
struct LtmSquare {
  static constexpr const char* name = Name::value;
  static constexpr bool blockwise = true;
  using base_map = Base;
  using sqrt_policy = typename Base::sqrt_policy;
  using Params = typename Base::Params;  // LinearPlan: gx holds the side n'
  static constexpr u64 exact_blocks = Base::exact_blocks;
  static constexpr u64 max_side = 65535;  // gridDim.y
  // The base map's plan (its exact range, its narrow decision); then the square grid:
  // gx = n' = ceil(sqrt(n(n+1)/2)). Narrow stays the base's: lambda < tri(65535) < 2^31
  // on the narrow path, and lambda = bx + by n' < n'^2 <= 65535^2 < 2^32 fits u32.
  static Params plan(i64 N, int rho, bool allow_inexact = false) {
    Params p;
    try {
      p = Base::plan(N, rho, allow_inexact);
    } catch (const unsupported& e) {
      throw unsupported(std::string(name) + " (the map of " + Base::name + "): " + e.what());
    }
    const u64 side = ceil_sqrt_u64(p.total);
    if (side > max_side)
      throw unsupported(std::string(name) + ": the square grid needs n' = ceil(sqrt(n(n+1)/2)) = " + std::to_string(side) +
                        " > 65535 (grid y limit); N=" + std::to_string(N) + " at rho=" + std::to_string(rho) +
                        " (use " + Base::name + ", whose linear grid has no such limit)");
    p.gx = u32(side);
    return p;
  }
  static Dim3 grid(const Params& p, int) { return Dim3{p.gx, p.gx, 1}; }
  static Dim3 block(const Params& p) { return Dim3{u32(p.rho), u32(p.rho), 1}; }
  // g(lambda): the base map's, unchanged.
  template <class Index = i64>
  TD_HD static Cell2T<Index> g(uidx<Index> lambda) { return Base::template g<Index>(lambda); }
  template <class Index = i64>
  TD_HD static Cell2T<Index> block_cell(const Params& p, int, u32 bx, u32 by) {
    using U = uidx<Index>;
    const U l = U(bx) + U(by) * U(p.gx);
    if (l >= p.total) return outside2<Index>();  // the n' x n' - n(n+1)/2 discarded blocks
    return Base::template g<Index>(l);
  }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    return thread_in_block(p.N, p.rho, block_cell<Index>(p, pass, bx, by), tx, ty);
  }
};
using LTM_R_SQ = LtmSquare<LTM_R, ltm_r_sq_name>;
using LTM_E_SQ = LtmSquare<LTM_E, ltm_e_sq_name>;
using LTM_X_SQ = LtmSquare<LTM_X, ltm_x_sq_name>;
using LTM_N_SQ = LtmSquare<LTM_N, ltm_n_sq_name>;
using LTM_D_SQ = LtmSquare<LTM_D, ltm_d_sq_name>;

}  // namespace tdmaps
