// tdmaps/tiles.hpp — a tdmaps map over GEMM tiles (issue #27). No CUTLASS needed.
//
// A symmetric product C = X X^T (a Gram matrix, a matrix of pairwise distances) over N points is
// a c x c grid of output tiles (c = ceil(N / tile side)) of which only the lower triangle
// I >= J is work. That triangle is the 2D domain of the maps at block side rho = 1: tile
// (I, J) is "cell" (i, j) of a plan over N = c. So a map M of tdmaps schedules tiles exactly
// as it schedules blocks: LTM-E launches the c(c+1)/2 lower tiles and turns the block index
// into (I, J) with g(lambda) (map_ltm.hpp, exact for every lambda < 2^32 and proven by the
// oracle: verify/test_gram.cpp checks every tile count up to 4096 here too); BB launches the
// c x c grid and the tiles above the diagonal come back outside (a kernel returns at once, as
// CUTLASS's rank-k update does).
//
//   auto t = tdmaps::TileMap<tdmaps::LTM_E>::make(c);   // host: throws tdmaps::unsupported
//   dim3 grid(t.grid().x, t.grid().y);                   //       past the map's range
//   ... in the kernel:  auto tile = t.tile(blockIdx.x, blockIdx.y);
//                       if (!tile.inside) return;  // BB above the diagonal
//                       // tile.i = I (tile row), tile.j = J (tile column), J <= I
//
// TileRange: the blocks [begin, end) of a TileMap's block space (its grid's blocks in row-major
// order, the space tdmaps/partition.hpp splits across GPUs and chunks), launched as a grid of their
// own (a fused histogram split over GPUs: experiments/multigpu/multi_hist --app gram). Block (bx, by)
// of the range's grid is block begin + bx + by * gx of the map's grid (partition.hpp block_at), and
// its tile is the map's tile() of that block: the map's arithmetic, none of its own.
//
//   auto r = tdmaps::TileRange<tdmaps::LTM_E>::make(t, range.begin, range.end);  // host
//   ... the same kernel, launched on r.grid(), calls r.tile(blockIdx.x, blockIdx.y)
#pragma once
#include "map_bb.hpp"
#include "map_ltm.hpp"
#include "partition.hpp"

#include <string>

namespace tdmaps {

template <class M>
struct TileMap {
  static_assert(M::blockwise, "a tile map needs a blockwise map (one (I, J) per block)");
  typename M::Params plan;  // the map's plan over N = c tiles at rho = 1

