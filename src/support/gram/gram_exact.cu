// src/support/gram/gram_exact.cu — the exact mode (gram_exact.hpp): float64 on the CUDA cores, the
// oracle's formula (gram_cpu::d2_exact) pair by pair. Tiles of 64 x 64 pairs, the lower ones walked by
// LTM-E (tdmaps/tiles.hpp); a block of 16 x 16 threads, each thread 4 x 4 pairs; the points' features
// staged in shared memory 32 at a time, in float64 (a float's difference is exact in float64).
#include "gram_exact.hpp"
#include <tdmaps/tiles.hpp>

#include <cuda_runtime.h>
#include <cmath>

namespace gram::exact {
namespace {

constexpr int side = 64;          // a tile's points per side
constexpr int tx_n = 16;          // threads per side of the block
constexpr int per = side / tx_n;  // pairs per thread per side
constexpr int kc = 16;            // features staged at once
constexpr int hist_max = max_bins;  // buckets of the block's shared histogram (u32: 16 KB)

enum class What { hist, count, minmax };
struct Args {
  const float* X;
  i64 N;
  int d;
  const double* edges;
  int bins;
  unsigned long long* hist;
  double eps;
  unsigned* counts;
  unsigned long long* total;
  double* minmax;
};

// The bucket of d among the bins + 1 increasing edges (edges[b] <= d < edges[b+1], the last bucket
// closed), or -1 outside (NaN included): a binary search, so the edges alone decide.
__device__ int bucket(const double* e, int bins, double d) {
  if (!(d >= e[0] && d <= e[bins])) return -1;
  int lo = 0, hi = bins;  // e[lo] <= d, and d < e[hi] unless hi == bins
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (d >= e[mid]) lo = mid; else hi = mid;
  }
  return lo;
}

// One step of the header's float64 sum, the one copy (the tiles' kernel and the replay): s + (a - b)^2, the
// difference exact (floats in float64), the product and the sum each rounded once (no FMA).
__device__ __forceinline__ double add_square(double s, double a, double b) {
  const double diff = a - b;
  return __dadd_rn(s, __dmul_rn(diff, diff));
}

template <What W>
__global__ void __launch_bounds__(tx_n * tx_n) exact_kernel(Args a, tdmaps::TileMap<tdmaps::LTM_E> tiles) {
  __shared__ double xs[side][kc + 1], ys[side][kc + 1];
  __shared__ unsigned sh_hist[W == What::hist ? hist_max : 1];
  __shared__ unsigned rowc[W == What::count ? side : 1], colc[W == What::count ? side : 1];
  const tdmaps::Cell2T<i64> t = tiles.tile(blockIdx.x, blockIdx.y);
  if (!t.inside) return;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * tx_n + tx;
  const i64 r0 = t.i * side, c0 = t.j * side;  // rows i (points), columns j <= i
  const bool diag = t.i == t.j;
  if constexpr (W == What::hist)
    for (int b = tid; b < a.bins; b += tx_n * tx_n) sh_hist[b] = 0;
  if constexpr (W == What::count)
    for (int k = tid; k < side; k += tx_n * tx_n) rowc[k] = colc[k] = 0;

  double s[per][per] = {};
  for (int k0 = 0; k0 < a.d; k0 += kc) {
    __syncthreads();
    for (int q = tid; q < side * kc; q += tx_n * tx_n) {
      const int p = q / kc, k = q % kc;
      const bool kin = k0 + k < a.d;
      xs[p][k] = (kin && r0 + p < a.N) ? double(a.X[(r0 + p) * a.d + k0 + k]) : 0.0;
      ys[p][k] = (kin && c0 + p < a.N) ? double(a.X[(c0 + p) * a.d + k0 + k]) : 0.0;
    }
    __syncthreads();
    const int kn = a.d - k0 < kc ? a.d - k0 : kc;
    for (int k = 0; k < kn; ++k)  // in k order, each product and sum rounded once (no FMA)
#pragma unroll
      for (int u = 0; u < per; ++u)
#pragma unroll
        for (int v = 0; v < per; ++v) s[u][v] = add_square(s[u][v], xs[ty + tx_n * u][k], ys[tx + tx_n * v][k]);
  }

  double lo = INFINITY, hi = 0;
  unsigned long long mine = 0;
#pragma unroll
  for (int u = 0; u < per; ++u)
#pragma unroll
    for (int v = 0; v < per; ++v) {
      const int r = ty + tx_n * u, c = tx + tx_n * v;
      if (!(r0 + r < a.N && c0 + c < a.N && (!diag || c < r))) continue;  // the pairs i > j
      const double dist = __dsqrt_rn(s[u][v]);
      if constexpr (W == What::hist) {
        const int b = bucket(a.edges, a.bins, dist);
        if (b >= 0) atomicAdd(&sh_hist[b], 1u);
      } else if constexpr (W == What::count) {
        if (dist <= a.eps) {
          atomicAdd(&rowc[r], 1u);
          atomicAdd(&colc[c], 1u);
          ++mine;
        }
      } else {
        lo = fmin(lo, dist);
        hi = fmax(hi, dist);
      }
    }
  if constexpr (W == What::minmax) {
    atomicMin(reinterpret_cast<unsigned long long*>(a.minmax), (unsigned long long)__double_as_longlong(lo));
    atomicMax(reinterpret_cast<unsigned long long*>(a.minmax) + 1, (unsigned long long)__double_as_longlong(hi));
    return;
  }
  if constexpr (W == What::count)
    if (mine) atomicAdd(a.total, mine);
  __syncthreads();
  if constexpr (W == What::hist) {
    for (int b = tid; b < a.bins; b += tx_n * tx_n)
      if (sh_hist[b]) atomicAdd(&a.hist[b], (unsigned long long)sh_hist[b]);
  } else {
    for (int k = tid; k < side; k += tx_n * tx_n) {
      if (rowc[k] && r0 + k < a.N) atomicAdd(&a.counts[r0 + k], rowc[k]);
      if (colc[k] && c0 + k < a.N) atomicAdd(&a.counts[c0 + k], colc[k]);
    }
  }
}

constexpr int replay_threads = 256;
constexpr int replay_kc = 8;  // features of a pair's two rows staged at once (a warp: 32 pairs, 64 rows)
// A warp replays 32 pairs at a time. Their 64 rows are staged through shared memory replay_kc features at a time,
// 32 / replay_kc rows a load (replay_kc lanes a row: coalesced), and each lane then sums its own pair's features in
// order from there: the header's float64 sum step for step (add_square, k ascending, as the tiles' kernel), so a
// pair's d2 is the all-pairs kernel's bit for bit. (One thread a pair reading its two rows from global memory made
// every warp load touch 32 rows: L1 / L2 traffic bound, ncu_gram.csv's fp64-replay row of 77686d7.)
template <What W>
__global__ void __launch_bounds__(replay_threads) replay_kernel(Args a, const unsigned long long* __restrict__ pairs,
                                                               const unsigned long long* n_dev, unsigned long long cap) {
  __shared__ unsigned sh_hist[W == What::hist ? hist_max : 1];
  __shared__ float rows[replay_threads / 32][2][32][replay_kc + 1];  // [warp][i or j][pair][feature]: odd rows
  const unsigned long long n = *n_dev < cap ? *n_dev : cap;
  if constexpr (W == What::hist) {
    for (int b = threadIdx.x; b < a.bins; b += replay_threads) sh_hist[b] = 0;
    __syncthreads();
  }
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  float(*const st)[32][replay_kc + 1] = rows[w];
  const unsigned long long warps = (unsigned long long)gridDim.x * (replay_threads / 32);
  unsigned long long mine = 0;
  for (unsigned long long base = (blockIdx.x * (unsigned long long)(replay_threads / 32) + w) * 32; base < n;
       base += warps * 32) {  // the whole warp, uniformly
    const bool live = base + lane < n;
    const unsigned long long key = live ? pairs[base + lane] : 0ull;
    const i64 i = i64(key >> 32), j = i64(key & 0xffffffffull);
    double s = 0;
    for (int k0 = 0; k0 < a.d; k0 += replay_kc) {
      const int kn = a.d - k0 < replay_kc ? a.d - k0 : replay_kc;
      for (int it = 0; it < 2 * replay_kc; ++it) {  // the 64 x replay_kc cells, 32 a load: row slot, feature
        const int cell = it * 32 + lane, slot = cell / replay_kc, c = cell % replay_kc, p = slot % 32, side = slot / 32;
        const i64 ri = __shfl_sync(0xffffffffu, i, p), rj = __shfl_sync(0xffffffffu, j, p);  // pair p's rows
        st[side][p][c] = c < kn ? __ldg(a.X + (side == 0 ? ri : rj) * a.d + k0 + c) : 0.0f;
      }
      __syncwarp();
      for (int c = 0; c < kn; ++c) s = add_square(s, double(st[0][lane][c]), double(st[1][lane][c]));
      __syncwarp();
    }
    if (!live) continue;
    const double dist = __dsqrt_rn(s);
    if constexpr (W == What::hist) {
      const int b = bucket(a.edges, a.bins, dist);
      if (b >= 0) atomicAdd(&sh_hist[b], 1u);
    } else if (dist <= a.eps) {
      atomicAdd(&a.counts[i], 1u);
      atomicAdd(&a.counts[j], 1u);
      ++mine;
    }
  }
  if constexpr (W == What::hist) {
    __syncthreads();
    for (int b = threadIdx.x; b < a.bins; b += replay_threads)
      if (sh_hist[b]) atomicAdd(&a.hist[b], (unsigned long long)sh_hist[b]);
  } else {
    for (int o = 16; o > 0; o /= 2) mine += __shfl_down_sync(0xffffffffu, mine, o);
    if (threadIdx.x % 32 == 0 && mine) atomicAdd(a.total, mine);
  }
}
template <What W>
cudaError_t launch_replay(const Args& a, const unsigned long long* pairs, const unsigned long long* n,
                          unsigned long long cap, cudaStream_t s) {
  if (a.N < 2 || a.d < 1 || !a.X || !n || (cap && !pairs)) return cudaErrorInvalidValue;
  if (cap == 0) return cudaSuccess;
  int dev = 0, sms = 0;
  if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  if (const cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev); e != cudaSuccess) return e;
  const unsigned long long want = (cap + replay_threads - 1) / replay_threads, most = 8ull * unsigned(sms);
  replay_kernel<W><<<unsigned(want < most ? want : most), replay_threads, 0, s>>>(a, pairs, n, cap);
  return cudaGetLastError();
}

