// src/support/gram/gram_sm90_evt.cuh — kernel sm90-evt of the Gram / distance tiles (issue #36 item 2):
// (this header: the kernel, its visitor-tree nodes and the launch; gram_sm90_evt.cu runs the stored outputs,
// gram_sm90_evt_reduce.cu the fused reductions of issue #37, one unit a precision)
// a stock CUTLASS 3 GEMM, nothing of ours inside the kernel but the tile scheduler and one epilogue node.
//
//   kernel    cutlass::gemm::kernel::GemmUniversal (SM90 TMA warp-specialized, ping-pong: one consumer
//             warp group a 128 x 128 tile, its epilogue under the other group's mainloop; cooperative
//             with -DTDMAPS_GRAM_EVT_COOPERATIVE=1): mainloop by CUTLASS's CollectiveBuilder, the
//             epilogue collective by its Sm90TmaBuilderImpl with our policy (64 x 64 subtiles, 2 store
//             stages: EpiPolicy below); TF32 (float operands read by TMA, tfloat32 wgmma), FP32
//             accumulation, 128 x 128 x 32 tiles, clusters of one CTA;
//   scheduler tdmaps::cutlass_tiles::LowerTriangleScheduler<LTM_E, 8> (tdmaps/cutlass.hpp: the c(c+1)/2 lower
//             tiles, persistent, in bands of 8 tile rows) — Sched::ltm_e; or CUTLASS's own persistent
//             scheduler over the c x c square — Sched::bb, the rows "full-sm90-evt" (every cell written);
//   epilogue  CUTLASS 3's fusion API (an epilogue visitor tree, Sm90EVT) ending in the collective's TMA
//             store of D (row-major N x N, ld N):
//               d2 = ReLu(fma(-2, acc, n_i + n_j))         n_i: Sm90ColBroadcast, n_j: Sm90RowBroadcast
//               d  = Sqrt(d2)                              the sqrt outputs (our functor, sqrt.approx)
//               out = KeepAboveDiagonal(d2 or d)           lower, ltm-e (our node, below)
//               out = MirrorStore(ZeroDiagonal(d2 or d))   mirror: the tile also stored at (J, I) by a
//                                                          second TMA store (CUTLASS's Sm90AuxStore into a
//                                                          column-major view of D), the diagonal 0
//               out = MirrorStore(acc)                     the product X X^T (BF16 / FP16 operands, 128 x 128
//                                                          x 64 tiles), mirror-written
//               CondensedStore(d2 or d)                    condensed (pdist order): no D (ElementD void),
//                                                          the cells i > j stored from the registers
//                                                          (our node, below)
//             KeepAboveDiagonal: in a diagonal tile (I == J) a cell j > i keeps the value D holds before
//             the launch (read back from global memory, that tile's cells only), so the TMA store, which
//             writes whole boxes, leaves the contents above the diagonal as they were — the `lower`
//             contract of gram_api.hpp, which bench_gram checks (poisoned cells must stay poisoned).
//             Those cells are stored again with their own bits (not "never stored": a concurrent writer of
//             the upper triangle inside the c diagonal tiles would race; nothing else is touched).
//
// The seam: GemmOf<Scheduler, Fusion, StagesD> is the whole kernel, and an output is a Fusion (an EVT
// type, FusionOf below) plus its Arguments (run_gemm). Another output — a fused reduction (the histogram:
// a node whose consumer callbacks count into shared memory in reduce()/end(), ElementD void so that
// the collective stores nothing) or another layout — is one more Fusion here, not another kernel.
//
// Limits (gram::sm90_evt_refusal, one line each): distances in TF32, outputs lower, condensed and mirror;
// the product X X^T in BF16 / FP16 (FP32 accumulation and output), mirror-written (issue #36 item 3);
// the fused reductions (hist, count, hist-exact, count-exact; issue #37): every precision, the node Reduction below;
// minmax: not yet; lower and mirror: N % 4 == 0 (TMA: 16-byte rows of D); no tile range. Compiled for sm_90a alone (meson: like gram_sm90.cu, where nvcc builds sm_90a and
// CUTLASS is found). Tuning runs on an H200: experiments/results/h200/logs/issue36_tuning/.
#pragma once
#include "gram.cuh"

#include <tdmaps/cutlass.hpp>

#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/epilogue/fusion/sm90_callbacks_tma_warpspecialized.hpp>
#include <cutlass/epilogue/thread/activation.h>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>

#include <string>

#if !defined(TDMAPS_CUTLASS_SM90)
#error "gram_sm90_evt.cu needs the CUTLASS 3 headers (tdmaps/cutlass.hpp defines TDMAPS_CUTLASS_SM90 with them)"
#endif

