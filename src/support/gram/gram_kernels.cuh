// src/support/gram/gram_kernels.cuh — the kernels and their epilogues: classic (and sm80-8w: the same kernel on
// 8 warps) and persistent, with their shared-memory budgets. Part of gram.cuh.
#pragma once
#include "gram_config.cuh"
#include "gram_cpu.hpp"  // condensed_index

namespace gram {

// ---- the kernel ---------------------------------------------------------------------------
using gram_cpu::condensed_index;  // the pdist / SciPy index of the pair a < b among N points

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

}  // namespace gram
