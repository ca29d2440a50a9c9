// src/support/gram/gram_sm90.cuh — the Hopper kernel of the Gram / distance tiles (issue #27, kernel
// sm90-ws): CUTLASS 3's SM90 mainloop (TMA loads into a multistage shared-memory pipeline, wgmma
// reading both operands from shared memory: no operand fragments in registers), built by
// cutlass::gemm::collective::CollectiveBuilder (KernelTmaWarpSpecializedCooperative: two consumer
// warp groups of m64n128 wgmma on a 128 x 128 tile) and used through its collective API
// (load_init / load / load_tail for the producer, mma / mma_tail for the consumers, its
// PipelineTmaAsync) inside a kernel of ours:
//   - the tile scheduler is a tdmaps map over the c x c tile grid, as in gram.cuh: one block a tile,
//     the map's grid as launched (LTM-E: the c(c+1)/2 lower tiles, block -> (I, J) by g(lambda);
//     BB: the c x c grid, the blocks above the diagonal return at once); the eps count's persistent
//     form (below) walks the same grid's blocks, a block taking b, b + grid, ..;
//   - 288 threads: warps 0-7 the two consumer warp groups (wgmma needs whole, aligned warp
//     groups), warp 8 the TMA producer; 64 accumulators a consumer thread and 3 stages of
//     32 KB, so two blocks share an SM (the launch bounds ask for it: <= 112 registers) and one
//     block's epilogue runs under the other's mainloop;
//   - the epilogue is gram_epilogue.cuh's (the classic kernel's, with Stores::registers): lower and
//     condensed straight from the accumulator registers; the fused histogram's copies and mirror's tile in the
//     mainloop's operand stages; the eps count from the registers, on a persistent form of this
//     kernel (count_exact: gram_kernel_sm90_persistent, count_wgmma) or a ping-pong one (count:
//     gram_kernel_sm90_pingpong, 384 threads, epi::count_pingpong), both below.
// The outputs, in two translation units as the SM80 kernels' (gram_api.hpp's OutGroup): gram_sm90.cu the tile
// group (lower, condensed, hist), gram_sm90_extra.cu the extra group (mirror, count, minmax and the exact mode's
// count_exact, hist_exact: LTM-E alone; issue #37). Both are compiled for sm_90a only (wgmma is an sm_90a
// feature): meson builds them alone with -gencode arch=compute_90a,code=sm_90a (src/support/gram/meson.build).
// The operands, norms, Params and output conventions are gram.cuh's (prepare() is shared by every kernel).
#pragma once
#include "gram.cuh"

#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/dispatch_policy.hpp>
#include <cutlass/arch/reg_reconfig.h>
#include <cutlass/pipeline/sm90_pipeline.hpp>


