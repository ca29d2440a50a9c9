// tdmaps/cutlass.hpp — the tdmaps tile scheduler for CUTLASS (issue #27). Needs the CUTLASS
// headers (nvidia-cutlass 4.2: .ci/deps.sh installs them into .tools/cutlass/include) and nvcc.
//
// LowerTriangleSwizzle<M> is a CUTLASS 2.x threadblock swizzle: the ThreadblockSwizzle argument
// of cutlass::gemm::device::Gemm (and of kernel::Gemm). With it, a user's own CUTLASS GEMM that
// computes a symmetric C = A A^T (B = A^T: the same memory, read as ColumnMajor) launches only
// the c(c+1)/2 lower-triangle tiles (block tile row I >= block tile column J) instead of c x c:
// the swizzle's grid is the map's grid, and each block's tile is the map's (I, J) at rho = 1
// (tiles.hpp). The tiles above the diagonal are never launched and never written.
//
//   using Gemm = cutlass::gemm::device::Gemm<float, RowMajor, float, ColumnMajor, float, RowMajor,
//       float, OpClass, Arch, TB, Warp, Inst, Epilogue, tdmaps::cutlass_tiles::LowerTriangleSwizzle<>>;
//
// M = tdmaps::LTM_E (default: exact for every tile count a grid holds) or tdmaps::BB (the
// bounding box: c x c blocks, those above the diagonal get a tile offset past the grid, so the
// stock kernel returns at once, as CUTLASS's rank-k update does). Requires square tiles
// (ThreadblockShape::kM == kN) and M == N; split-k slices ride in blockIdx.z as usual.
// The swizzle's int argument that CUTLASS calls "log tile" carries the tile count c here.
#pragma once
#include "tiles.hpp"
#include <cutlass/cutlass.h>
#include <cutlass/gemm_coord.h>

namespace tdmaps {
namespace cutlass_tiles {

template <class M = LTM_E>
struct LowerTriangleSwizzle {
  CUTLASS_HOST_DEVICE LowerTriangleSwizzle() {}

  // Tiles along M and N and the split-k slices, as CUTLASS's identity swizzle.
  CUTLASS_HOST_DEVICE static ::cutlass::gemm::GemmCoord get_tiled_shape(::cutlass::gemm::GemmCoord problem,
                                                                       ::cutlass::gemm::GemmCoord tile, int split_k) {
    return ::cutlass::gemm::GemmCoord((problem.m() + tile.m() - 1) / tile.m(),
                                      (problem.n() + tile.n() - 1) / tile.n(), split_k);
  }
  // The map's grid over c = tiled.m() tiles (host: M::plan throws tdmaps::unsupported past its range).
  static dim3 get_grid_shape(::cutlass::gemm::GemmCoord tiled) {
    const Dim3 g = TileMap<M>::make(tiled.m()).grid();
    return dim3(g.x, g.y, tiled.k());
  }
  // Carries c to the device (kernel::Gemm stores it in Params::swizzle_log_tile).
  CUTLASS_HOST_DEVICE static int get_log_tile(::cutlass::gemm::GemmCoord tiled) { return tiled.m(); }

  // This block's tile (I, J, k); a block the map leaves outside gets (c, c): past the grid, so
  // the kernel's bounds test returns at once.
  CUTLASS_DEVICE static ::cutlass::gemm::GemmCoord get_tile_offset(int c) {
    const Cell2T<i64> t = tile_of(c, blockIdx.x, blockIdx.y);
    if (!t.inside) return ::cutlass::gemm::GemmCoord(c, c, int(blockIdx.z));
    return ::cutlass::gemm::GemmCoord(int(t.i), int(t.j), int(blockIdx.z));
  }
  CUTLASS_DEVICE static ::cutlass::gemm::GemmCoord get_tile_offset(::cutlass::gemm::GemmCoord tiled) {
    return get_tile_offset(tiled.m());
  }

  // The plan on the device, rebuilt from c alone: the grid is the plan's, so a linear grid's row
  // length is gridDim.x. The 64-bit path (it serves every c; once per tile, its cost is nil).
  CUTLASS_DEVICE static Cell2T<i64> tile_of(int c, u32 bx, u32 by) {
    typename M::Params p;
    p.N = c;
    p.rho = 1;
    p.n = c;
    if constexpr (std::is_base_of_v<LinearPlan, typename M::Params>) {
      p.total = tri(u64(c));  // the linear maps read it (the last row of a multi-row grid); BB has no such field
      p.gx = gridDim.x;
    }
    p.narrow = false;
    return M::template block_cell<i64>(p, 0, bx, by);
  }
};

}  // namespace cutlass_tiles
}  // namespace tdmaps
