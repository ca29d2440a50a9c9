// src/support/gram/gram.cuh — pairwise squared distances and Gram matrices on the tensor cores, over
// the lower triangle of tiles only (issue #27). Needs CUTLASS/CuTe (nvidia-cutlass 4.2 headers).
//
// The mainloop is CUTLASS's own SM80 collective (cp.async multistage, CollectiveMma with
// MainloopSm80CpAsyncUnpredicated: mma.sync tensor cores; runs on sm_80 and up, Hopper
// included), configured with CuTe atoms below. The kernel around it is ours: its tile
// scheduler is a tdmaps map over the c x c tile grid (tiles.hpp: LTM-E at rho = 1 launches the
// c(c+1)/2 lower tiles; BB launches c x c and the blocks above the diagonal return at once,
// the "bb-grid" of the experiment), and its epilogue is fused:
//     d2(i, j) = |x_i|^2 + |x_j|^2 - 2 x_i.x_j, clamped at 0, optionally sqrt,
// written as the lower triangle (j <= i) of a row-major N x N, in condensed order (pdist:
// i < j, k = N i - i(i+1)/2 + j - i - 1), or added to a uniform histogram of distances (the
// pairs i > j; nothing of N^2 is written).
//
// The operands are prepared once (prepare(): O(N d)): X (N x d float, row-major) becomes a
// zero-padded K-major array of Np = ceil(N/128)*128 rows and Kp columns in the MMA's input
// type, so the mainloop never predicates; norms[i] = |x_i|^2 in float of the values the tensor
// cores see (so d2(i, i) = 0 up to the accumulation).
//   tf32    X rounded to TF32 (round to nearest, 10-bit mantissa), K = d
//   tf32x3  FP32-accurate: x = big + small (big = tf32(x), small = tf32(x - big)); the operands
//           are A = [small | big | big], B = [big | small | big] along K (K = 3d), so one GEMM
//           sums small.big + big.small + big.big, the three products of 3xTF32; norms from
//           float X
//   bf16 / fp16  X rounded to the 16-bit type, FP32 accumulation, K = d
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

constexpr int threads = 128;    // 2 x 2 warps
// The epilogue's staging rows: tile_ld floats a row (16-byte aligned rows; 136 = 8 mod 32 banks,
// so a warp's 8-byte fragment stores meet no bank conflict). A row holds the tile's 128 values
// shifted by up to 3 floats (its global start modulo 16 bytes, so that the bulk store is aligned).
constexpr int tile_ld = tile_side + 8;
constexpr int stage_rows = 64;          // rows staged at once (two passes a tile)
constexpr int hist_lanes = 32;          // the fused histogram: one copy per lane, interleaved
constexpr int hist_max_buckets = 1024;  // (bucket b of lane l at b * 32 + l: no bank or address conflict in a warp)
constexpr int hist_stages = 3;          // the fused histogram's mainloop stages (its smem: 96 KB + 128 KB)

namespace cfg {
using namespace cute;
// The CuTe configuration of each input type: a 128x128 tile, 4 warps (2x2) of mma.sync,
// K-major operands in swizzled shared memory loaded by ldmatrix, cp.async from global.
template <Prec P> struct Config;
template <> struct Config<Prec::tf32> {
  using Element = cutlass::tfloat32_t;
  using TileShape = Shape<_128, _128, _32>;
  static constexpr int stages = 2;  // lower / condensed (hist: hist_stages)
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
};

// The histogram's bucket of a distance: floor((dist - lo) / w) as one FFMA and a rounding down, so
// that below lo it is negative and (as an unsigned) fails the caller's b < buckets like past the last
// edge; the last edge is open (a caller wanting NumPy's closed last edge widens it by an ulp). The
// cost of the plain dist / w of lo = 0: the fused histogram is issue-bound in this loop.
__device__ __forceinline__ u32 bucket_of(float dist, const Params& p) {
  return u32(__float2int_rd(fmaf(dist, p.inv_width, p.lo_scaled)));
}
// ---- preparation --------------------------------------------------------------------------
template <class E> __device__ __forceinline__ E to_elem(float v) { return E(v); }
__device__ __forceinline__ float tf32_rn(float v) {  // round to nearest TF32 (cvt.rna: ties away)
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
  return __uint_as_float(r);
}
// One thread per (row, k) of the padded operands; norms by a second kernel (one warp per row).
template <Prec P>
__global__ void prepare_kernel(const float* __restrict__ X, i64 N, int d, i64 Np, i64 Kp, Storage<P>* A, Storage<P>* B) {
  const i64 idx = i64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= Np * Kp) return;
  const i64 i = idx / Kp;
  const int k = int(idx - i * Kp);
  using E = Storage<P>;
  if constexpr (P == Prec::tf32x3) {
    float a = 0, b = 0;
    const int part = k / d, kk = k - part * d;  // [small|big|big] x [big|small|big]
    if (i < N && part < 3) {
      const float x = X[i * d + kk];
      const float big = tf32_rn(x), small = tf32_rn(x - big);
      a = part == 0 ? small : big;
      b = part == 1 ? small : big;
    }
    reinterpret_cast<float*>(A)[idx] = a;
    reinterpret_cast<float*>(B)[idx] = b;
  } else {
    const float x = (i < N && k < d) ? X[i * d + k] : 0.0f;
    if constexpr (P == Prec::tf32)
      reinterpret_cast<float*>(A)[idx] = tf32_rn(x);
    else
      A[idx] = E(x);
  }
}
// norms[i] = sum_k v_k^2 in float of the values the tensor cores multiply (tf32x3: of X itself).
template <Prec P>
__global__ void norms_kernel(const float* __restrict__ X, i64 N, int d, i64 Kp, const Storage<P>* A, float* norms) {
  const i64 i = i64(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (i >= N) return;
  float s = 0;
  for (int k = lane; k < d; k += 32) {
    float v;
    if constexpr (P == Prec::tf32x3) v = X[i * d + k];
    else if constexpr (P == Prec::tf32) v = reinterpret_cast<const float*>(A)[i * Kp + k];
    else v = float(A[i * Kp + k]);
    s = fmaf(v, v, s);
  }
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) norms[i] = s;
}