namespace gram {
namespace evt {
using namespace cute;
namespace fusion = cutlass::epilogue::fusion;

using TileShape = Shape<_128, _128, _32>;  // square (the scheduler's requirement); 32 TF32 = 128-byte k rows
// The operands as prepare() lays them out (Np x Kp, K-major) and the tile's k depth, by precision: TF32 (the
// distances) and the 16-bit types of the symmetric product (64 = 128-byte k rows).
template <Prec P> struct Operand;
template <> struct Operand<Prec::tf32> { using type = float; using tile = TileShape; };
template <> struct Operand<Prec::tf32x3> { using type = float; using tile = TileShape; };  // 3 d TF32 columns
template <> struct Operand<Prec::bf16> { using type = cutlass::bfloat16_t; using tile = Shape<_128, _128, _64>; };
template <> struct Operand<Prec::fp16> { using type = cutlass::half_t; using tile = Shape<_128, _128, _64>; };
using ClusterShape = Shape<_1, _1, _1>;
static_assert(size<0>(TileShape{}) == tile_side, "gram's tiles are 128 x 128");

// sqrt, element-wise (CUTLASS has no such functor; Sm90Compute takes a unary one on Array<T, N>).
// sqrt.approx (MUFU, relative error about 2^-23): the IEEE sqrtf's Newton step and slow-path branch made
// the lower-sqrt epilogue 1.8x slower than lower on an H200 (6.81 vs 3.81 ms, N = 65536, d = 128); the
// sqrt output's bound (gram_cpu.hpp: sqrt(c_P S) + 2^-23 d) is dominated by its first term anyway.
CUTLASS_DEVICE float sqrt_approx(float v) {
  float r;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}
template <class T> struct Sqrt {
  CUTLASS_DEVICE T operator()(T v) const { return sqrt_approx(v); }
};
template <class T, int N> struct Sqrt<cutlass::Array<T, N>> {
  CUTLASS_DEVICE cutlass::Array<T, N> operator()(cutlass::Array<T, N> const& v) const {
    cutlass::Array<T, N> r;
    CUTLASS_PRAGMA_UNROLL
    for (int k = 0; k < N; ++k) r[k] = sqrt_approx(v[k]);
    return r;
  }
};

// What every node of ours shares, written against CUTLASS's visitor interface (the members every Sm90 node
// has): its Params are its Arguments; no workspace, no producer load; shared memory Shared (none by default).
struct NoShared {};
template <class Args, class Shared = NoShared>
struct HostNode {
  using SharedStorage = Shared;
  using Arguments = Args;
  using Params = Args;
  template <class ProblemShape>
  static constexpr Params to_underlying_arguments(ProblemShape const&, Arguments const& a, void*) { return a; }
  template <class ProblemShape> static bool can_implement(ProblemShape const&, Arguments const& a) { return a.ok(); }
  template <class ProblemShape> static size_t get_workspace_size(ProblemShape const&, Arguments const&) { return 0; }
  template <class ProblemShape>
  static cutlass::Status initialize_workspace(ProblemShape const&, Arguments const&, void*, cudaStream_t,
                                              cutlass::CudaHostAdapter* = nullptr) {
    return cutlass::Status::kSuccess;
  }
  CUTLASS_HOST_DEVICE HostNode() {}
  CUTLASS_HOST_DEVICE HostNode(Params const& p, SharedStorage const&) : params(p) {}
  Params params;
  CUTLASS_DEVICE bool is_producer_load_needed() const { return false; }
  CUTLASS_DEVICE bool is_C_load_needed() const { return false; }
  template <class... A> CUTLASS_DEVICE auto get_producer_load_callbacks(fusion::detail::ProducerLoadArgs<A...> const&) {
    return fusion::detail::EmptyProducerLoadCallbacks{};
  }
  // this thread's cells of the tile, absolute (i, j, l): (CPY, CPY_M, CPY_N, EPI_M, EPI_N)
  template <bool ReferenceSrc, class... A>
  static CUTLASS_DEVICE auto cells(fusion::detail::ConsumerStoreArgs<A...> const& args) {
    auto [M, N, K, L] = args.problem_shape_mnkl;
    return fusion::detail::sm90_partition_for_epilogue<ReferenceSrc>(
        make_identity_tensor(make_shape(int(M), int(N), int(L))), args.tile_shape_mnk, args.tile_coord_mnkl,
        args.epi_tile, args.tiled_copy, args.thread_idx);
  }
};

// The EVT node of the diagonal tiles (I == J; a node with one child: out = child elsewhere).
//   keep_above (lower): a cell j > i inside the problem takes D's value before the launch (read back),
//     so that the whole-box TMA store leaves the contents above the diagonal as they were;
//   zero_diagonal (mirror): the cells i == j are 0 (a point's distance to itself; the Gram form's
//     n_i + n_i - 2 x_i.x_i is not 0 in floating point).
enum class DiagonalFix { keep_above, zero_diagonal };
struct DiagonalArgs {
  float const* ptr_d = nullptr;  // keep_above: D, row-major
  int64_t ld = 0;
  bool need_d = false;
  bool ok() const { return !need_d || ptr_d != nullptr; }
};
template <DiagonalFix Fix>
struct DiagonalTile : HostNode<DiagonalArgs> {
  using HostNode<DiagonalArgs>::HostNode;
  template <class CTensor>
  struct ConsumerStoreCallbacks : fusion::detail::EmptyConsumerStoreCallbacks {
    CUTLASS_DEVICE ConsumerStoreCallbacks(CTensor c, bool d, int m, int n, DiagonalArgs const& p)
        : tCc(c), diag(d), M(m), N(n), params(p) {}
    CTensor tCc;
    bool diag;
    int M, N;
    DiagonalArgs const& params;