namespace gram {
namespace sm90 {
using namespace cute;

// The CUTLASS configuration of a precision: 128 x 128 tiles, 128-byte k-rows (32 TF32 or 64
// 16-bit values; the operands' Kp is a multiple: gram.cuh's k_align), 3 stages.
// The mainloop of a precision, a stage count and a schedule: CUTLASS's collective for 128 x 128 tiles of 128-byte
// k-rows, both operands K-major (this file's kernels: Cooperative, Pingpong).
template <Prec P, int Stages, class Schedule>
using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Storage<P>, cutlass::layout::RowMajor, 16 / int(sizeof(Storage<P>)),
    Storage<P>, cutlass::layout::ColumnMajor, 16 / int(sizeof(Storage<P>)), float,
    Shape<_128, _128, Int<128 / int(sizeof(Storage<P>))>>, Shape<_1, _1, _1>, cutlass::gemm::collective::StageCount<Stages>,
    Schedule>::CollectiveOp;
template <Prec P> struct Cfg {
  using E = Storage<P>;
  static constexpr int bk = 128 / int(sizeof(E));
  using TileShape = Shape<_128, _128, Int<bk>>;
  static constexpr int stages = 3;
  using ML = Mainloop<P, stages, cutlass::gemm::KernelTmaWarpSpecializedCooperative>;
  using TiledMma = typename ML::TiledMma;
  static constexpr int consumers = int(size(TiledMma{}));  // 256: two warp groups
  static constexpr int threads = consumers + 32;           // + the producer warp
  static constexpr int smem = int(sizeof(typename ML::SharedStorage));
  static_assert(consumers == 256, "two consumer warp groups");
};

// The mainloop pipeline's roles, for both kernels below: the consumers (the two warp groups) and the producer warp,
// whose lane 0 (the one its elect_one_sync picks) leads; each stage's transaction, the TMA loads' bytes.
template <Prec P>
__device__ __forceinline__ typename Cfg<P>::ML::MainloopPipeline::Params pipeline_params(int tid,
                                                                                      const typename Cfg<P>::ML::Params& mp) {
  using C = Cfg<P>;
  using Pipe = typename C::ML::MainloopPipeline;
  typename Pipe::Params pp;
  pp.role = tid >= C::consumers ? Pipe::ThreadCategory::Producer : Pipe::ThreadCategory::Consumer;
  pp.is_leader = tid == C::consumers;
  pp.num_consumers = C::consumers;
  pp.transaction_bytes = mp.tma_transaction_bytes;
  return pp;
}

// Tiles: tdmaps::TileMap<Map> (the whole grid) or tdmaps::TileRange<Map> (a range of its blocks).
template <Prec P, class Tiles, Out O>
__global__ void __launch_bounds__(Cfg<P>::threads, 2)
    gram_kernel_sm90(Params p, Tiles tiles, const __grid_constant__ typename Cfg<P>::ML::Params mp,
                     int k_tiles) {  // mp: the TMA descriptors, read where they are (a kernel parameter)
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using C = Cfg<P>;
  using ML = typename C::ML;
  static_assert(sizeof(typename ML::SharedStorage::TensorStorage) >= epi::smem_bytes<O, epi::Stores::registers>(),
                "the epilogue's shared memory fits in the mainloop's operand stages");
  using Pipe = typename ML::MainloopPipeline;
  extern __shared__ __align__(1024) char smem[];
  auto& ss = *reinterpret_cast<typename ML::SharedStorage*>(smem);

  const tdmaps::Cell2T<i64> t = tiles.tile(blockIdx.x, blockIdx.y);
  if (!t.inside) return;  // bb-grid: a tile above the diagonal (the whole block, before any barrier)
  // lower / hist: tile rows I (points i), columns J <= I. condensed: rows J (a), columns I (b).
  const int tm = int(O == Out::condensed ? t.j : t.i), tn = int(O == Out::condensed ? t.i : t.j);

  const int tid = int(threadIdx.x);
  const bool producer = tid >= C::consumers;
  if (tid == C::consumers) ML::prefetch_tma_descriptors(mp);

  Pipe pipe(ss.pipeline, pipeline_params<P>(tid, mp), Shape<_1, _1, _1>{});  // warp 0 initializes the barriers
  __syncthreads();                                  // ... visible to every thread

  ML ml;
  if (producer) {
    const i64 rows = tiles.side() * tile_side;
    auto problem = make_shape(int(rows), int(rows), int(p.Kp), 1);
    auto inputs = ml.load_init(problem, mp);
    auto k_iter = make_coord_iterator(shape<3>(get<0>(inputs)));
    auto wr = cutlass::make_producer_start_state<Pipe>();
    ml.load(mp, pipe, wr, inputs, make_coord(tm, tn, _, 0), k_iter, k_tiles, tid % 32, 0u, ss.tensors);
    wr.advance(k_tiles);
    ml.load_tail(pipe, wr);  // every stage released by the consumers
    return;
  }

  typename C::TiledMma mma;
  auto blk = typename C::TileShape{};
  Tensor acc = partition_fragment_C(mma, take<0, 2>(blk));  // (MMA, MMA_M, MMA_N): 64 floats
  typename ML::PipelineState rd;
  ml.mma(pipe, rd, acc, k_tiles, tid, ss.tensors, mp);
  ml.mma_tail(pipe, rd, k_tiles);  // this warp group's wgmma done, its stages released

  // the epilogue (gram_epilogue.cuh): from the registers (lower, condensed, minmax), or through the operand stages
  // (the histograms' copies, mirror's tile; the count runs on the persistent kernel below), once both warp groups' wgmma
  // have read them (the team's first barrier; every TMA load has landed: each stage's full barrier was waited on)
  Tensor cC = make_identity_tensor(take<0, 2>(blk));
  Tensor tCcC = mma.get_slice(tid).partition_C(cC);  // (row, column) in the tile of each accumulator
  epi::apply<O, epi::Stores::registers>(p, epi::TileAt(p, tm, tn, t.i == t.j), acc, tCcC,
                                        reinterpret_cast<char*>(&ss.tensors), epi::Team<C::consumers, true>{tid});
#else
  // never run: this file is compiled for sm_90a alone; a build that reached here without it traps
  __trap();
#endif
}

// The eps count's persistent form (count_exact; the plain count runs on the ping-pong form below; issue #37): a
// block takes the blocks b = blockIdx.x,
// + gridDim.x, .. of the map's grid (block_at, as the CUTLASS scheduler's; each the map's tile or outside, as above),
// the producer warp loading the next tiles' k-tiles into the free stages while the consumers count the last one; the
// count's per-column counters (count_wgmma) lie past the mainloop's shared memory (the stages stay the producer's),
// and two blocks still share an SM. Measured on an H200 (N = 10^6, d = 128, calls 47-49, each on its own machine):
// count TF32 0.79 s one tile a block, 0.75-0.77 s persistent; BF16 0.61 s, 0.55-0.61 s. The histogram stays one
// tile a block: persistent, its copies (64 KB past 96 KB of stages) left one block an SM, 0.98 s against 0.91 s.
// Walking LTM-E's tiles in the banded order (tdmaps::banded_tile, 8 tile rows) gained nothing (call 49).
// The persistent kernels' walk: block b of the map's grid g (b = blockIdx.x, + gridDim.x, ..) -> its tile, or outside.
template <class Tiles> __device__ __forceinline__ tdmaps::Cell2T<i64> tile_of_block(const Tiles& tiles, tdmaps::Dim3 g, u64 b) {
  const tdmaps::Dim3 x = tdmaps::block_at<u64>(g, b);
  return tiles.tile(x.x, x.y);
}
// Their producer warp: the k-tiles of the block's tiles (the inside ones, in the walk's order) into the mainloop's
// stages, then the pipeline's tail (every stage released by the consumers).
template <class ML, class Pipe, class Tiles, class Tensors>
__device__ __forceinline__ void load_tiles(ML& ml, const typename ML::Params& mp, Pipe& pipe, const Params& p,
                                           const Tiles& tiles, u64 blocks, tdmaps::Dim3 g, int k_tiles, int lane,
                                           Tensors& tensors) {
  const i64 rows = tiles.side() * tile_side;
  auto problem = make_shape(int(rows), int(rows), int(p.Kp), 1);
  auto inputs = ml.load_init(problem, mp);
  auto wr = cutlass::make_producer_start_state<Pipe>();
  for (u64 b = blockIdx.x; b < blocks; b += gridDim.x) {
    const tdmaps::Cell2T<i64> t = tile_of_block(tiles, g, b);
    if (!t.inside) continue;
    auto k_iter = make_coord_iterator(shape<3>(get<0>(inputs)));
    ml.load(mp, pipe, wr, inputs, make_coord(int(t.i), int(t.j), _, 0), k_iter, k_tiles, lane, 0u, tensors);
    wr.advance(k_tiles);
  }
  ml.load_tail(pipe, wr);
}
// Where the persistent kernel's epilogue memory starts (past the mainloop's, 128-byte aligned) and its size.
template <Prec P> constexpr int epilogue_offset() { return (int(sizeof(typename Cfg<P>::ML::SharedStorage)) + 127) / 128 * 128; }
template <Out O> constexpr bool persistent = O == Out::count || O == Out::count_exact;
template <Prec P, class Tiles, Out O>
__global__ void __launch_bounds__(Cfg<P>::threads, 2)
    gram_kernel_sm90_persistent(Params p, Tiles tiles, const __grid_constant__ typename Cfg<P>::ML::Params mp, int k_tiles,
                                u64 blocks, tdmaps::Dim3 g) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using C = Cfg<P>;
  using ML = typename C::ML;
  using Pipe = typename ML::MainloopPipeline;
  extern __shared__ __align__(1024) char smem[];
  auto& ss = *reinterpret_cast<typename ML::SharedStorage*>(smem);
  char* esm = smem + epilogue_offset<P>();  // the epilogue's own shared memory: count_wgmma's (count_wgmma_bytes)

