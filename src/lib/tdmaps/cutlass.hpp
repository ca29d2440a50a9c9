// tdmaps/cutlass.hpp — the tdmaps tile schedulers for CUTLASS (issues #27, #36). Needs the CUTLASS
// headers (nvidia-cutlass 4.2: .ci/deps.sh installs them into .tools/cutlass/include) and nvcc.
// Two schedulers, one arithmetic (tiles.hpp: TileMap<M>, the map's (I, J) at rho = 1):
//
// 1. LowerTriangleSwizzle<M>, CUTLASS 2.x: a threadblock swizzle, the ThreadblockSwizzle argument
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
//
// 2. LowerTriangleScheduler<M>, CUTLASS 3 (SM90): a tile-scheduler tag, the last template argument
// of cutlass::gemm::kernel::GemmUniversal, for the TMA warp-specialized ping-pong and cooperative
// kernels (KernelTmaWarpSpecializedPingpong / ...Cooperative). The kernel stays stock; the
// scheduler is persistent: min(SMs, c(c+1)/2) CTAs, CTA b walks lambda = b, b + G, b + 2G, ... over
// the c(c+1)/2 lower tiles, and the tile of lambda is the map's (I, J) (TileMap<M>::tile of block
// lambda of the map's grid), or with Band > 1 the banded order's (tiles.hpp banded_tile: bands of Band
// tile rows, walked in Band-wide column blocks, so that the tiles in flight share their operand
// panels). Only the lower tiles are computed and stored (with a TMA-store epilogue, whole tiles,
// partial edge tiles clipped by TMA); the tiles above are never touched.
//
//   using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop,
//       Epilogue, tdmaps::cutlass_tiles::LowerTriangleScheduler<>>;   // problem (N, N, K, 1)
//
// M: a linear map (LTM-E, the default, exact for every count; LTM-D; the float LTMs within
// their exact ranges: plan() refuses past them). Requires square tiles (TileShape M == N, checked
// at compile time), clusters of one CTA (compile time), M == N and one batch (L == 1) (on the
// host: initialize() returns kErrorInvalidProblem; lower_triangle_refusal() says why in one line;
// to_underlying_arguments throws tdmaps::unsupported). No split-K / stream-K: every tile's whole
// K loop runs in one CTA (the scheduler's Arguments have no splits). Built where the CUTLASS 3
// headers are found (define TDMAPS_CUTLASS_NO_SM90 to leave it out); TDMAPS_CUTLASS_SM90 is 1 then.
// examples/gram_sm90 is a complete TF32 example.
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

#if !defined(TDMAPS_CUTLASS_NO_SM90) && defined(__has_include)
#if __has_include(<cutlass/gemm/kernel/tile_scheduler.hpp>)
#define TDMAPS_CUTLASS_SM90 1
#endif
#endif

#if defined(TDMAPS_CUTLASS_SM90)
#include <cutlass/gemm/kernel/tile_scheduler.hpp>

#include <string>
#include <type_traits>