    template <class ElementAccumulator, class ElementInput, int FragmentSize>
    CUTLASS_DEVICE cutlass::Array<ElementInput, FragmentSize> visit(
        cutlass::Array<ElementAccumulator, FragmentSize> const&, int epi_v, int epi_m, int epi_n,
        cutlass::Array<ElementInput, FragmentSize> const& in) {
      cutlass::Array<ElementInput, FragmentSize> out = in;
      if (diag) {
        Tensor c = tCc(_, _, _, epi_m, epi_n);
        CUTLASS_PRAGMA_UNROLL
        for (int k = 0; k < FragmentSize; ++k) {
          const auto x = c(epi_v * FragmentSize + k);
          const int i = int(get<0>(x)), j = int(get<1>(x));
          if constexpr (Fix == DiagonalFix::keep_above) {
            if (j > i && i < M && j < N) out[k] = params.ptr_d[int64_t(i) * params.ld + j];
          } else {
            if (i == j) out[k] = ElementInput(0);
          }
        }
      }
      return out;
    }
  };
  template <bool ReferenceSrc, class... A>
  CUTLASS_DEVICE auto get_consumer_store_callbacks(fusion::detail::ConsumerStoreArgs<A...> const& args) {
    auto tCc = HostNode<DiagonalArgs>::template cells<ReferenceSrc>(args);
    auto [m, n, k, l] = args.tile_coord_mnkl;
    auto [M, N, K, L] = args.problem_shape_mnkl;
    return ConsumerStoreCallbacks<decltype(tCc)>(tCc, int(m) == int(n), int(M), int(N), this->params);
  }
};

// The condensed output (pdist order) as the tree's last node, with no D (the collective's ElementD is void,
// so it stores nothing and keeps no shared memory for D): each cell i > j of the lower tiles goes straight
// from the registers to its place in the condensed vector of the pairs a < b, a = j, b = i (SciPy's order):
//   k(a, b) = a N - a (a + 1) / 2 + (b - a - 1).
// Down a tile column (one j, consecutive i) the places are consecutive: a warp's store covers 8 rows of
// 4 columns of the wgmma accumulator, 4 runs of 32 contiguous bytes (the rows of the condensed vector are
// not 16-byte aligned, which rules out TMA). Diagonal tiles and the edge: only i > j, i < N are stored.
// Measured against two staged versions on an H200 (experiments/results/h200/logs/issue36_condensed/): each
// subtile staged column-major in shared memory, its runs shifted to their global alignment, then (7026690)
// one bulk asynchronous copy a run (cp.async.bulk) — 2.2x slower — or (31f78e2) 16-byte stores of each
// run's aligned middle by a half-warp — 1.2-1.3x slower than these stores from the registers.
struct CondensedArgs {
  float* ptr = nullptr;  // N (N - 1) / 2 floats
  int64_t N = 0;
  bool ok() const { return ptr != nullptr && N > 0; }
};
struct CondensedStore : HostNode<CondensedArgs> {
  using HostNode<CondensedArgs>::HostNode;
  using ElementAux = float;  // the collective's register / shared-memory element type with ElementD void
  template <class CTensor>
  struct ConsumerStoreCallbacks : fusion::detail::EmptyConsumerStoreCallbacks {
    CUTLASS_DEVICE ConsumerStoreCallbacks(CTensor c, int m, CondensedArgs const& p) : tCc(c), M(m), params(p) {}
    CTensor tCc;
    int M;
    CondensedArgs const& params;