  const int tid = int(threadIdx.x);
  const bool producer = tid >= C::consumers;
  if (tid == C::consumers) ML::prefetch_tma_descriptors(mp);
  Pipe pipe(ss.pipeline, pipeline_params<P>(tid, mp), Shape<_1, _1, _1>{});
  const epi::Team<C::consumers, true> team{tid};
  __syncthreads();  // the pipeline's barriers visible to every thread

  ML ml;
  if (producer) {
    load_tiles(ml, mp, pipe, p, tiles, blocks, g, k_tiles, tid % 32, ss.tensors);
    return;
  }

  typename C::TiledMma mma;
  auto blk = typename C::TileShape{};
  Tensor cC = make_identity_tensor(take<0, 2>(blk));
  Tensor tCcC = mma.get_slice(tid).partition_C(cC);
  typename ML::PipelineState rd;
  for (u64 b = blockIdx.x; b < blocks; b += gridDim.x) {
    const tdmaps::Cell2T<i64> t = tile_of_block(tiles, g, b);
    if (!t.inside) continue;
    Tensor acc = partition_fragment_C(mma, take<0, 2>(blk));
    ml.mma(pipe, rd, acc, k_tiles, tid, ss.tensors, mp);
    ml.mma_tail(pipe, rd, k_tiles);  // this warp group's wgmma done, its stages released to the producer
    rd.advance(k_tiles);
    // its first barrier: the last tile's flush is done
    epi::apply<O, epi::Stores::registers>(p, epi::TileAt(p, int(t.i), int(t.j), t.i == t.j), acc, tCcC, esm, team);
  }
#else
  __trap();
#endif
}

// The eps count's ping-pong form (count; issue #37): CUTLASS's KernelTmaWarpSpecializedPingpong mainloop (one
// m64n128 warp group a 128 x 128 tile, 128 accumulators a thread) in a persistent kernel of ours, one block an SM: the
// producer warp loads the map's tiles in order into 6 stages; consumer warp group w takes the block's tiles of parity
// w, and the two take turns at the tensor cores (cutlass::OrderedSequenceBarrier: a group issues its tile's wgmma once
// the other's are issued), so one group's count (epi::count_pingpong) runs under the other's mainloop. 384 threads,
// the producer a whole warp group, so that setmaxnreg moves registers to the consumers (232 a thread, CUTLASS's
// split; at 288 threads ptxas had 168).
// Measured on an H200 in one run (calls 60-62, experiments/results/h200/logs/issue37_pingpong/), N = 10^6, d = 128:
// TF32 count 683 ms against the persistent form's 747 ms, BF16 523 against 533. The exact mode's count_exact stays on
// the persistent form: its epilogue (the bracket and the replay list's ballots) is heavier, and one group counting at a
// time made it slower (3xTF32, N = 262144: 361 ms against 186 ms). A 2 x 2 cluster form (256 x 256 super tiles, each
// block loading half of its A and B k-tiles and multicasting them: half the operand traffic through L2) gained
// nothing on TF32 (688 ms) and lost on BF16 (584 ms) and count_exact (303 ms), so it was not kept: L2's operand
// traffic is not what binds the count. Session 13's leaner epilogue (epi::count_pingpong: 4 instructions a pair, the
// norms loaded under the wgmma's tail, one barrier a tile) took the ping-pong count to TF32 575 ms, BF16 402 ms
// (calls 65, 66, logs/issue37_count_epi/: against 673 and 512 ms in the same calls).
template <Prec P> struct CfgPingpong {
  using E = Storage<P>;
  static constexpr int bk = Cfg<P>::bk;
  using TileShape = typename Cfg<P>::TileShape;
  static constexpr int stages = 6;  // 6 x 32 KB
  using ML = Mainloop<P, stages, cutlass::gemm::KernelTmaWarpSpecializedPingpong>;
  using TiledMma = typename ML::TiledMma;
  static constexpr int group = int(size(TiledMma{}));  // 128: one warp group
  static_assert(group == 128, "one consumer warp group a tile");
  static constexpr int consumers = 2 * group;
  static constexpr int threads = consumers + group;  // + the producer warp group (its first warp loads)
  static constexpr int producer_regs = 40, consumer_regs = 232;  // setmaxnreg: 128 x 40 + 256 x 232 <= 65536
  using Order = cutlass::OrderedSequenceBarrier<1, 2>;
  struct Shared {
    typename ML::SharedStorage ml;
    typename Order::SharedStorage order;
  };
  static constexpr int epilogue_offset = (int(sizeof(Shared)) + 127) / 128 * 128;
  static constexpr int epilogue_bytes = (2 * epi::count_wgmma_bytes + 127) / 128 * 128;  // a warp group's two sets
  static constexpr int smem = epilogue_offset + 2 * epilogue_bytes;
};
template <Prec P, class Tiles, Out O>
__global__ void __launch_bounds__(CfgPingpong<P>::threads, 1)
    gram_kernel_sm90_pingpong(Params p, Tiles tiles, const __grid_constant__ typename CfgPingpong<P>::ML::Params mp,
                              int k_tiles, u64 blocks, tdmaps::Dim3 g) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(O == Out::count, "the ping-pong form counts (count_exact: the persistent form)");
  using C = CfgPingpong<P>;
  using ML = typename C::ML;
  using Pipe = typename ML::MainloopPipeline;
  extern __shared__ __align__(1024) char smem[];
  auto& ss = *reinterpret_cast<typename C::Shared*>(smem);