template <Prec P> inline size_t operand_bytes_of(i64 N, int d) {
  return size_t(padded_rows(N)) * size_t(padded_k<P>(d)) * sizeof(Storage<P>) * (P == Prec::tf32x3 ? 2 : 1) +
         size_t(padded_rows(N)) * sizeof(float);
}
// Allocates and fills (X: device, N x d row-major). Returns cudaSuccess or the first error.
template <Prec P> cudaError_t prepare_of(const float* X, i64 N, int d, Prepared& o, cudaStream_t s) {
  o = Prepared{};
  o.prec = P; o.N = N; o.d = d; o.Np = padded_rows(N); o.Kp = padded_k<P>(d);
  const size_t n = size_t(o.Np) * size_t(o.Kp);
  Storage<P>* A = nullptr;
  Storage<P>* B = nullptr;
  cudaError_t e = cudaMalloc(&A, n * sizeof(Storage<P>));
  if (e != cudaSuccess) return e;
  o.A = A;
  if (P == Prec::tf32x3) {
    if ((e = cudaMalloc(&B, n * sizeof(Storage<P>))) != cudaSuccess) return e;
  } else {
    B = A;
  }
  o.B = B;
  if ((e = cudaMalloc(&o.norms, size_t(o.Np) * sizeof(float))) != cudaSuccess) return e;
  if ((e = cudaMemsetAsync(o.norms, 0, size_t(o.Np) * sizeof(float), s)) != cudaSuccess) return e;
  prepare_kernel<P><<<unsigned((n + 255) / 256), 256, 0, s>>>(X, N, d, o.Np, o.Kp, A, B);
  if ((e = cudaGetLastError()) != cudaSuccess) return e;
  norms_kernel<P><<<unsigned((N + 7) / 8), 256, 0, s>>>(X, N, d, o.Kp, A, o.norms);
  return cudaGetLastError();
}

// ---- the kernel ---------------------------------------------------------------------------
// Condensed (pdist / SciPy) index of the pair a < b among N points.
__host__ __device__ __forceinline__ i64 condensed_index(i64 N, i64 a, i64 b) { return N * a - a * (a + 1) / 2 + (b - a - 1); }

// Where row r of a tile goes: its first written column `first` (within the tile), `n` values
// from there, starting at out[g0]. Lower: columns j <= i (j < N); condensed: j > i.
struct RowSpan {
  i64 g0;
  int first, n;
};
// The bulk stores (Hopper); before sm_90 the issuing thread stores the row itself.
__device__ __forceinline__ void staging_wait() {
#if defined(CUTE_ARCH_TMA_SM90_ENABLED)
  cute::tma_store_wait<0>();
#endif
}
__device__ __forceinline__ void staging_fence() {
#if defined(CUTE_ARCH_TMA_SM90_ENABLED)
  cute::tma_store_fence();
#endif
}
template <Out O>
__device__ __forceinline__ RowSpan row_span(i64 N, i64 r0, i64 c0, int r, bool diag) {
  const i64 i = r0 + r;
  const int cols = int(N - c0 < tile_side ? N - c0 : tile_side);
  RowSpan s{0, 0, 0};
  if (i >= N) return s;
  if constexpr (O == Out::lower) {
    s.first = 0;
    s.n = diag ? (r + 1 < cols ? r + 1 : cols) : cols;
    s.g0 = i * N + c0;
  } else {
    s.first = diag ? r + 1 : 0;  // condensed tiles: rows J <= columns I
    s.n = cols - s.first;
    if (s.n > 0) s.g0 = condensed_index(N, i, c0 + s.first);
  }
  return s;
}