namespace tdmaps {
namespace cutlass_tiles {

// The tag: GemmUniversal<ProblemShape, Mainloop, Epilogue, LowerTriangleScheduler<M, Band>>. Band: the
// tiles walked in bands of that many tile rows (tiles.hpp banded_tile: an L2-friendlier order, the same
// tiles); 1: the map's own row-major order. Default 8: on an H200 (TF32, 128 x 128 tiles, N = 65536) it
// read 2-4x fewer operand bytes from DRAM than the row order and ran 12-17 % faster; 4 and 16 were
// between (experiments/results/h200/logs/issue36_tuning/).
template <class M = LTM_E, int Band = 8>
struct LowerTriangleScheduler {
  static_assert(Band >= 1, "LowerTriangleScheduler: a band is at least one tile row");
  static_assert(std::is_base_of_v<LinearPlan, typename M::Params>,
                "LowerTriangleScheduler walks the c(c+1)/2 blocks of a linear map (LTM-E, LTM-D, ...); "
                "a grid map (BB) is the 2.x swizzle's");
};

// Why the lower-triangle scheduler cannot run problem (m, n, k, l): one line, or empty when it can.
inline std::string lower_triangle_refusal(long long m, long long n, long long l) {
  if (m != n)
    return "tdmaps LowerTriangleScheduler: M = " + std::to_string(m) + " != N = " + std::to_string(n) +
           " (the lower tiles of a symmetric M x M product)";
  if (l != 1) return "tdmaps LowerTriangleScheduler: " + std::to_string(l) + " batches (L must be 1)";
  return std::string();
}
template <class ProblemShape>
std::string lower_triangle_refusal(ProblemShape const& p) {
  long long l = 1;
  if constexpr (cute::rank_v<ProblemShape> >= 4) l = (long long)(cute::get<3>(p));
  return lower_triangle_refusal((long long)(cute::get<0>(p)), (long long)(cute::get<1>(p)), l);
}

// The scheduler GemmUniversal gets for the tag (TileSchedulerSelector below). The kernels' other
// calls (k-tile counts, epilogue, no fixup) are CUTLASS's StaticPersistentTileScheduler's; the
// walk (initial work, advance, fetch, last tile) and the grid are the map's.
template <class M, int Band>
class LowerTriangleTileScheduler
    : public ::cutlass::gemm::kernel::detail::StaticPersistentTileScheduler<LowerTriangleTileScheduler<M, Band>> {
  using Base = ::cutlass::gemm::kernel::detail::StaticPersistentTileScheduler<LowerTriangleTileScheduler<M, Band>>;

 public:
  using WorkTileInfo = typename Base::WorkTileInfo;
  using Arguments = typename Base::Arguments;  // swizzle and raster order: not used (the map orders the tiles)
  using RasterOrder = typename Base::RasterOrder;
  using RasterOrderOptions = typename Base::RasterOrderOptions;
  // CUTLASS's SM90 fields (the kernels read log_swizzle_size_ and raster_order_) + the map's plan.
  struct Params : ::cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90Params {
    TileMap<M> tiles;  // the map over c tiles at rho = 1
    Dim3 map_grid;     // its grid: lambda is block block_at(map_grid, lambda)
    u64 count = 0;     // c(c+1)/2: the lambdas walked, every one inside
  };
  static constexpr bool IsDynamicPersistent = false;
  using Pipeline = ::cutlass::PipelineEmpty;
  using PipelineStorage = typename Pipeline::SharedStorage;
  using ThrottlePipeline = ::cutlass::PipelineEmpty;
  using ThrottlePipelineStorage = typename ThrottlePipeline::SharedStorage;
  struct CLCResponse {};
  class SharedStorage {
   public:
    CUTLASS_DEVICE PipelineStorage pipeline() { return PipelineStorage{}; }
    CUTLASS_DEVICE ThrottlePipelineStorage throttle_pipeline() { return ThrottlePipelineStorage{}; }
    CUTLASS_DEVICE CLCResponse* data() { return nullptr; }
  };

  CUTLASS_HOST_DEVICE LowerTriangleTileScheduler() {}
  CUTLASS_DEVICE explicit LowerTriangleTileScheduler(Params const& p) : params_(p) {
#if defined(__CUDA_ARCH__)
    lambda_ = u64(blockIdx.x) + u64(blockIdx.y) * gridDim.x;
    stride_ = u64(gridDim.x) * gridDim.y * gridDim.z;
#endif
  }

  // Host: the plan over c = ceil(M / tile) tiles (throws tdmaps::unsupported: see lower_triangle_refusal).
  template <class ProblemShapeMNKL, class TileShape, class ClusterShape>
  static Params to_underlying_arguments(ProblemShapeMNKL problem_shape_mnkl, TileShape, ClusterShape,
                                        ::cutlass::KernelHardwareInfo const&, Arguments const&, void* = nullptr,
                                        const uint32_t = 1, uint32_t = 1) {
    static_assert(cute::is_static<TileShape>::value && cute::is_static<ClusterShape>::value);
    static_assert(cute::size<0>(TileShape{}) == cute::size<1>(TileShape{}),
                  "LowerTriangleScheduler: square tiles (TileShape M == N)");
    static_assert(cute::size(ClusterShape{}) == 1, "LowerTriangleScheduler: clusters of one CTA");
    const std::string why = lower_triangle_refusal(problem_shape_mnkl);
    if (!why.empty()) throw unsupported(why);
    const i64 side = i64(cute::size<0>(TileShape{}));
    Params p;
    p.tiles = TileMap<M>::make((i64(cute::get<0>(problem_shape_mnkl)) + side - 1) / side);
    p.map_grid = p.tiles.grid();
    p.count = TileMap<M>::useful(p.tiles.side());
    return p;
  }

  // The persistent grid: one CTA an SM, no more than the tiles.
  template <class ProblemShapeMNK, class BlockShape, class ClusterShape>
  static dim3 get_grid_shape(Params const& p, ProblemShapeMNK, BlockShape, ClusterShape,
                             ::cutlass::KernelHardwareInfo hw_info, Arguments = Arguments{}, bool = true) {
    const u64 sms = u64(hw_info.sm_count > 0 ? hw_info.sm_count : 1);
    return dim3(unsigned(p.count < sms ? (p.count ? p.count : 1) : sms), 1, 1);
  }

  template <class ProblemShape, class ElementAccumulator>
  static size_t get_workspace_size(Arguments const&, ProblemShape, ::cutlass::KernelHardwareInfo const&, uint32_t,
                                   const uint32_t = 1, uint32_t = 1) {
    return 0;
  }
  // Called first by GemmUniversalAdapter::initialize: the host-side refusal as a status.
  template <class ProblemShape, class ElementAccumulator>
  static ::cutlass::Status initialize_workspace(Arguments const&, void*, cudaStream_t, ProblemShape problem_shape,
                                                ::cutlass::KernelHardwareInfo const&, uint32_t, const uint32_t = 1,
                                                uint32_t = 1, ::cutlass::CudaHostAdapter* = nullptr) {
    return lower_triangle_refusal(problem_shape).empty() ? ::cutlass::Status::kSuccess
                                                         : ::cutlass::Status::kErrorInvalidProblem;
  }

  // Tile lambda: the map's (I, J) of block lambda of its grid; none past c(c+1)/2.
  CUTLASS_DEVICE WorkTileInfo work_at(u64 l) const {
    if (l >= params_.count) return WorkTileInfo::invalid_work_tile();
    const Dim3 b = narrow_block_space(params_.count) ? block_at<u32>(params_.map_grid, u32(l))
                                                     : block_at<u64>(params_.map_grid, l);
    const Cell2T<i64> t = banded_tile(params_.tiles.tile(b.x, b.y), l, params_.tiles.side(), Band);
    return {int32_t(t.i), int32_t(t.j), 0, true};
  }
  template <class ClusterShape>
  CUTLASS_DEVICE WorkTileInfo initial_work_tile_info(ClusterShape) { return get_current_work(); }
  CUTLASS_DEVICE WorkTileInfo get_current_work() const { return work_at(lambda_); }
  CUTLASS_DEVICE void advance_to_next_work(uint32_t advance_count = 1) { lambda_ += stride_ * advance_count; }
  CUTLASS_DEVICE bool is_last_tile(WorkTileInfo&, uint32_t advance_count = 1) const {
    return !work_at(lambda_ + stride_ * advance_count).is_valid();
  }
  CUTLASS_DEVICE auto fetch_next_work(WorkTileInfo) {
    advance_to_next_work();
    return cute::make_tuple(get_current_work(), true);
  }
  template <class TileSchedulerPipeline, class TileSchedulerPipelineState>
  CUTLASS_DEVICE auto fetch_next_work(WorkTileInfo w, TileSchedulerPipeline&, TileSchedulerPipelineState) {
    return fetch_next_work(w);
  }

 private:
  Params params_;
  u64 lambda_ = 0, stride_ = 1;
};

}  // namespace cutlass_tiles
}  // namespace tdmaps

// GemmUniversal's SM90 kernels pick their scheduler here, by the tag.
namespace cutlass::gemm::kernel::detail {
template <class M, int Band, class TileShape, class ClusterShape, uint32_t SchedulerPipelineStageCount>
struct TileSchedulerSelector<::tdmaps::cutlass_tiles::LowerTriangleScheduler<M, Band>, ::cutlass::arch::Sm90, TileShape,
                             ClusterShape, SchedulerPipelineStageCount> {
  using Scheduler = ::tdmaps::cutlass_tiles::LowerTriangleTileScheduler<M, Band>;
};
}  // namespace cutlass::gemm::kernel::detail
#endif  // TDMAPS_CUTLASS_SM90