  const int tid = int(threadIdx.x), wg = tid / C::group;  // consumer warp groups 0, 1; the producer's: 2
  const bool producer = wg == 2;
  if (tid == C::consumers) ML::prefetch_tma_descriptors(mp);
  typename Pipe::Params pp;
  pp.role = producer ? Pipe::ThreadCategory::Producer : Pipe::ThreadCategory::Consumer;
  pp.is_leader = tid == C::consumers;
  pp.num_consumers = C::group;  // a stage is one warp group's
  pp.transaction_bytes = mp.tma_transaction_bytes;
  Pipe pipe(ss.ml.pipeline, pp, Shape<_1, _1, _1>{});  // warp 0 initializes the barriers
  typename C::Order order(ss.order, typename C::Order::Params{u32(wg & 1), u32(C::group)});  // warp 0 initializes it
  __syncthreads();  // the barriers visible to every thread

  ML ml;
  if (producer) {
    cutlass::arch::warpgroup_reg_dealloc<C::producer_regs>();
    if (tid / 32 == C::consumers / 32) load_tiles(ml, mp, pipe, p, tiles, blocks, g, k_tiles, tid % 32, ss.ml.tensors);
    return;  // (the group's other warps: nothing to do)
  }
  cutlass::arch::warpgroup_reg_alloc<C::consumer_regs>();