// The classic kernel (commit 636ca54, the default): one block a tile (the map's grid as launched),
// CUTLASS's mainloop with 3 stages, then the epilogue through the mainloop's shared memory: d2 into
// a padded shared tile, written row by row, a warp a row (16-byte streaming stores for the lower
// triangle, 4-byte ones for the condensed order); the fused histogram in 16 interleaved copies.
// 240 registers a thread and 96 KB of shared memory: 2 blocks an SM.
constexpr int classic_stages = 3;
constexpr int classic_tile_ld = tile_side + 4;
constexpr int classic_hist_copies = 16;
constexpr int mirror_tile_ld = tile_side + 1;  // the mirror epilogue's shared rows (odd: rows and columns conflict-free)
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

  // the epilogue: this thread's accumulators and their (row, column) in the tile
  Tensor cC = make_identity_tensor(take<0, 2>(blk));
  Tensor tCcC = mma.get_slice(threadIdx.x).partition_C(cC);
  const i64 N = p.N;
  const i64 r0 = i64(tm) * tile_side, c0 = i64(tn) * tile_side;
  const bool diag = t.i == t.j;
  const float* __restrict__ nr = p.norms + r0;  // the norms array is padded to Np: no test
  const float* __restrict__ nc = p.norms + c0;
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  __syncthreads();  // the mainloop's shared memory is free: it becomes the epilogue's
  if constexpr (O == Out::hist) {
    // 16 copies of the histogram, interleaved (bucket b of copy l at b * 16 + l, copy = lane % 16):
    // a warp's atomics meet at most 2-way bank and address conflicts; summed into global at the end
    (void)warp;
    u32* sh = reinterpret_cast<u32*>(smem);
    for (int b = threadIdx.x; b < classic_hist_copies * p.buckets; b += threads) sh[b] = 0;
    __syncthreads();
    u32* mine = sh + lane % classic_hist_copies;
    const bool fast = !diag && r0 + tile_side <= N;  // every pair of the tile counts
    CUTE_UNROLL
    for (int v = 0; v < size(acc); ++v) {
      const int r = get<0>(tCcC(v)), c = get<1>(tCcC(v));
      const float d2 = fmaxf(__ldg(nr + r) + __ldg(nc + c) - 2.0f * acc(v), 0.0f);
      float dist;
      asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(dist) : "f"(d2));
      const u32 b = bucket_of(dist, p);
      const bool ok = fast || (r0 + r < N && c0 + c < N && (!diag || c < r));  // the pairs i > j
      if (ok && b < u32(p.buckets)) atomicAdd(&mine[b * classic_hist_copies], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < p.buckets; b += threads) {
      u32 s = 0;
      for (int w = 0; w < classic_hist_copies; ++w) s += sh[b * classic_hist_copies + ((w + b) & (classic_hist_copies - 1))];
      if (s) atomicAdd(&p.hist[b], (unsigned long long)s);
    }
  } else if constexpr (O == Out::mirror) {
    // The whole N x N from the lower tiles: the tile into shared memory (rows of 129 floats: both a
    // row and a column of it are read by a warp without bank conflicts), then written twice, as
    // rows (i, c0 ..) and, off the diagonal, as the transposed rows (c0 + c, r0 ..): 128-byte
    // coalesced streaming stores a warp. Distances get an exact 0 on the diagonal i == j.
    (void)warp;
    float* st = reinterpret_cast<float*>(smem);
    CUTE_UNROLL
    for (int v = 0; v < size(acc); ++v) {
      const int r = get<0>(tCcC(v)), c = get<1>(tCcC(v));
      float x;
      if (p.product) {
        x = acc(v);
      } else {
        x = fmaxf(__ldg(nr + r) + __ldg(nc + c) - 2.0f * acc(v), 0.0f);
        if (p.take_sqrt) x = sqrtf(x);
        if (diag && r == c) x = 0.0f;
      }
      st[r * mirror_tile_ld + c] = x;
    }
    __syncthreads();
    const int rows = int(N - r0 < tile_side ? N - r0 : tile_side), cols = int(N - c0 < tile_side ? N - c0 : tile_side);
    for (int r = warp; r < rows; r += threads / 32) {  // rows i = r0 + r, columns c0 ..
      float* dst = p.out + (r0 + r) * N + c0;
      CUTE_UNROLL
      for (int q = 0; q < tile_side / 32; ++q) {
        const int c = lane + 32 * q;
        // a diagonal tile's upper half is its lower half's transpose (bit for bit: 3xTF32's operands
        // differ, so the tile's own upper values would not be)
        if (c < cols) __stcs(dst + c, diag && c > r ? st[c * mirror_tile_ld + r] : st[r * mirror_tile_ld + c]);
      }
    }
    if (!diag) {
      for (int c = warp; c < cols; c += threads / 32) {  // rows c0 + c, columns r0 .. (the transpose)
        float* dst = p.out + (c0 + c) * N + r0;
        CUTE_UNROLL
        for (int q = 0; q < tile_side / 32; ++q) {
          const int r = lane + 32 * q;
          if (r < rows) __stcs(dst + r, st[r * mirror_tile_ld + c]);
        }
      }
    }
  } else if constexpr (O == Out::count) {
    // Neighbours within eps (d^2 <= eps2) of the pairs i > j: per-row and per-column counts of the
    // tile in shared memory, then one global atomic per nonzero row / column, and the tile's total.
    u32* rc = reinterpret_cast<u32*>(smem);  // rc[0, 128): rows, rc[128, 256): columns, rc[256]: total
    for (int k = threadIdx.x; k < 2 * tile_side + 1; k += threads) rc[k] = 0;
    __syncthreads();
    u32 mine = 0;
    CUTE_UNROLL
    for (int v = 0; v < size(acc); ++v) {
      const int r = get<0>(tCcC(v)), c = get<1>(tCcC(v));
      const float d2 = fmaxf(__ldg(nr + r) + __ldg(nc + c) - 2.0f * acc(v), 0.0f);
      const bool ok = r0 + r < N && c0 + c < N && (!diag || c < r);  // the pairs i > j
      if (ok && d2 <= p.eps2) {
        atomicAdd(&rc[r], 1u);
        atomicAdd(&rc[tile_side + c], 1u);
        ++mine;
      }
    }
    for (int o = 16; o > 0; o /= 2) mine += __shfl_down_sync(0xffffffffu, mine, o);
    if (lane == 0 && mine) atomicAdd(&rc[2 * tile_side], mine);
    __syncthreads();
    for (int k = threadIdx.x; k < 2 * tile_side; k += threads) {
      const i64 pt = k < tile_side ? r0 + k : c0 + (k - tile_side);
      if (rc[k] && pt < N) atomicAdd(&p.counts[pt], rc[k]);
    }
    if (threadIdx.x == 0 && rc[2 * tile_side]) atomicAdd(p.total, (unsigned long long)rc[2 * tile_side]);
  } else if constexpr (O == Out::minmax) {
    // The least and largest distance of the pairs i > j (as the histogram computes it: sqrt.approx),
    // a warp's by shuffles, then atomics on the bits of the non-negative floats.
    float lo = __int_as_float(0x7f800000), hi = 0.0f;
    CUTE_UNROLL
    for (int v = 0; v < size(acc); ++v) {
      const int r = get<0>(tCcC(v)), c = get<1>(tCcC(v));
      const float d2 = fmaxf(__ldg(nr + r) + __ldg(nc + c) - 2.0f * acc(v), 0.0f);
      float dist;
      asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(dist) : "f"(d2));
      if (r0 + r < N && c0 + c < N && (!diag || c < r)) {
        lo = fminf(lo, dist);
        hi = fmaxf(hi, dist);
      }
    }
    for (int o = 16; o > 0; o /= 2) {
      lo = fminf(lo, __shfl_down_sync(0xffffffffu, lo, o));
      hi = fmaxf(hi, __shfl_down_sync(0xffffffffu, hi, o));
    }
    if (lane == 0) {
      atomicMin(reinterpret_cast<unsigned*>(p.minmax), __float_as_uint(lo));
      atomicMax(reinterpret_cast<unsigned*>(p.minmax) + 1, __float_as_uint(hi));
    }
  } else {
    // d2 into a shared tile (rows padded to 132 floats), then written out row by row, a warp a
    // row: coalesced 16-byte stores (lower) or 4-byte ones (condensed, whose rows are not aligned)
    float* st = reinterpret_cast<float*>(smem);
    CUTE_UNROLL
    for (int v = 0; v < size(acc); ++v) {
      const int r = get<0>(tCcC(v)), c = get<1>(tCcC(v));
      float d2 = fmaxf(__ldg(nr + r) + __ldg(nc + c) - 2.0f * acc(v), 0.0f);
      if (p.take_sqrt) d2 = sqrtf(d2);
      if (O == Out::lower && p.product) d2 = acc(v);
      st[r * classic_tile_ld + c] = d2;
    }
    __syncthreads();
    for (int r = warp; r < tile_side; r += threads / 32) {
      const i64 i = r0 + r;
      if (i >= N) break;
      const float* row = st + r * classic_tile_ld;
      if constexpr (O == Out::lower) {  // columns j <= i
        const int last = diag ? r : tile_side - 1;  // last column of the tile to write
        const int c = 4 * lane;
        const i64 j = c0 + c;
        if (c > last || j >= N) continue;
        const float4 v4 = *reinterpret_cast<const float4*>(row + c);
        float* dst = p.out + i * N + j;
        if (c + 3 <= last && j + 3 < N && (N % 4) == 0) {
          __stcs(reinterpret_cast<float4*>(dst), v4);  // streaming: the output does not stay in L2
        } else {
          const float w[4] = {v4.x, v4.y, v4.z, v4.w};
          for (int q = 0; q < 4; ++q)
            if (c + q <= last && j + q < N) dst[q] = w[q];
        }
      } else {  // condensed: row a = i, columns b = c0 + c > a
        const i64 base = condensed_index(N, i, c0);  // index of (i, c0) by the linear formula
        for (int c = lane; c < tile_side; c += 32) {
          const i64 j = c0 + c;
          if (j >= N) break;
          if (j > i) p.out[base + c] = row[c];
        }
      }
    }
  }
}


