// src/support/gram/gram_config.cuh — the kernels' configuration (issue #36 item 4: one file per concern): the CuTe/CUTLASS
// configuration of each input precision, the padded operand shapes, the kernels' parameters (Params) and
// the histogram's bucket. Part of gram.cuh (its header says what the kernels compute).
#pragma once
#include "gram_api.hpp"
#include <tdmaps/tiles.hpp>

#include <cute/tensor.hpp>
#include <cutlass/numeric_types.h>
#include <cutlass/gemm/dispatch_policy.hpp>
#include <cutlass/gemm/collective/collective_mma.hpp>
#include <cute/arch/copy_sm90_tma.hpp>

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace gram {


using tdmaps::u32;
using tdmaps::u64;

constexpr int threads = 128;            // the classic kernel: 2 x 2 warps
constexpr int hist_max_buckets = 1024;  // the fused histogram's buckets (its shared copies: gram_epilogue.cuh)

namespace cfg {
using namespace cute;
// The CuTe configuration of each input type: a 128x128 tile, 4 warps (2x2) of mma.sync,
// K-major operands in swizzled shared memory loaded by ldmatrix, cp.async from global.
template <Prec P> struct Config;
template <> struct Config<Prec::tf32> {
  using Element = cutlass::tfloat32_t;
  using TileShape = Shape<_128, _128, _32>;
  static constexpr int stages = 2;
  using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _1>>,
                            Tile<_32, _32, _8>>;
  using SmemLayoutAtom = decltype(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}));
  using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, Element>;
  using GmemTiledCopy = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, Element>{},
                                                 Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _4>>{}));
};
template <> struct Config<Prec::tf32x3> : Config<Prec::tf32> {};
template <class E, class Atom> struct Config16 {
  using Element = E;
  using TileShape = Shape<_128, _128, _64>;
  static constexpr int stages = 2;
  using TiledMma = TiledMMA<MMA_Atom<Atom>, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _1>>, Tile<_32, _32, _16>>;
  using SmemLayoutAtom = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}));
  using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, Element>;
  using GmemTiledCopy = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, Element>{},
                                                 Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}));
};
template <> struct Config<Prec::bf16> : Config16<cutlass::bfloat16_t, SM80_16x8x16_F32BF16BF16F32_TN> {};
template <> struct Config<Prec::fp16> : Config16<cutlass::half_t, SM80_16x8x16_F32F16F16F32_TN> {};

// The 8-warp configuration (kernel sm80-8w, issue #27's way out (a)): the same 128x128 tile on
// 8 warps (4 x 2, a 32 x 64 warp tile: 64 accumulators a thread) with half-deep k-tiles (16 TF32
// or 32 16-bit values: 64-byte rows, Swizzle<2,*,3>), so that the operand fragments of a k-tile
// are half as many and 128 registers (two blocks, 16 warps an SM) may hold a thread.
template <Prec P> struct Config8;
template <> struct Config8<Prec::tf32> {
  using Element = cutlass::tfloat32_t;
  using TileShape = Shape<_128, _128, _16>;
  using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_4, _2, _1>, Stride<_2, _1, _1>>,
                            Tile<_64, _32, _8>>;
  using SmemLayoutAtom = decltype(composition(Swizzle<2, 2, 3>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}));
  using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, Element>;
  using GmemTiledCopy = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, Element>{},
                                                 Layout<Shape<_64, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _4>>{}));
};
template <> struct Config8<Prec::tf32x3> : Config8<Prec::tf32> {};
template <class E, class Atom> struct Config8x16 {
  using Element = E;
  using TileShape = Shape<_128, _128, _32>;
  using TiledMma = TiledMMA<MMA_Atom<Atom>, Layout<Shape<_4, _2, _1>, Stride<_2, _1, _1>>, Tile<_64, _32, _16>>;
  using SmemLayoutAtom = decltype(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}));
  using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, Element>;
  using GmemTiledCopy = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, Element>{},
                                                 Layout<Shape<_64, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{}));
};
template <> struct Config8<Prec::bf16> : Config8x16<cutlass::bfloat16_t, SM80_16x8x16_F32BF16BF16F32_TN> {};
template <> struct Config8<Prec::fp16> : Config8x16<cutlass::half_t, SM80_16x8x16_F32F16F16F32_TN> {};