  static TileMap make(i64 tiles_per_side, bool allow_inexact = false) {
    TileMap t;
    t.plan = M::plan(tiles_per_side, 1, allow_inexact);
    return t;
  }
  TD_HD i64 side() const { return plan.N; }
  Dim3 grid() const { return M::grid(plan, 0); }
  u64 launched() const {
    const Dim3 g = grid();
    return u64(g.x) * g.y * g.z;
  }
  static u64 useful(i64 c) { return tri(u64(c)); }
  // Block (bx, by) -> tile (I, J), J <= I, or outside. The narrow (32-bit) path where the plan
  // proved it fits, else the 64-bit one; the same arithmetic either way.
  TD_HD Cell2T<i64> tile(u32 bx, u32 by) const {
    if (plan.narrow) {
      const Cell2T<i32> c = M::template block_cell<i32>(plan, 0, bx, by);
      return Cell2T<i64>{c.i, c.j, c.inside};
    }
    return M::template block_cell<i64>(plan, 0, bx, by);
  }
};

// The banded order of the lower tiles (issue #36: an L2-friendlier walk for a persistent GEMM). Bands of
// G tile rows, [G b, G b + G); inside a band, first its rows x G b tiles left of the diagonal block, in
// G-wide column blocks, each walked column by column (consecutive tiles share their B panel J, and a
// block's G x G tiles share G A panels and G B panels), then the band's own triangle row by row. The
// c(c+1)/2 tiles, each once: band b starts at tile index tri(G b) (the tiles of its rows above), so the
// band of lambda is the row of lambda in the plain row-major order, (I0, J0) = the map's tile of
// lambda, divided by G: the map's arithmetic, none of its own but one exact triangle root of the
// band's small triangle (tri_root, < tri(G)). G = 1 is the map's own order.
// Exact for every c the map is exact for (the proof; verify/test_gram.cpp checks it on c = 1..40 and every 13th c
// to 300, and at the band boundaries of four large c): the map gives lambda's row-major tile (I, J), so
// tri(I) <= lambda < tri(I + 1). With b0 = G floor(I / G) and rows = min(G, c - b0): tri(b0) <= tri(I) and
// I + 1 <= b0 + rows, so mu = lambda - tri(b0) lies in [0, tri(b0 + rows) - tri(b0)) = [0, rows b0 + tri(rows)),
// the count of the band's tiles. Below body = rows b0, mu = s (rows G) + (j - s G) rows + (i - b0) is a mixed-radix
// number (b0 is a multiple of G): a bijection onto the rows x b0 tiles left of the diagonal block. Past it,
// nu = mu - body < tri(rows) is the band's triangle row-major (tri_root exact for every l < 2^62, numbers.hpp). So
// lambda -> tile is a bijection of [0, c(c+1)/2) onto the lower tiles, band after band, with no arithmetic past u64
// (tri(b0) <= lambda).
TD_HD Cell2T<i64> banded_tile(Cell2T<i64> row_major, u64 lambda, i64 c, i64 G) {
  if (G <= 1 || !row_major.inside) return row_major;
  const i64 b0 = row_major.i / G * G;                   // the band's first tile row
  const i64 rows = c - b0 < G ? c - b0 : G;              // the last band may be short
  const u64 mu = lambda - tri(u64(b0));                  // the tile's index inside its band
  const u64 body = u64(rows) * u64(b0);                  // the band's tiles left of its diagonal block
  if (mu < body) {
    const u64 block = u64(rows) * u64(G);                // one G-wide column block of the band
    const u64 s = mu / block, local = mu % block;
    return Cell2T<i64>{b0 + i64(local % u64(rows)), i64(s) * G + i64(local / u64(rows)), true};
  }
  const u64 nu = mu - body;                              // the band's triangle, row-major
  const u64 r = tri_root(nu);
  return Cell2T<i64>{b0 + i64(r), b0 + i64(nu - tri(r)), true};
}

template <class M>
struct TileRange {
  TileMap<M> map;
  Dim3 map_grid;        // the map's grid: lambda = bx + by * map_grid.x of it
  u64 begin = 0, count = 0;
  u32 gx = 1;           // the range grid's row length (linear_grid of count blocks)
  bool narrow = false;  // the map's block space < 2^32: block_at's u32 path

  // Host: the blocks [begin, end) of t's grid; throws unsupported unless begin <= end <= t.launched().
  static TileRange make(const TileMap<M>& t, u64 begin, u64 end) {
    const u64 n = t.launched();
    if (begin > end || end > n)
      throw unsupported("tile range [" + std::to_string(begin) + ", " + std::to_string(end) + ") is not inside the " +
                        std::to_string(n) + " blocks of " + M::name + "'s tile grid");
    TileRange r;
    r.map = t;
    r.map_grid = t.grid();
    r.begin = begin;
    r.count = end - begin;
    Dim3 g;
    linear_grid(r.count, r.gx, g, "tile range");
    r.narrow = narrow_block_space(n);
    return r;
  }
  TD_HD i64 side() const { return map.side(); }
  Dim3 grid() const { return linear_grid_dims(count, "tile range"); }  // count 0: one block, outside
  u64 launched() const { return count; }
  // Block (bx, by) of the range's grid -> the map's tile of block begin + bx + by * gx, or outside
  // (past the range: the tail of a multi-row grid, or an empty range).
  TD_HD Cell2T<i64> tile(u32 bx, u32 by) const {
    const u64 l = u64(bx) + u64(by) * gx;
    if (l >= count) return outside2<i64>();
    const Dim3 b = narrow ? block_at<u32>(map_grid, u32(begin + l)) : block_at<u64>(map_grid, begin + l);
    return map.tile(b.x, b.y);
  }
};

}  // namespace tdmaps