// Persistent: block b walks the map's blocks lambda = b, b + gridDim.x, ... (lambda -> (bx, by)
// of the map's grid, gx wide), so the c(c+1)/2 tiles of LTM-E or the c^2 of the bb-grid run on
// as many blocks as fit the GPU at once. Per tile: CUTLASS's SM80 mainloop into registers, then
// the fused epilogue.
//   lower / condensed: d2 of 64 rows at a time into a shared staging tile, then one bulk
//   asynchronous store a row (cp.async.bulk, Hopper's TMA; the 16-byte-aligned middle, a few
//   plain stores at its ends), so the stores drain while the block goes on with the other
//   half and the next tile's mainloop (the staging waits only for the bulk reads of its last use).
//   hist: a block histogram for all its tiles, one copy per lane (interleaved: no conflicts
//   inside a warp), summed and added to global once at the end.
template <Prec P, class Tiles, Out O>
__global__ void __launch_bounds__(threads) gram_kernel_persistent(Params p, Tiles tiles, u32 gx, u64 total) {
  using namespace cute;
  constexpr int stages = O == Out::hist ? hist_stages : cfg::Config<P>::stages;
  using MLc = cfg::Mainloop<P, stages>;
  using ML = typename MLc::type;
  using C = cfg::Config<P>;
  using E = typename C::Element;
  extern __shared__ __align__(128) char smem[];
  char* const smem_main = smem;
  char* const smem_epi = smem + ((MLc::smem_bytes + 127) / 128) * 128;

  auto blk = typename C::TileShape{};
  Tensor mA = make_tensor(make_gmem_ptr(static_cast<const E*>(p.A)), make_shape(tiles.side() * tile_side, p.Kp),
                          make_stride(p.Kp, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(static_cast<const E*>(p.B)), make_shape(tiles.side() * tile_side, p.Kp),
                          make_stride(p.Kp, _1{}));
  typename C::TiledMma mma;
  Tensor cC = make_identity_tensor(take<0, 2>(blk));
  Tensor tCcC = mma.get_slice(threadIdx.x).partition_C(cC);  // (MMA, MMA_M, MMA_N) -> (row, col) in the tile
  const i64 N = p.N;
  const int tid = int(threadIdx.x), lane = tid % 32;

  u32* const hs = reinterpret_cast<u32*>(smem_epi);  // hist: hs[b * 32 + lane]
  float* const st = reinterpret_cast<float*>(smem_epi);  // lower / condensed: stage_rows x tile_ld
  if constexpr (O == Out::hist) {
    for (int k = tid; k < p.buckets * hist_lanes; k += threads) hs[k] = 0;
  }

  for (u64 lam = blockIdx.x; lam < total; lam += gridDim.x) {
    const tdmaps::Cell2T<i64> t = tiles.tile(u32(lam % gx), u32(lam / gx));
    if (!t.inside) continue;  // bb-grid: a tile above the diagonal
    // lower / hist: tile rows I (points i), columns J <= I. condensed: rows J (a), columns I (b).
    const int tm = int(O == Out::condensed ? t.j : t.i), tn = int(O == Out::condensed ? t.i : t.j);
    __syncthreads();  // every warp is done with the last tile's mainloop shared memory
    auto coord = make_coord(tm, tn, _);
    Tensor gA = local_tile(mA, blk, coord, Step<_1, Underscore, _1>{});  // (BM, BK, k)
    Tensor gB = local_tile(mB, blk, coord, Step<Underscore, _1, _1>{});  // (BN, BK, k)
    Tensor acc = partition_fragment_C(mma, take<0, 2>(blk));  // (MMA, MMA_M, MMA_N)
    clear(acc);
    auto k_iter = make_coord_iterator(shape<2>(gA));
    const int k_count = int(size<2>(gA));
    auto residue = make_tuple(tile_side, tile_side, 0);  // unpredicated: every operand tile is whole
    ML{}(acc, gA, gB, acc, k_iter, k_count, residue, tid, smem_main);
    cp_async_wait<0>();  // the unpredicated mainloop's trailing (repeated) loads

    const i64 r0 = i64(tm) * tile_side, c0 = i64(tn) * tile_side;
    const bool diag = t.i == t.j;
    const float* __restrict__ nr = p.norms + r0;  // the norms array is padded to Np: no test
    const float* __restrict__ nc = p.norms + c0;
    const bool whole = r0 + tile_side <= N && c0 + tile_side <= N;

    if constexpr (O == Out::hist) {
      const bool fast = whole && !diag;
      CUTE_UNROLL
      for (int v = 0; v < size(acc); ++v) {
        const int r = get<0>(tCcC(v)), c = get<1>(tCcC(v));
        const float d2 = fmaxf(__ldg(nr + r) + __ldg(nc + c) - 2.0f * acc(v), 0.0f);
        float dist;
        asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(dist) : "f"(d2));
        const u32 b = bucket_of(dist, p);
        const bool ok = fast || (r0 + r < N && c0 + c < N && (!diag || c < r));  // the pairs i > j
        if (ok && b < u32(p.buckets)) atomicAdd(&hs[b * hist_lanes + lane], 1u);
      }
    } else {
      const bool fast = O == Out::lower && whole && !diag && (N % 4) == 0;  // every row whole and aligned
      constexpr int MM = int(size<1>(acc)), NN = int(size<2>(acc)), VV = int(size<0>(acc));
      constexpr int passes = tile_side / stage_rows, m_per_pass = MM / passes;
      static_assert(MM * 32 == tile_side && MM % passes == 0, "MMA_M blocks are the tile's 32-row groups");
      CUTE_UNROLL
      for (int h = 0; h < passes; ++h) {
        if (tid < stage_rows) staging_wait();  // the staging's last bulk stores have read it
        __syncthreads();
        CUTE_UNROLL
        for (int m = h * m_per_pass; m < (h + 1) * m_per_pass; ++m) {
          CUTE_UNROLL
          for (int n = 0; n < NN; ++n) {
            CUTE_UNROLL
            for (int v0 = 0; v0 < VV; ++v0) {
              const int r = get<0>(tCcC(v0, m, n)), c = get<1>(tCcC(v0, m, n));
              float d2 = fmaxf(__ldg(nr + r) + __ldg(nc + c) - 2.0f * acc(v0, m, n), 0.0f);
              if (p.take_sqrt) d2 = sqrtf(d2);
              const int rs = r - h * stage_rows;
              if (fast) {
                st[rs * tile_ld + c] = d2;
              } else {
                const RowSpan sp = row_span<O>(N, r0, c0, r, diag);
                if (c >= sp.first) st[rs * tile_ld + int(sp.g0 & 3) + c - sp.first] = d2;
              }
            }
          }
        }
        staging_fence();  // the staging's generic writes, before the async proxy reads them
        __syncthreads();
        if (tid < stage_rows) {
          const int r = h * stage_rows + tid;
          const RowSpan sp = row_span<O>(N, r0, c0, r, diag);
          if (sp.n > 0) {
            const int s = int(sp.g0 & 3);
            const float* src = st + tid * tile_ld + s;  // value k of the row at src[k]
            float* dst = p.out + sp.g0;
            int p0 = (4 - s) & 3;
            if (p0 > sp.n) p0 = sp.n;
            const int p1 = p0 + (sp.n - p0) / 4 * 4;
#if defined(CUTE_ARCH_TMA_SM90_ENABLED)
            if (p1 > p0) SM90_BULK_COPY_S2G::copy(src + p0, dst + p0, (p1 - p0) * 4);
#else
            for (int k = p0; k < p1; ++k) dst[k] = src[k];
#endif
            for (int k = 0; k < p0; ++k) dst[k] = src[k];
            for (int k = p1; k < sp.n; ++k) dst[k] = src[k];
          }
#if defined(CUTE_ARCH_TMA_SM90_ENABLED)
          tma_store_arrive();
#endif
        }
      }
    }
  }
  if constexpr (O == Out::hist) {
    __syncthreads();
    for (int b = tid; b < p.buckets; b += threads) {
      u32 s = 0;
      for (int l = 0; l < hist_lanes; ++l) s += hs[b * hist_lanes + ((l + b) & (hist_lanes - 1))];
      if (s) atomicAdd(&p.hist[b], (unsigned long long)s);
    }
  } else {
    if (tid < stage_rows) staging_wait();  // the shared memory must outlive the bulk reads
  }
}

