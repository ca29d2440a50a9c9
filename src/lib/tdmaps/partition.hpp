// tdmaps/partition.hpp — splitting a map's block space across G workers (GPUs, ranks,
// or chunks run one after another).
//
// A block-space map turns the domain into one flat range of block indices lambda in
// which every block is the same work (LTM: lambda < tri(n), TET: lambda < tet(n); a
// grid map such as BB: lambda < its grid's block count). Worker g of G takes the
// contiguous range
//     [g*q + min(g, r), (g+1)*q + min(g+1, r)),   q = total / G, r = total % G,
// so the ranges are disjoint, cover [0, total) and differ in size by at most one
// block. The oracle (verify/test_partition.cpp) proves this for every G <= max_workers
// on the block spaces of its sweep sizes and a few huge totals, and that the cells the
// ranges' blocks produce cover the domain exactly once (every G <= max_workers on the
// smallest sizes, 1, 2, 3, 5, 7, 8, 13, 31, 63, 64 on the larger ones).
//
// U is the unsigned index type of the path: u32 on the narrow path, u64 on the wide
// path. In U every intermediate stays <= total (g*q + min(g, r) <= (G-1)q + r = total - q),
// so lambda_range<U> is exact for every total that U holds: u64 always, u32 when
// narrow_block_space(total), i.e. total < 2^32. A narrow plan does NOT imply that for
// every map: the linear maps' narrow plans have total < 2^31 and the n x n grids (bb,
// bb-t, ltm-*-sq, rec's passes) stay below 65535^2 < 2^32, but bb3's n^3 cube passes 2^32
// at n = 1626 and rb's / rb-b's (about 2n x n/2) rectangles near N = 92681 at rho 1, all
// still narrow. Take the u32 path only when plan.narrow && narrow_block_space(total).
#pragma once
#include "plan.hpp"

namespace tdmaps {

// The largest worker count the oracle proves (test_partition); callers refuse more.
constexpr u32 max_workers = 64;

template <class U = u64> struct LambdaRangeT {
  U begin = 0, end = 0;  // [begin, end)
  TD_HD U size() const { return end - begin; }
  TD_HD bool empty() const { return end <= begin; }
};
using LambdaRange = LambdaRangeT<u64>;

// Worker g's range of `total` blocks split across G workers (0 <= g < G, G >= 1).
template <class U = u64>
TD_HD LambdaRangeT<U> lambda_range(U total, U G, U g) {
  const U q = total / G, r = total % G;
  const U b = g * q + (g < r ? g : r);
  const U e = b + q + (g < r ? U(1) : U(0));
  return LambdaRangeT<U>{b, e};
}

// Whether the u32 path of lambda_range / block_at serves a block space of `total` blocks
// (every begin, end and lambda < 2^32; see above: plan.narrow alone does not say it).
TD_HD constexpr bool narrow_block_space(u64 total) { return total <= u64(0xffffffffu); }

// The block space of a plan: the blocks one pass launches (2D), or the plan's grid (3D).
// Linear maps index their used blocks (LinearPlan/Plan3::total) through their grid: exactly on a
// one-row grid; a multi-row grid (total >= 2^31: plan.hpp linear_grid) adds the unused tail of
// its last row (fewer blocks than it has rows), which the map marks outside. A grid map's lambda is its blocks in
// row-major order.
template <class M> u64 block_space(const typename M::Params& p, int pass) {
  const Dim3 g = M::grid(p, pass);
  return u64(g.x) * g.y * g.z;
}
template <class M> u64 block_space(const Plan3& p) {
  const Dim3 g = M::grid(p);
  return u64(g.x) * g.y * g.z;
}

// Block lambda of a grid (row-major: x fastest) as block indices (bx, by, bz).
template <class U = u64>
TD_HD Dim3 block_at(const Dim3& grid, U lambda) {
  const U gx = U(grid.x), gy = U(grid.y);
  const U x = lambda % gx, yz = lambda / gx;
  return Dim3{u32(x), u32(yz % gy), u32(yz / gy)};
}

}  // namespace tdmaps