template <What W> cudaError_t launch(const Args& a, cudaStream_t s) {
  if (a.N < 2 || a.d < 1 || !a.X) return cudaErrorInvalidValue;
  tdmaps::TileMap<tdmaps::LTM_E> tiles;
  try {
    tiles = tdmaps::TileMap<tdmaps::LTM_E>::make((a.N + side - 1) / side);
  } catch (const std::exception&) {
    return cudaErrorInvalidValue;  // past LTM-E's range over the tiles
  }
  const tdmaps::Dim3 g = tiles.grid();
  exact_kernel<W><<<dim3(g.x, g.y, g.z), dim3(tx_n, tx_n), 0, s>>>(a, tiles);
  return cudaGetLastError();
}

}  // namespace

cudaError_t histogram(const float* X, i64 N, int d, const double* edges, int bins, unsigned long long* hist, cudaStream_t s) {
  if (!edges || !hist || bins < 1 || bins > hist_max) return cudaErrorInvalidValue;
  return launch<What::hist>(Args{X, N, d, edges, bins, hist, 0, nullptr, nullptr, nullptr}, s);
}
cudaError_t radius_count(const float* X, i64 N, int d, double eps, unsigned* counts, unsigned long long* total, cudaStream_t s) {
  if (!counts || !total) return cudaErrorInvalidValue;
  return launch<What::count>(Args{X, N, d, nullptr, 0, nullptr, eps, counts, total, nullptr}, s);
}
cudaError_t replay_count(const float* X, i64 N, int d, double eps, const unsigned long long* pairs,
                         const unsigned long long* n, unsigned long long cap, unsigned* counts,
                         unsigned long long* total, cudaStream_t s) {
  if (!counts || !total) return cudaErrorInvalidValue;
  return launch_replay<What::count>(Args{X, N, d, nullptr, 0, nullptr, eps, counts, total, nullptr}, pairs, n, cap, s);
}
cudaError_t replay_histogram(const float* X, i64 N, int d, const double* edges, int bins,
                             const unsigned long long* pairs, const unsigned long long* n, unsigned long long cap,
                             unsigned long long* hist, cudaStream_t s) {
  if (!edges || !hist || bins < 1 || bins > hist_max) return cudaErrorInvalidValue;
  return launch_replay<What::hist>(Args{X, N, d, edges, bins, hist, 0, nullptr, nullptr, nullptr}, pairs, n, cap, s);
}
cudaError_t minmax(const float* X, i64 N, int d, double* out, cudaStream_t s) {
  if (!out) return cudaErrorInvalidValue;
  return launch<What::minmax>(Args{X, N, d, nullptr, 0, nullptr, 0, nullptr, nullptr, out}, s);
}

}  // namespace gram::exact