template <Prec P, Out O> constexpr int smem_bytes_persistent() {
  constexpr int main = (cfg::Mainloop<P, O == Out::hist ? hist_stages : cfg::Config<P>::stages>::smem_bytes + 127) / 128 * 128;
  return main + (O == Out::hist ? hist_max_buckets * hist_lanes * 4 : stage_rows * tile_ld * 4);
}
template <Prec P, class Shp = ClassicShape<P>> constexpr int smem_bytes_classic() {
  return cfg::MainloopOf<typename Shp::C, Shp::stages>::smem_bytes;
}
// Largest bucket count the fused histogram holds (both kernels).
template <Prec P> constexpr int max_buckets() { return hist_max_buckets; }
static_assert(smem_bytes_persistent<Prec::tf32, Out::hist>() <= 227 * 1024 &&
              smem_bytes_persistent<Prec::bf16, Out::hist>() <= 227 * 1024, "the fused histogram's shared memory");
static_assert(smem_bytes_classic<Prec::tf32>() >= tile_side * classic_tile_ld * 4 &&
              smem_bytes_classic<Prec::bf16>() >= tile_side * classic_tile_ld * 4 &&
              smem_bytes_classic<Prec::tf32>() >= hist_max_buckets * classic_hist_copies * 4 &&
              smem_bytes_classic<Prec::bf16>() >= hist_max_buckets * classic_hist_copies * 4 &&
              smem_bytes_classic<Prec::tf32, Warp8Shape<Prec::tf32>>() >= tile_side * classic_tile_ld * 4 &&
              smem_bytes_classic<Prec::bf16, Warp8Shape<Prec::bf16>>() >= tile_side * classic_tile_ld * 4 &&
              smem_bytes_classic<Prec::tf32, Warp8Shape<Prec::tf32>>() >= hist_max_buckets * classic_hist_copies * 4 &&
              smem_bytes_classic<Prec::bf16, Warp8Shape<Prec::bf16>>() >= hist_max_buckets * classic_hist_copies * 4,
              "the classic epilogue's shared tile and histogram fit in the mainloop's shared memory");