    template <class ElementAccumulator, class ElementInput, int FragmentSize>
    CUTLASS_DEVICE cutlass::Array<ElementInput, FragmentSize> visit(
        cutlass::Array<ElementAccumulator, FragmentSize> const&, int epi_v, int epi_m, int epi_n,
        cutlass::Array<ElementInput, FragmentSize> const& in) {
      Tensor c = tCc(_, _, _, epi_m, epi_n);
      const int64_t N = params.N;
      CUTLASS_PRAGMA_UNROLL
      for (int k = 0; k < FragmentSize; ++k) {
        const auto x = c(epi_v * FragmentSize + k);
        const int i = int(get<0>(x)), j = int(get<1>(x));
        if (j < i && i < M) params.ptr[condensed_index(N, j, i)] = float(in[k]);
      }
      return in;
    }
  };
  template <bool ReferenceSrc, class... A>
  CUTLASS_DEVICE auto get_consumer_store_callbacks(fusion::detail::ConsumerStoreArgs<A...> const& args) {
    auto tCc = HostNode<CondensedArgs>::template cells<ReferenceSrc>(args);
    auto [M, N, K, L] = args.problem_shape_mnkl;
    return ConsumerStoreCallbacks<decltype(tCc)>(tCc, int(M), this->params);
  }
};
using KeepAboveDiagonal = DiagonalTile<DiagonalFix::keep_above>;
using ZeroDiagonal = DiagonalTile<DiagonalFix::zero_diagonal>;

// The distance tree: ReLu(fma(-2, acc, n_i + n_j)) [, Sqrt] [, KeepAboveDiagonal].
using RoundStyle = cutlass::FloatRoundStyle;
constexpr RoundStyle rn = cutlass::FloatRoundStyle::round_to_nearest;
using NormI = fusion::Sm90ColBroadcast<0, TileShape, float, float, Stride<_1, _0, int64_t>>;  // n_i: a value a row
using NormJ = fusion::Sm90RowBroadcast<0, TileShape, float, float, Stride<_0, _1, int64_t>>;  // n_j: a value a column
using NormSum = fusion::Sm90EVT<fusion::Sm90Compute<cutlass::plus, float, float, rn>, NormI, NormJ>;
using Gram2 = fusion::Sm90EVT<fusion::Sm90Compute<cutlass::homogeneous_multiply_add, float, float, rn>,
                              fusion::Sm90ScalarBroadcast<float>, fusion::Sm90AccFetch, NormSum>;  // -2 acc + (n_i + n_j)
using D2 = fusion::Sm90EVT<fusion::Sm90Compute<cutlass::epilogue::thread::ReLu, float, float, rn>, Gram2>;
using D1 = fusion::Sm90EVT<fusion::Sm90Compute<Sqrt, float, float, rn>, D2>;
template <bool Sq> using Dist = cute::conditional_t<Sq, D1, D2>;
// The outputs as fusions:
//   lower     Dist [, KeepAboveDiagonal]         D row-major: tile (I, J) at (I, J)
//   mirror    AuxStore^T(ZeroDiagonal(Dist))     the same tile also at (J, I), by a second TMA store of the
//             fragment into an M-major (column-major) view of D: (i, j) lands at i + j N, the transpose's
//             place. In a diagonal tile both stores write the whole box, with the same bits: x_i.x_j and
//             x_j.x_i are the same exact TF32 products summed in the same order, and n_i + n_j commutes
//             (bench_gram checks the output bit-symmetric).
// lower_all: CUTLASS's scheduler, every cell (full-sm90-evt); mirror_product: X X^T itself, mirror-written
enum class Output { lower, lower_all, mirror, condensed, mirror_product };
template <bool Sq, Output O> struct FusionOf;
template <bool Sq> struct FusionOf<Sq, Output::lower_all> { using type = Dist<Sq>; };
template <bool Sq> struct FusionOf<Sq, Output::lower> { using type = fusion::Sm90EVT<KeepAboveDiagonal, Dist<Sq>>; };
template <bool Sq> struct FusionOf<Sq, Output::condensed> { using type = fusion::Sm90EVT<CondensedStore, Dist<Sq>>; };

// The epilogue's configuration (issue #36: the stores in flight decide the write-bound kernel's speed).
// Ping-pong (the default) or cooperative (-DTDMAPS_GRAM_EVT_COOPERATIVE=1: both consumer warp groups on
// one tile, m64 each, the epilogue not under a mainloop; no drain of the stores between tiles, which
// ping-pong's store_tail does): compared on an H200 in experiments/results/h200/logs/issue36_evt/.
// Epilogue subtile (64 or 128 rows: ping-pong / cooperative) x TDMAPS_GRAM_EVT_EPI_N columns, and
// TDMAPS_GRAM_EVT_STAGES_D of them in shared memory (the TMA stores in flight); 0: CUTLASS's builder's
// choice (32 columns; 2 stages). 64 x 64, 2 stages (the default): 3-7 % faster than the builder's 64 x 32
// at every size of the issue; deeper stages and the cooperative kernel slower
// (experiments/results/h200/logs/issue36_tuning/).
// The scheduler's band (tdmaps/cutlass.hpp LowerTriangleScheduler<M, Band>): tile rows a band. 8: the
// tiles in flight share their operand panels; against the map's row order (1) it cut the DRAM bytes read
// at N = 65536, d = 128 from 3.6 to 1.1-2.0 GB (L2 hits 80 % -> 90-94 %) and the time by 12 % (lower) and
// 7-17 % (mirror); 4 and 16 were between (issue36_tuning/run3).
#ifndef TDMAPS_GRAM_EVT_BAND
#define TDMAPS_GRAM_EVT_BAND 8
#endif
#ifndef TDMAPS_GRAM_EVT_COOPERATIVE
#define TDMAPS_GRAM_EVT_COOPERATIVE 0
#endif
#ifndef TDMAPS_GRAM_EVT_EPI_N
#define TDMAPS_GRAM_EVT_EPI_N 64
#endif
#ifndef TDMAPS_GRAM_EVT_STAGES_D
#define TDMAPS_GRAM_EVT_STAGES_D 0
#endif
#ifndef TDMAPS_GRAM_EVT_MIRROR_STAGES_D  // mirror: two buffers a stage (D and its transpose)
#define TDMAPS_GRAM_EVT_MIRROR_STAGES_D 0
#endif
// The condensed output's kernel (its epilogue stores from the registers, 4 bytes a cell, and binds: ncu in
// experiments/results/h200/logs/issue36_condensed/): cooperative (both consumer warp groups in each tile's
// epilogue) with -DTDMAPS_GRAM_EVT_CONDENSED_COOPERATIVE=1 (the default), ping-pong with 0.
#ifndef TDMAPS_GRAM_EVT_CONDENSED_COOPERATIVE
#define TDMAPS_GRAM_EVT_CONDENSED_COOPERATIVE 1
#endif
constexpr bool cooperative = TDMAPS_GRAM_EVT_COOPERATIVE != 0;
constexpr bool condensed_cooperative = TDMAPS_GRAM_EVT_CONDENSED_COOPERATIVE != 0;
// The kernel schedule and the epilogue's subtiles and policy, ping-pong or cooperative.
template <bool Coop>
struct KernelShape {
  using KSched = cute::conditional_t<Coop, cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                                     cutlass::gemm::KernelTmaWarpSpecializedPingpong>;
  using EpiTile = Shape<Int<Coop ? 128 : 64>, Int<TDMAPS_GRAM_EVT_EPI_N == 0 ? 32 : TDMAPS_GRAM_EVT_EPI_N>>;
  static constexpr int epi_subtiles = tile_side * tile_side / int(size(EpiTile{}));
  static constexpr int builders_stages_d = epi_subtiles < 2 ? epi_subtiles : 2;
  // (StagesC: no C is read; FragmentSize: the subtile's cells a thread; no smem reuse; delayed TMA stores,
  // as the builder sets them without C)
  template <int StagesD>
  using EpiPolicy = cutlass::epilogue::Sm90TmaWarpSpecialized<(epi_subtiles < 4 ? epi_subtiles : 4), StagesD,
                                                              int(size(EpiTile{})) / (Coop ? 256 : 128), false, true>;
};
using EpiTile = typename KernelShape<cooperative>::EpiTile;
constexpr int builders_stages_d = KernelShape<cooperative>::builders_stages_d;
constexpr int stages_d = TDMAPS_GRAM_EVT_STAGES_D == 0 ? builders_stages_d : TDMAPS_GRAM_EVT_STAGES_D;
constexpr int mirror_stages_d = TDMAPS_GRAM_EVT_MIRROR_STAGES_D == 0 ? builders_stages_d : TDMAPS_GRAM_EVT_MIRROR_STAGES_D;

using MirrorStride = Stride<_1, int64_t, int64_t>;  // (i, j, l) at i + j N + l N^2
using MirrorStore = fusion::Sm90AuxStore<
    mirror_stages_d, EpiTile, float, rn, MirrorStride,
    decltype(cutlass::epilogue::collective::detail::sm90_get_epilogue_smem_swizzle_layout_atom<MirrorStride, float, EpiTile>()),
    decltype(cutlass::epilogue::collective::detail::sm90_get_smem_store_op_for_accumulator<MirrorStride, float, EpiTile>()),
    4>;
template <bool Sq> struct FusionOf<Sq, Output::mirror> {
  using type = fusion::Sm90EVT<MirrorStore, fusion::Sm90EVT<ZeroDiagonal, Dist<Sq>>>;
};
// the symmetric product (issue #36 item 3: BF16 / FP16 operands, FP32 accumulation and output): the
// accumulator itself, stored at (I, J) and, transposed, at (J, I); the diagonal is x_i.x_i
template <bool Sq> struct FusionOf<Sq, Output::mirror_product> { using type = fusion::Sm90EVT<MirrorStore, fusion::Sm90AccFetch>; };

// The kernel of a fusion: stock GemmUniversal, D = fusion(X X^T) row-major, no C; the epilogue collective
// as CUTLASS's builder makes it (Sm90TmaBuilderImpl), with the policy above.
template <class Scheduler, class Fusion, int StagesD, class ElementD = float, Prec P = Prec::tf32, bool Coop = cooperative>
struct GemmOf {
  using Shape_ = KernelShape<Coop>;
  using Element = typename Operand<P>::type;
  using Tile = typename Operand<P>::tile;
  static constexpr int align = 16 / int(sizeof(Element));  // TMA: 16-byte rows
  using Epilogue = typename cutlass::epilogue::collective::detail::Sm90TmaBuilderImpl<
      Tile, typename Shape_::EpiTile, float, float,  // accumulator, compute
      void, cutlass::layout::RowMajor, 4,  // no C
      ElementD, cutlass::layout::RowMajor, 4,  // D (void: no D, the fusion stores)
      Fusion, typename Shape_::template EpiPolicy<StagesD>>::CollectiveOp;
  using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Element, cutlass::layout::RowMajor, align,  // A = X (K-major)
      Element, cutlass::layout::ColumnMajor, align,                                                    // B = X^T
      float, Tile, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<int(sizeof(typename Epilogue::SharedStorage))>,
      typename Shape_::KSched>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue, Scheduler>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};

// The fusion's arguments (nested as the tree: children first, the node last).
template <bool Sq> typename Dist<Sq>::Arguments dist_args(const float* norms) {
  typename D2::Arguments d2{
      {                                               // Gram2
       {{-2.0f}},                                     //   the scalar -2
       {},                                            //   acc
       {{norms, 0.0f, {_1{}, _0{}, 0}},               //   NormSum: n_i
        {norms, 0.0f, {_0{}, _1{}, 0}},               //            n_j
        {}},                                          //            plus
       {}},                                           //   fma
      {}};                                            // ReLu
  if constexpr (Sq) return typename D1::Arguments{d2, {}};
  else return d2;
}

// One launch of the kernel G (GemmOf) with the fusion's arguments `thread` and D (null without one). The kernel's
// Params (the TMA descriptors, the scheduler's plan) are built for each call: no state is kept between calls (any
// thread, device or stream may call). B: the operands' second matrix (== A but for 3xTF32).
template <class G, class Scheduler>
cudaError_t run_fusion(const Prepared& o, const typename G::Epilogue::FusionCallbacks::Arguments& thread, float* ptr_D,
                       cudaStream_t s) {
  using Element = typename G::Element;
  using K = typename G::Kernel;
  using Gemm = typename G::Gemm;
  int dev = 0;
  if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  Gemm gemm;
  typename Gemm::Arguments args{};
  args.mode = cutlass::gemm::GemmUniversalMode::kGemm;
  args.problem_shape = {int(o.N), int(o.N), int(o.Kp), 1};  // operands Np x Kp, zero-padded; TMA reads N rows
  typename K::StrideA sa{};
  typename K::StrideB sb{};
  typename K::StrideD sd{};
  get<0>(sa) = o.Kp;
  get<0>(sb) = o.Kp;
  get<0>(sd) = o.N;
  args.mainloop.ptr_A = static_cast<const Element*>(o.A);
  args.mainloop.dA = sa;
  args.mainloop.ptr_B = static_cast<const Element*>(o.B);
  args.mainloop.dB = sb;
  args.epilogue.thread = thread;
  args.epilogue.ptr_C = nullptr;
  args.epilogue.ptr_D = ptr_D;
  args.epilogue.dD = sd;
  args.hw_info.device_id = dev;
  if (const cudaError_t e = cudaDeviceGetAttribute(&args.hw_info.sm_count, cudaDevAttrMultiProcessorCount, dev);
      e != cudaSuccess)
    return e;
  if constexpr (!std::is_same_v<Scheduler, void>) {
    if (!tdmaps::cutlass_tiles::lower_triangle_refusal(args.problem_shape).empty()) return cudaErrorInvalidValue;
  }
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) return cudaErrorInvalidValue;
  if (Gemm::get_workspace_size(args) != 0) return cudaErrorInvalidValue;  // neither scheduler needs one here
  if (gemm.initialize(args, nullptr, s) != cutlass::Status::kSuccess) return cudaErrorInvalidValue;
  if (gemm.run(s) != cutlass::Status::kSuccess) {
    const cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaErrorLaunchFailure;
  }
  return cudaGetLastError();
}

// One launch of a stored output.
template <class Scheduler, bool Sq, Output O, Prec P = Prec::tf32>
cudaError_t run_gemm(const Prepared& o, const Request& r, cudaStream_t s) {
  constexpr bool mirrored = O == Output::mirror || O == Output::mirror_product;
  using G = GemmOf<Scheduler, typename FusionOf<Sq, O>::type, mirrored ? mirror_stages_d : stages_d,
                   cute::conditional_t<O == Output::condensed, void, float>, P,
                   O == Output::condensed ? condensed_cooperative : cooperative>;
  typename G::Epilogue::FusionCallbacks::Arguments thread{};
  if constexpr (O == Output::lower) thread = {dist_args<Sq>(o.norms), {r.dst, int64_t(o.N), true}};
  else if constexpr (O == Output::condensed) thread = {dist_args<Sq>(o.norms), {r.dst, int64_t(o.N)}};
  else if constexpr (O == Output::mirror)
    thread = {{dist_args<Sq>(o.norms), {}}, {r.dst, {_1{}, int64_t(o.N), int64_t(o.N) * o.N}}};
  else if constexpr (O == Output::mirror_product) thread = {{}, {r.dst, {_1{}, int64_t(o.N), int64_t(o.N) * o.N}}};
  else thread = dist_args<Sq>(o.norms);
  return run_fusion<G, Scheduler>(o, thread, O == Output::condensed ? nullptr : r.dst, s);
}

// ---- The fused reductions (issue #37 item 1): hist, count and their exact modes as the tree's root ----
// Reduction<O, Threads>(acc, n_i, n_j): no D (the collective's ElementD is void: it stores nothing and keeps no shared
// memory for D). Each cell i > j of the lower tiles is one pair, counted by the arithmetic every kernel of ours runs
// (gram_epilogue.cuh: squared_distance, bucket_of; the exact mode's hist_bracket, eps_bracket) into the node's shared memory: the histogram's hist_copies
// interleaved copies, or count's per-row and per-column counts of the tile and its total. At the tile's end() the
// shared counts go to global memory (an atomic a nonzero bucket, row or column) and are zeroed by the thread that
// read them; the node's first tile zeroes them first (shared memory starts undefined).
//   Threads: the team of a tile's epilogue (ping-pong: its warp group, 128; cooperative: both, 256). Ping-pong's
//   two warp groups share the node's shared memory: CUTLASS runs their epilogues one after the other (its math
//   order barrier), so a tile's counts are flushed before the other group's tile counts into it.
//   The barrier between a tile's pairs and its flush, and after the flush (the next tile's pairs), is hardware named
//   barrier 8 (CUTLASS's first user barrier) over the team (CUTLASS's own epilogue uses EpilogueBarrier, 1).
// The exact mode's replay list is appended a warp at a time (every lane visits every fragment together).
struct ReductionArgs {
  gram::Params p;  // gram::Params (params_of): norms, N, the output's pointers and constants
  bool ok() const { return p.norms != nullptr && p.N > 0; }
};
template <Out O> struct ReductionShared {
  alignas(16) u32 cells[epi::smem_bytes<O, epi::Stores::registers>() / 4];
};
template <Out O, int Threads>
struct Reduction : HostNode<ReductionArgs, ReductionShared<O>> {
  static_assert(O == Out::hist || O == Out::hist_exact || O == Out::count || O == Out::count_exact, "a reduction");
  static constexpr bool hist = O == Out::hist || O == Out::hist_exact;
  static constexpr bool exact = O == Out::hist_exact || O == Out::count_exact;
  using Base = HostNode<ReductionArgs, ReductionShared<O>>;
  using ElementAux = float;  // the collective's register / shared-memory element type with ElementD void
  CUTLASS_HOST_DEVICE Reduction() {}
  CUTLASS_HOST_DEVICE Reduction(typename Base::Params const& a, ReductionShared<O> const& sh)
      : Base(a, sh), smem(const_cast<u32*>(sh.cells)) {}
  u32* smem = nullptr;
  bool started = false;  // this thread's first tile zeroes the shared counts

