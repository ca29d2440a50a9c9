// src/gram/gram.cuh — pairwise squared distances and Gram matrices on the tensor cores, over
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

#include <cuda_runtime.h>
#include <cstdint>

namespace gram {

using tdmaps::u32;
using tdmaps::u64;

constexpr int threads = 128;    // 2 x 2 warps
constexpr int tile_ld = tile_side + 4;  // the epilogue's shared tile: padded rows, 16-byte aligned
constexpr int hist_copies = 4;  // the fused histogram: one copy per warp

namespace cfg {
using namespace cute;
// The CuTe configuration of each input type: a 128x128 tile, 4 warps (2x2) of mma.sync,
// K-major operands in swizzled shared memory loaded by ldmatrix, cp.async from global.
template <Prec P> struct Config;
template <> struct Config<Prec::tf32> {
  using Element = cutlass::tfloat32_t;
  using TileShape = Shape<_128, _128, _32>;
  static constexpr int stages = 3;
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
  static constexpr int stages = 3;
  using TiledMma = TiledMMA<MMA_Atom<Atom>, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _1>>, Tile<_32, _32, _16>>;
  using SmemLayoutAtom = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}));
  using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, Element>;
  using GmemTiledCopy = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, Element>{},
                                                 Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}));
};
template <> struct Config<Prec::bf16> : Config16<cutlass::bfloat16_t, SM80_16x8x16_F32BF16BF16F32_TN> {};
template <> struct Config<Prec::fp16> : Config16<cutlass::half_t, SM80_16x8x16_F32F16F16F32_TN> {};

template <Prec P> struct Mainloop {
  using C = Config<P>;
  using Stride = cute::Stride<int64_t, _1, int64_t>;
  using type = cutlass::gemm::collective::CollectiveMma<
      cutlass::gemm::MainloopSm80CpAsyncUnpredicated<C::stages>, typename C::TileShape, typename C::Element, Stride,
      typename C::Element, Stride, typename C::TiledMma, typename C::GmemTiledCopy, typename C::SmemLayoutAtom,
      typename C::SmemCopyAtom, cute::identity, typename C::GmemTiledCopy, typename C::SmemLayoutAtom,
      typename C::SmemCopyAtom, cute::identity>;
  static constexpr int smem_bytes = int(sizeof(typename type::SharedStorage));
  static constexpr int bk = int(cute::size<2>(typename C::TileShape{}));
};
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
  bool take_sqrt = false;
};

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

template <Prec P, class Map, Out O>
__global__ void __launch_bounds__(threads) gram_kernel(Params p, tdmaps::TileMap<Map> tiles) {
  using namespace cute;
  using ML = typename cfg::Mainloop<P>::type;
  using C = cfg::Config<P>;
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
    // one histogram per warp (fewer collisions of the shared atomics), summed into global at the end
    u32* sh = reinterpret_cast<u32*>(smem);
    for (int b = threadIdx.x; b < hist_copies * p.buckets; b += threads) sh[b] = 0;
    __syncthreads();
    u32* mine = sh + (warp % hist_copies) * p.buckets;
    CUTE_UNROLL
    for (int v = 0; v < size(acc); ++v) {
      const int r = get<0>(tCcC(v)), c = get<1>(tCcC(v));
      const i64 i = r0 + r, j = c0 + c;
      if (i >= N || j >= N || (diag && j >= i)) continue;  // the pairs i > j
      const float d2 = fmaxf(__ldg(nr + r) + __ldg(nc + c) - 2.0f * acc(v), 0.0f);
      const u32 b = u32(sqrtf(d2) * p.inv_width);
      if (b < u32(p.buckets)) atomicAdd(&mine[b], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < p.buckets; b += threads) {
      u32 s = 0;
      for (int w = 0; w < hist_copies; ++w) s += sh[w * p.buckets + b];
      if (s) atomicAdd(&p.hist[b], (unsigned long long)s);
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
      st[r * tile_ld + c] = d2;
    }
    __syncthreads();
    for (int r = warp; r < tile_side; r += threads / 32) {
      const i64 i = r0 + r;
      if (i >= N) break;
      const float* row = st + r * tile_ld;
      if constexpr (O == Out::lower) {  // columns j <= i
        const int last = diag ? r : tile_side - 1;  // last column of the tile to write
        const int c = 4 * lane;
        const i64 j = c0 + c;
        if (c > last || j >= N) continue;
        const float4 v4 = *reinterpret_cast<const float4*>(row + c);
        float* dst = p.out + i * N + j;
        if (c + 3 <= last && j + 3 < N && (N % 4) == 0) {
          *reinterpret_cast<float4*>(dst) = v4;
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

template <Prec P> constexpr int smem_bytes() { return cfg::Mainloop<P>::smem_bytes; }
// Largest bucket count the fused histogram holds (its block histogram reuses the mainloop's
// shared memory).
template <Prec P> constexpr int max_buckets() { return smem_bytes<P>() / (4 * hist_copies); }
static_assert(smem_bytes<Prec::tf32>() >= tile_side * tile_ld * 4 && smem_bytes<Prec::bf16>() >= tile_side * tile_ld * 4,
              "the epilogue's shared tile must fit in the mainloop's shared memory");

// Launches the kernel over the tiles of `tiles` (a TileMap over c = Np / 128 tiles).
template <Prec P, class Map, Out O>
cudaError_t launch(const Params& p, const tdmaps::TileMap<Map>& tiles, cudaStream_t s = 0) {
  auto k = gram_kernel<P, Map, O>;
  static bool attr = false;
  if (!attr) {
    const cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes<P>());
    if (e != cudaSuccess) return e;
    attr = true;
  }
  const tdmaps::Dim3 g = tiles.grid();
  k<<<dim3(g.x, g.y, g.z), threads, smem_bytes<P>(), s>>>(p, tiles);
  return cudaGetLastError();
}

// The launch of one precision: every scheduler and output (the definitions behind run()).
template <Prec P> cudaError_t run_of(const Prepared& o, const Request& r, cudaStream_t s) {
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
  p.take_sqrt = r.take_sqrt;
  const i64 c = o.Np / tile_side;
  auto go = [&](auto map_tag) -> cudaError_t {
    using M = decltype(map_tag);
    const auto tiles = tdmaps::TileMap<M>::make(c);
    switch (r.out) {
      case Out::lower: return launch<P, M, Out::lower>(p, tiles, s);
      case Out::condensed: return launch<P, M, Out::condensed>(p, tiles, s);
      case Out::hist: return launch<P, M, Out::hist>(p, tiles, s);
    }
    return cudaErrorInvalidValue;
  };
  return r.sched == Sched::ltm_e ? go(tdmaps::LTM_E{}) : go(tdmaps::BB{});
}

}  // namespace gram