  const int gtid = tid % C::group;
  typename C::TiledMma mma;
  auto blk = typename C::TileShape{};
  Tensor cC = make_identity_tensor(take<0, 2>(blk));
  Tensor tCcC = mma.get_slice(gtid).partition_C(cC);
  // this group's column counters: two sets, a tile's in set (its tile number / 2) % 2 (count_pingpong)
  u32* esm = reinterpret_cast<u32*>(smem + C::epilogue_offset + wg * C::epilogue_bytes);
  const epi::Team<C::group, true> team{gtid, 2 + wg};
  for (int k = gtid; k < 2 * (tile_side + 1); k += C::group) esm[k] = 0;
  team.sync();
  typename ML::PipelineState rd;
  u32 n = 0;  // the block's tiles so far
  for (u64 b = blockIdx.x; b < blocks; b += gridDim.x) {
    const tdmaps::Cell2T<i64> t = tile_of_block(tiles, g, b);
    if (!t.inside) continue;
    if ((n++ & 1u) != u32(wg)) {  // the other group's tile: its k-tiles
      rd.advance(k_tiles);
      continue;
    }
    Tensor acc = partition_fragment_C(mma, take<0, 2>(blk));
    const epi::TileAt at(p, int(t.i), int(t.j), t.i == t.j);
    order.wait();  // the other group's wgmma issued
    ml.mma(pipe, rd, acc, k_tiles, gtid, ss.ml.tensors, mp);
    order.arrive();
    const epi::WgmmaNorms<2, true> nv(at, tCcC);  // loads issued under the wgmma's tail
    ml.mma_tail(pipe, rd, k_tiles);  // this group's wgmma done, its stages released
    rd.advance(k_tiles);
    epi::count_pingpong(p, at, acc, tCcC, nv, esm + ((n - 1) >> 1 & 1u) * (tile_side + 1), team);
  }
#else
  __trap();
#endif
}
template <Prec P, class Tiles, Out O>
cudaError_t launch_pingpong(const Params& p, const Prepared& o, const Tiles& tiles, int k_tiles, cudaStream_t s) {
  using C = CfgPingpong<P>;
  using ML = typename C::ML;
  using E = typename C::E;
  const int rows = int(o.Np);
  const int64_t ld = o.Kp, batch = int64_t(o.Np) * o.Kp;
  typename ML::Arguments args{static_cast<const E*>(o.A), make_stride(ld, _1{}, batch), static_cast<const E*>(o.B),
                              make_stride(ld, _1{}, batch)};
  const auto problem = make_shape(rows, rows, int(o.Kp), 1);
  if (!ML::can_implement(problem, args)) return cudaErrorInvalidValue;
  const typename ML::Params mp = ML::to_underlying_arguments(problem, args, nullptr);  // the TMA descriptors
  auto k = gram_kernel_sm90_pingpong<P, Tiles, O>;
  if (const cudaError_t e = allow_dynamic_smem(k, C::smem); e != cudaSuccess) return e;
  int dev = 0, sms = 0;
  if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  if (const cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev); e != cudaSuccess) return e;
  const tdmaps::Dim3 g = tiles.grid();
  const u64 blocks = u64(g.x) * g.y * g.z;
  k<<<dim3(unsigned(std::min<u64>(blocks, u64(sms)))), C::threads, C::smem, s>>>(p, tiles, mp, k_tiles, blocks, g);
  return cudaGetLastError();
}