  // CUTLASS's user interface: user barrier 0 is hardware barrier ReservedNamedBarrierCount (8), the first one CUTLASS
  // leaves to its users. (Until 0de7bf1 this passed int(FirstUserBarrier), which that interface offsets again: the
  // out-of-range bar.sync 16, undefined in PTX; it ran correctly on the H200, calls 41-45, but nothing promised it.)
  static CUTLASS_DEVICE void team_sync() { cutlass::arch::NamedBarrier::sync(Threads, 0); }

  template <class CTensor>
  struct ConsumerStoreCallbacks : fusion::detail::EmptyConsumerStoreCallbacks {
    CUTLASS_DEVICE ConsumerStoreCallbacks(CTensor c, gram::Params const& p_, u32* sh_, int m, int n, bool first_, int tid_)
        : tCc(c), p(p_), sh(sh_), r0(int64_t(m) * tile_side), c0(int64_t(n) * tile_side),
          fast(!exact && m != n && (int64_t(m) + 1) * tile_side <= p_.N), first(first_), tid(tid_) {}
    CTensor tCc;
    gram::Params const& p;
    u32* sh;
    int64_t r0, c0;
    bool fast;   // every cell of the tile is a pair i > j (off the diagonal, inside N): no test a cell
    bool first;
    int tid;
    u32 mine = 0;  // count: this thread's pairs within eps in the tile