// CUTLASS's SM80 collective mainloop of a configuration C with `Stages` stages.
template <class C_, int Stages> struct MainloopOf {
  using C = C_;
  using Stride = cute::Stride<int64_t, _1, int64_t>;
  using type = cutlass::gemm::collective::CollectiveMma<
      cutlass::gemm::MainloopSm80CpAsyncUnpredicated<Stages>, typename C::TileShape, typename C::Element, Stride,
      typename C::Element, Stride, typename C::TiledMma, typename C::GmemTiledCopy, typename C::SmemLayoutAtom,
      typename C::SmemCopyAtom, cute::identity, typename C::GmemTiledCopy, typename C::SmemLayoutAtom,
      typename C::SmemCopyAtom, cute::identity>;
  static constexpr int smem_bytes = int(sizeof(typename type::SharedStorage));
  static constexpr int bk = int(cute::size<2>(typename C::TileShape{}));
};
template <Prec P, int Stages = Config<P>::stages> struct Mainloop : MainloopOf<Config<P>, Stages> {};
}  // namespace cfg

// Storage element of each precision's operands (tf32 is stored as float bits).
template <Prec P> using Storage = typename cfg::Config<P>::Element;
template <Prec P> constexpr int k_align() { return cfg::Mainloop<P>::bk; }
inline i64 round_up(i64 v, i64 m) { return (v + m - 1) / m * m; }
inline i64 padded_rows(i64 N) { return round_up(N, tile_side); }
template <Prec P> inline i64 padded_k(i64 d) { return round_up(P == Prec::tf32x3 ? 3 * d : d, k_align<P>()); }

struct Params {
  const void* A = nullptr;   // Np x Kp, K-major (the rows i of a tile)
  const void* B = nullptr;   // Np x Kp, K-major (the columns j); == A except for tf32x3
  const float* norms = nullptr;
  i64 N = 0, Kp = 0;
  float* out = nullptr;                // lower: N x N row-major (ld = N); condensed: N(N-1)/2
  unsigned long long* hist = nullptr;  // hist: `buckets` counters (u64)
  int buckets = 0;
  float inv_width = 0;                 // hist: 1 / bucket width (distances, not squares)
  float lo_scaled = 0;                 // hist: -lo / w (Request::lo)
  bool take_sqrt = false;
  bool product = false;                // lower / mirror: x_i.x_j itself (Request::product)
  unsigned* counts = nullptr;          // count: N counters
  unsigned long long* total = nullptr; // count: the pairs within eps
  float eps2 = 0;                      // count: d^2 <= eps2
  float* minmax = nullptr;             // minmax: {least, largest} distance (bits: atomics)
  // the exact mode (count_exact, hist_exact; params_of says why each margin holds)
  float bracket = 0;                   // a pair's |d2 - d2_exact| <= bracket * (|x_i|^2 + |x_j|^2), from the norms here
  float eps2_hi = 0;                   // count_exact: eps^2 rounded up (eps2: rounded down)
  float q_margin = 0;                  // hist_exact: the float error of a bucket coordinate (d - lo) / w, in buckets
  unsigned long long* replay = nullptr;    // the pairs (i << 32 | j) whose bracket straddles eps or an edge
  unsigned long long replay_cap = 0;
  unsigned long long* replay_n = nullptr;  // their number (past replay_cap: counted, not kept)
};

// The histogram's bucket of a distance: floor((dist - lo) / w) as one FFMA and a rounding down, so
// that below lo it is negative and (as an unsigned) fails the caller's b < buckets like past the last
// edge; the last edge is open (a caller wanting NumPy's closed last edge widens it by an ulp). The
// cost of the plain dist / w of lo = 0: the fused histogram is issue-bound in this loop.
__device__ __forceinline__ float bucket_coord(float dist, const Params& p) {  // (dist - lo) / w, one FFMA
  return fmaf(dist, p.inv_width, p.lo_scaled);
}
__device__ __forceinline__ u32 bucket_of(float dist, const Params& p) { return u32(__float2int_rd(bucket_coord(dist, p))); }
}  // namespace gram