// A kernel's one-time setup (its function attributes) is the current device's: `done` holds a bit
// per device already set up (devices past 63: every call). Marks the current device; true where it
// was not yet (the caller sets up, and calls forget() if that fails).
struct PerDevice {
  unsigned long long done = 0;
  int dev = -1;
  bool first() {
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return true;
    const unsigned long long bit = 1ull << dev;
    if (done & bit) return false;
    done |= bit;
    return true;
  }
  void forget() {
    if (dev >= 0 && dev < 64) done &= ~(1ull << dev);
  }
};
template <class K> cudaError_t max_dynamic_smem(PerDevice& once, K k, int smem) {
  if (!once.first()) return cudaSuccess;
  const cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  if (e != cudaSuccess) once.forget();
  return e;
}

// Launches a kernel over the tiles of `tiles` (a TileMap over c = Np / 128 tiles, or a TileRange of
// its blocks). classic: the map's (range's) grid, one block a tile. persistent: as many blocks as fit
// on the GPU at once (occupancy x SMs), each walking the map's (range's) blocks.
template <Prec P, class Tiles, Out O>
cudaError_t launch(Kernel kern, const Params& p, const Tiles& tiles, cudaStream_t s = 0) {
  const tdmaps::Dim3 g = tiles.grid();
  if (kern == Kernel::classic) {
    auto k = gram_kernel_classic<P, Tiles, O>;
    constexpr int smem = smem_bytes_classic<P>();
    static PerDevice attr;
    if (const cudaError_t e = max_dynamic_smem(attr, k, smem); e != cudaSuccess) return e;
    k<<<dim3(g.x, g.y, g.z), threads, smem, s>>>(p, tiles);
    return cudaGetLastError();
  }
  if (kern == Kernel::sm80_8w) {
    using Shp = Warp8Shape<P>;
    auto k = gram_kernel_classic<P, Tiles, O, Shp>;
    constexpr int smem = smem_bytes_classic<P, Shp>();
    static PerDevice attr;
    if (const cudaError_t e = max_dynamic_smem(attr, k, smem); e != cudaSuccess) return e;
    k<<<dim3(g.x, g.y, g.z), Shp::threads, smem, s>>>(p, tiles);
    return cudaGetLastError();
  }
  if (kern != Kernel::persistent) return cudaErrorInvalidValue;  // sm90-ws: gram_sm90.cu (run() dispatches it)
  if constexpr (O != Out::lower && O != Out::condensed && O != Out::hist) {
    return cudaErrorInvalidValue;  // mirror, count, minmax: the classic epilogue only
  } else {
  auto k = gram_kernel_persistent<P, Tiles, O>;
  constexpr int smem = smem_bytes_persistent<P, O>();
  static PerDevice attr;
  static int resident_of[64] = {};  // blocks of this kernel on the whole GPU, per device
  if (const cudaError_t e = max_dynamic_smem(attr, k, smem); e != cudaSuccess) return e;
  int resident = attr.dev >= 0 && attr.dev < 64 ? resident_of[attr.dev] : 0;
  if (!resident) {
    cudaError_t e;
    int dev = 0, sms = 0, per_sm = 0;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess) return e;
    if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return e;
    if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, smem)) != cudaSuccess) return e;
    resident = std::max(1, per_sm) * sms;
    if (dev >= 0 && dev < 64) resident_of[dev] = resident;
  }
  const u64 total = u64(g.x) * g.y * g.z;
  const unsigned blocks = unsigned(std::min<u64>(total, u64(resident)));
  if (blocks == 0) return cudaSuccess;
  k<<<blocks, threads, smem, s>>>(p, tiles, g.x, total);
  return cudaGetLastError();
  }
}