    static constexpr int words() { return hist ? hist_max_buckets * epi::hist_copies : 2 * tile_side + 1; }
    CUTLASS_DEVICE void begin() {
      if (first)
        for (int k = tid; k < words(); k += Threads) sh[k] = 0;
    }
    CUTLASS_DEVICE bool begin_sync_needed() const { return first; }  // the collective's barrier over the team

    template <class ElementAccumulator, int F>
    CUTLASS_DEVICE cutlass::Array<float, F> visit(cutlass::Array<ElementAccumulator, F> const&, int epi_v, int epi_m,
                                                  int epi_n, cutlass::Array<float, F> const& dot,
                                                  cutlass::Array<float, F> const& ni, cutlass::Array<float, F> const& nj) {
      Tensor c = tCc(_, _, _, epi_m, epi_n);
      const int lane = tid % 32;
      CUTLASS_PRAGMA_UNROLL
      for (int k = 0; k < F; ++k) {
        const auto x = c(epi_v * F + k);
        const int64_t i = int64_t(get<0>(x)), j = int64_t(get<1>(x));
        const bool below = fast || (i < p.N && j < i);
        // the pair's count, added unconditionally (0 where it does not count): no branch a pair, so that the
        // compiler interleaves the pairs' latencies across the fragment. This epilogue's warps are few (ping-pong:
        // 4 an SM; cooperative: 8); with a conditional add of 1 (our epilogue's form, a warp-converged
        // ATOMS.POPC.INC in a branch a pair) the ping-pong hist took 2.37 s at N = 10^6, d = 128, unconditional
        // 1.75 s (calls 41, 42). Our epilogue keeps the conditional add: unconditional, sm90-ws's count took
        // 1.96 s against 1.24 s (call 42), the adds of the pairs outside eps for nothing.
        u32 at = 0, in = 0;
        if constexpr (O == Out::hist) {
          const u32 b = bucket_of(epi::approx_distance(epi::squared_distance(ni[k], nj[k], dot[k])), p);
          in = below && b < u32(p.buckets);
          at = b;
        } else if constexpr (O == Out::hist_exact) {
          const epi::HistBracket h = epi::hist_bracket(p, ni[k], nj[k], dot[k]);
          const bool sure = h.sure(), none = h.none(p);
          in = below && sure && !none;
          at = u32(h.lo);
          epi::replay_append(p, below && !sure && !none, i, j, epi::Team<Threads>{tid});
        } else if constexpr (O == Out::count) {
          in = below && epi::squared_distance(ni[k], nj[k], dot[k]) <= p.eps2;
        } else {
          const epi::EpsBracket e = epi::eps_bracket(p, ni[k], nj[k], dot[k]);
          in = below && e.within;
          epi::replay_append(p, below && !e.within && !e.outside, i, j, epi::Team<Threads>{tid});
        }
        if constexpr (hist) {
          atomicAdd(&sh[(in ? at : 0u) * epi::hist_copies + lane % epi::hist_copies], in);
        } else {
          atomicAdd(&sh[i - r0], in);
          atomicAdd(&sh[tile_side + (j - c0)], in);
          mine += in;
        }
      }
      return dot;
    }

