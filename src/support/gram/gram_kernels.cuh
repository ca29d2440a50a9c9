// src/support/gram/gram_kernels.cuh — the kernel of ours on CUTLASS's SM80 mainloop: classic (and sm80-8w: the same
// kernel on 8 warps), with its shared-memory budget. Its epilogue is gram_epilogue.cuh's. Part of gram.cuh.
#pragma once
#include "gram_config.cuh"
#include "gram_epilogue.cuh"

namespace gram {

// The classic kernel (commit 636ca54, the default): one block a tile (the map's grid as launched),
// CUTLASS's mainloop with 3 stages, then the epilogue through the mainloop's shared memory: d2 into
// a padded shared tile, written row by row (gram_epilogue.cuh, Stores::staged); the fused reductions in the
// same shared memory. 240 registers a thread and 96 KB of shared memory: 2 blocks an SM.
constexpr int classic_stages = 3;
// The shape of a one-block-a-tile kernel: its threads, mainloop configuration and stages, and the
// blocks an SM its launch bounds ask for. Classic: 4 warps, 3 stages (96 KB: 2 blocks an SM).
// sm80-8w (issue #27's way out (a)): 8 warps, 16-deep k-tiles, 5 stages (80 KB, which the
// epilogue's 66 KB shared tile reuses), launch bounds of 2 blocks an SM (<= 128 registers).
template <Prec P> struct ClassicShape {
  using C = cfg::Config<P>;
  static constexpr int threads = gram::threads, stages = classic_stages, min_blocks = 0;  // 0: none asked
};
template <Prec P> struct Warp8Shape {
  using C = cfg::Config8<P>;
  static constexpr int threads = 256, stages = 5, min_blocks = 2;
};
// Tiles: tdmaps::TileMap<Map> (the whole grid) or tdmaps::TileRange<Map> (a range of its blocks).
template <Prec P, class Tiles, Out O, class Shp = ClassicShape<P>>
__global__ void __launch_bounds__(Shp::threads, Shp::min_blocks) gram_kernel_classic(Params p, Tiles tiles) {
  using namespace cute;
  constexpr int threads = Shp::threads;
  using ML = typename cfg::MainloopOf<typename Shp::C, Shp::stages>::type;
  using C = typename Shp::C;
  using E = typename C::Element;
  extern __shared__ __align__(128) char smem[];

  const tdmaps::Cell2T<i64> t = tiles.tile(blockIdx.x, blockIdx.y);
  if (!t.inside) return;  // bb-grid: a tile above the diagonal
  // lower / hist: tile rows I (points i), columns J <= I. condensed: rows J (a), columns I (b).
  const int tm = int(O == Out::condensed ? t.j : t.i), tn = int(O == Out::condensed ? t.i : t.j);

  auto blk = typename C::TileShape{};
  Tensor mA = make_tensor(make_gmem_ptr(static_cast<const E*>(p.A)), make_shape(tiles.side() * tile_side, p.Kp),
                          make_stride(p.Kp, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(static_cast<const E*>(p.B)), make_shape(tiles.side() * tile_side, p.Kp),
                          make_stride(p.Kp, _1{}));
  auto coord = make_coord(tm, tn, _);
  Tensor gA = local_tile(mA, blk, coord, Step<_1, Underscore, _1>{});  // (BM, BK, k)
  Tensor gB = local_tile(mB, blk, coord, Step<Underscore, _1, _1>{});  // (BN, BK, k)

  typename C::TiledMma mma;
  Tensor acc = partition_fragment_C(mma, take<0, 2>(blk));  // (MMA, MMA_M, MMA_N)
  clear(acc);
  auto k_iter = make_coord_iterator(shape<2>(gA));
  const int k_count = int(size<2>(gA));
  auto residue = make_tuple(tile_side, tile_side, 0);  // unpredicated: every operand tile is whole
  ML{}(acc, gA, gB, acc, k_iter, k_count, residue, int(threadIdx.x), smem);
  cp_async_wait<0>();  // the unpredicated mainloop's trailing (repeated) loads land before the smem is reused

  // the epilogue (gram_epilogue.cuh): this thread's accumulators and their (row, column) in the tile
  Tensor cC = make_identity_tensor(take<0, 2>(blk));
  Tensor tCcC = mma.get_slice(threadIdx.x).partition_C(cC);
  epi::apply<O, epi::Stores::staged>(p, epi::TileAt(p, tm, tn, t.i == t.j), acc, tCcC, smem,
                                     epi::Team<threads>{int(threadIdx.x)});
}

template <Prec P, class Shp = ClassicShape<P>> constexpr int smem_bytes_classic() {
  return cfg::MainloopOf<typename Shp::C, Shp::stages>::smem_bytes;
}
// Largest bucket count the fused histogram holds.
template <Prec P> constexpr int max_buckets() { return hist_max_buckets; }
// Every output's epilogue fits in the mainloop's shared memory (classic and sm80-8w, each precision).
template <class Shp> constexpr bool epilogue_fits() {
  constexpr int have = cfg::MainloopOf<typename Shp::C, Shp::stages>::smem_bytes;
  for (Out o : kOuts) {
    const int need = o == Out::hist || o == Out::hist_exact ? epi::smem_bytes<Out::hist, epi::Stores::staged>()
                   : o == Out::mirror ? epi::smem_bytes<Out::mirror, epi::Stores::staged>()
                   : o == Out::count || o == Out::count_exact ? epi::smem_bytes<Out::count, epi::Stores::staged>()
                   : epi::smem_bytes<Out::lower, epi::Stores::staged>();
    if (need > have) return false;
  }
  return true;
}
static_assert(epilogue_fits<ClassicShape<Prec::tf32>>() && epilogue_fits<Warp8Shape<Prec::tf32>>() &&
              epilogue_fits<ClassicShape<Prec::bf16>>() && epilogue_fits<Warp8Shape<Prec::bf16>>(),
              "the epilogue's shared tile and histogram fit in the mainloop's shared memory");

}  // namespace gram