template <Prec P, class Tiles, Out O>
cudaError_t launch_persistent(const Params& p, const Tiles& tiles, const typename Cfg<P>::ML::Params& mp, int k_tiles,
                              cudaStream_t s) {
  using C = Cfg<P>;
  auto k = gram_kernel_sm90_persistent<P, Tiles, O>;
  const int smem = epilogue_offset<P>() + epi::count_wgmma_bytes;
  if (const cudaError_t e = allow_dynamic_smem(k, smem); e != cudaSuccess) return e;
  int dev = 0, sms = 0, per_sm = 0;
  if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  if (const cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev); e != cudaSuccess) return e;
  if (const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, C::threads, smem); e != cudaSuccess)
    return e;
  if (per_sm < 1) return cudaErrorInvalidConfiguration;
  const tdmaps::Dim3 g = tiles.grid();
  const u64 blocks = u64(g.x) * g.y * g.z;
  const u64 grid = std::min<u64>(blocks, u64(per_sm) * u64(sms));
  k<<<dim3(unsigned(grid)), C::threads, smem, s>>>(p, tiles, mp, k_tiles, blocks, g);
  return cudaGetLastError();
}

template <Prec P, class Tiles, Out O>
cudaError_t launch(const Params& p, const Prepared& o, const Tiles& tiles, cudaStream_t s) {
  using C = Cfg<P>;
  using ML = typename C::ML;
  using E = typename C::E;
  if (o.Kp % C::bk != 0 || o.Np != tiles.side() * tile_side) return cudaErrorInvalidValue;
  const int rows = int(o.Np);
  const int64_t ld = o.Kp, batch = int64_t(o.Np) * o.Kp;  // K-major rows; one batch (L = 1), packed
  typename ML::Arguments args{static_cast<const E*>(o.A), make_stride(ld, _1{}, batch), static_cast<const E*>(o.B),
                              make_stride(ld, _1{}, batch)};
  const auto problem = make_shape(rows, rows, int(o.Kp), 1);
  if (!ML::can_implement(problem, args)) return cudaErrorInvalidValue;
  const typename ML::Params mp = ML::to_underlying_arguments(problem, args, nullptr);  // the TMA descriptors
  if constexpr (persistent<O>) {
    if constexpr (O == Out::count) return launch_pingpong<P, Tiles, O>(p, o, tiles, int(o.Kp / C::bk), s);
    else return launch_persistent<P, Tiles, O>(p, tiles, mp, int(o.Kp / C::bk), s);
  } else {
    auto k = gram_kernel_sm90<P, Tiles, O>;
    if (const cudaError_t e = allow_dynamic_smem(k, C::smem); e != cudaSuccess) return e;
    const tdmaps::Dim3 g = tiles.grid();
    k<<<dim3(g.x, g.y, g.z), C::threads, C::smem, s>>>(p, tiles, mp, int(o.Kp / C::bk));
    return cudaGetLastError();
  }
}

// One precision and output group of sm90-ws (the one dispatch, gram_launch.cuh).
template <Prec P, OutGroup G> cudaError_t run_of(const Prepared& o, const Request& r, cudaStream_t s) {
  return dispatch<G>(o, r, s, [&](const auto& tiles, auto out, const Params& p) {
    return launch<P, std::decay_t<decltype(tiles)>, decltype(out)::value>(p, o, tiles, s);
  });
}
// One output group of sm90-ws for every precision: gram_sm90.cu instantiates the tile group, gram_sm90_extra.cu
// the extra one.
template <OutGroup G> cudaError_t run_group(const Prepared& o, const Request& r, cudaStream_t s) {
  switch (o.prec) {
    case Prec::tf32: return sm90::run_of<Prec::tf32, G>(o, r, s);
    case Prec::tf32x3: return sm90::run_of<Prec::tf32x3, G>(o, r, s);
    case Prec::bf16: return sm90::run_of<Prec::bf16, G>(o, r, s);
    case Prec::fp16: return sm90::run_of<Prec::fp16, G>(o, r, s);
  }
  return cudaErrorInvalidValue;
}
}  // namespace sm90

}  // namespace gram