    CUTLASS_DEVICE void end() {
      if constexpr (!hist) {
        for (int o = 16; o > 0; o /= 2) mine += __shfl_down_sync(0xffffffffu, mine, o);
        if (tid % 32 == 0 && mine) atomicAdd(&sh[2 * tile_side], mine);
      }
      team_sync();  // every pair of the tile counted
      if constexpr (hist) {
        for (int b = tid; b < p.buckets; b += Threads) {
          u32 s = 0;
          for (int w = 0; w < epi::hist_copies; ++w) {
            u32& x = sh[b * epi::hist_copies + ((w + b) & (epi::hist_copies - 1))];
            s += x;
            x = 0;
          }
          if (s) atomicAdd(&p.hist[b], (unsigned long long)s);
        }
      } else {
        for (int k = tid; k < 2 * tile_side + 1; k += Threads) {
          const u32 v = sh[k];
          sh[k] = 0;
          if (v == 0) continue;
          if (k == 2 * tile_side) {
            atomicAdd(p.total, (unsigned long long)v);
          } else {
            const int64_t pt = k < tile_side ? r0 + k : c0 + (k - tile_side);
            if (pt < p.N) atomicAdd(&p.counts[pt], v);
          }
        }
      }
      team_sync();  // flushed and zeroed before the next tile's pairs
    }
  };
  template <bool ReferenceSrc, class... A>
  CUTLASS_DEVICE auto get_consumer_store_callbacks(fusion::detail::ConsumerStoreArgs<A...> const& args) {
    auto tCc = Base::template cells<ReferenceSrc>(args);
    auto [m, n, k, l] = args.tile_coord_mnkl;
    const bool first = !started;
    started = true;
    return ConsumerStoreCallbacks<decltype(tCc)>(tCc, this->params.p, smem, int(m), int(n), first, args.thread_idx);
  }
};
// The reductions' tree: Reduction(acc, n_i, n_j), the norms by CUTLASS's broadcast nodes (as the distance tree's).
template <Out O, int Threads, class Tile>
using ReductionTree = fusion::Sm90EVT<Reduction<O, Threads>, fusion::Sm90AccFetch,
                                      fusion::Sm90ColBroadcast<0, Tile, float, float, Stride<_1, _0, int64_t>>,
                                      fusion::Sm90RowBroadcast<0, Tile, float, float, Stride<_0, _1, int64_t>>>;
// Cooperative (both consumer warp groups in each tile's epilogue, 8 warps) by default; ping-pong (one warp group's
// epilogue under the other's mainloop, 4 warps) with -DTDMAPS_GRAM_EVT_REDUCE_COOPERATIVE=0. On an H200 at N = 10^6,
// d = 128, TF32 (call 42, one run): hist 1.61 s cooperative, 1.75 s ping-pong; count 1.61 s and 1.71 s
// (experiments/results/h200/logs/issue37_evt/).
#ifndef TDMAPS_GRAM_EVT_REDUCE_COOPERATIVE
#define TDMAPS_GRAM_EVT_REDUCE_COOPERATIVE 1
#endif
constexpr bool reduce_cooperative = TDMAPS_GRAM_EVT_REDUCE_COOPERATIVE != 0;

// One launch of reduction O in precision P over the lower tiles (the tdmaps scheduler), with the Params of
// params_of (gram_launch.cuh). The exact mode's replay follows it (run_sm90_evt_reduce).
template <Out O, Prec P, class Scheduler>
cudaError_t run_reduction(const Prepared& o, const gram::Params& p, cudaStream_t s) {
  constexpr int team = reduce_cooperative ? 256 : 128;
  using Tile = typename Operand<P>::tile;
  using G = GemmOf<Scheduler, ReductionTree<O, team, Tile>, stages_d, void, P, reduce_cooperative>;
  static_assert(team == int(size(typename G::Kernel::TiledMma{})), "the node's team is the kernel's epilogue threads");
  typename G::Epilogue::FusionCallbacks::Arguments thread{
      {}, {o.norms, 0.0f, {_1{}, _0{}, 0}}, {o.norms, 0.0f, {_0{}, _1{}, 0}}, {p}};
  return run_fusion<G, Scheduler>(o, thread, nullptr, s);
}
}  // namespace evt
}  // namespace gram