// A Request's tile range (Request::lam_begin, lam_end) over LTM-E's tiles `ltm`: ranged = false for
// the whole grid (the default, or [0, c(c+1)/2) given), else `range`. Ranges are for the fused
// histogram under LTM-E alone; any other use, or a range past the grid: cudaErrorInvalidValue. (Past
// c = 65535 the grid has several rows, the last row's tail outside: launched() >= c(c+1)/2, short of
// it by less than the rows.)
inline cudaError_t tile_range(const Request& r, const tdmaps::TileMap<tdmaps::LTM_E>& ltm, bool& ranged,
                              tdmaps::TileRange<tdmaps::LTM_E>& range) {
  const unsigned long long n = ltm.launched(), used = tdmaps::TileMap<tdmaps::LTM_E>::useful(ltm.side());
  const unsigned long long end = r.lam_end == Request::all_tiles ? n : r.lam_end;
  ranged = !(r.lam_begin == 0 && end >= used && end <= n);
  if (!ranged) return cudaSuccess;
  if (r.out != Out::hist || r.sched != Sched::ltm_e || r.lam_begin > end || end > n) return cudaErrorInvalidValue;
  range = tdmaps::TileRange<tdmaps::LTM_E>::make(ltm, r.lam_begin, end);
  return cudaSuccess;
}

// One request's kernel parameters, its tile source (LTM-E, the bounding box, or a range of LTM-E's
// tiles) and output, for every kernel family: `launch(tiles, out, p)` gets the tile source, the output
// as std::integral_constant<Out, ...> and the parameters, and launches (run_of below; gram_sm90.cu).
inline Params params_of(const Prepared& o, const Request& r) {
  Params p;
  p.A = o.A;
  p.B = o.B;
  p.norms = o.norms;
  p.N = o.N;
  p.Kp = o.Kp;
  p.out = r.dst;
  p.hist = r.hist;
  p.buckets = r.buckets;
  p.inv_width = r.width > 0 ? 1.0f / r.width : 0.0f;
  p.lo_scaled = r.width > 0 ? -r.lo / r.width : 0.0f;
  p.take_sqrt = r.take_sqrt;
  p.product = r.product;
  p.counts = r.counts;
  p.total = r.total;
  p.eps2 = r.eps2;
  p.minmax = r.minmax;
  return p;
}
template <class Launch>
cudaError_t dispatch(const Prepared& o, const Request& r, Launch&& launch) {
  const Params p = params_of(o, r);
  if (r.out == Out::hist && (r.buckets < 1 || r.buckets > hist_max_buckets)) return cudaErrorInvalidValue;
  const i64 c = o.Np / tile_side;
  const tdmaps::TileMap<tdmaps::LTM_E> ltm = tdmaps::TileMap<tdmaps::LTM_E>::make(c);
  bool ranged = false;
  tdmaps::TileRange<tdmaps::LTM_E> range;  // a range of LTM-E's blocks (Request::lam_begin, lam_end)
  if (const cudaError_t e = tile_range(r, ltm, ranged, range); e != cudaSuccess) return e;
  if (ranged) return range.count ? launch(range, std::integral_constant<Out, Out::hist>{}, p) : cudaSuccess;
  auto go = [&](auto map_tag) -> cudaError_t {
    const auto tiles = tdmaps::TileMap<decltype(map_tag)>::make(c);
    switch (r.out) {
      case Out::lower: return launch(tiles, std::integral_constant<Out, Out::lower>{}, p);
      case Out::condensed: return launch(tiles, std::integral_constant<Out, Out::condensed>{}, p);
      case Out::hist: return launch(tiles, std::integral_constant<Out, Out::hist>{}, p);
      default: return cudaErrorInvalidValue;  // mirror, count, minmax: run_extra_of
    }
  };
  return r.sched == Sched::ltm_e ? go(tdmaps::LTM_E{}) : go(tdmaps::BB{});
}

// The launch of one precision: every scheduler and output (the definitions behind run()).
template <Prec P> cudaError_t run_of(const Prepared& o, const Request& r, cudaStream_t s) {
  return dispatch(o, r, [&](const auto& tiles, auto out, const Params& p) {
    return launch<P, std::decay_t<decltype(tiles)>, decltype(out)::value>(r.kernel, p, tiles, s);
  });
}

// mirror, count and minmax (issues #37, #38): the classic epilogue (kernels classic and sm80-8w) over
// LTM-E's lower tiles, compiled apart (gram_extra_<prec>.cu) so that the precisions' files build in
// parallel. Anything else: cudaErrorInvalidValue.
template <Prec P> cudaError_t run_extra_of(const Prepared& o, const Request& r, cudaStream_t s) {
  if (r.sched != Sched::ltm_e || (r.kernel != Kernel::classic && r.kernel != Kernel::sm80_8w) || r.lam_begin != 0 ||
      r.lam_end != Request::all_tiles)
    return cudaErrorInvalidValue;
  const Params p = params_of(o, r);
  const auto tiles = tdmaps::TileMap<tdmaps::LTM_E>::make(o.Np / tile_side);
  using T = std::decay_t<decltype(tiles)>;
  switch (r.out) {
    case Out::mirror:
      if (!r.dst) return cudaErrorInvalidValue;
      return launch<P, T, Out::mirror>(r.kernel, p, tiles, s);
    case Out::count:
      if (!r.counts || !r.total) return cudaErrorInvalidValue;
      return launch<P, T, Out::count>(r.kernel, p, tiles, s);
    case Out::minmax:
      if (!r.minmax) return cudaErrorInvalidValue;
      return launch<P, T, Out::minmax>(r.kernel, p, tiles, s);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace gram
