// src/support/gpu/sdh_ladder.cuh — SDH on the GPU: the optimisation ladder of the seed
// report (004_aba88004bd1c502c.txt), v1-plain, v2-shared, v3-balanced, v4-soa and
// v5-tiled (k_v1, k_v2, k_balanced<SoA>, k_v5). Part of the umbrella src/support/gpu/sdh.cuh.
#pragma once
#include "sdh_device.cuh"

namespace tdmaps::gpu::sdh {

// ---- v1: plain ---------------------------------------------------------------------------
__global__ void k_v1(const Point* __restrict__ p, int N, float w, u32 B, ull* hist) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const Point a = p[i];
  for (int j = i + 1; j < N; ++j) {
    const Point b = p[j];
    atomicAdd(hist + tdmaps::sdh::bucket(tdmaps::sdh::dist2(a, b), w, B), 1ull);
  }
}

// ---- v2: shared private histogram -------------------------------------------------------
__global__ void k_v2(const Point* __restrict__ p, int N, float w, u32 B, ull* hist) {
  extern __shared__ u32 sh[];
  zero_shared(sh, B);
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const Point a = p[i];
    for (int j = i + 1; j < N; ++j) atomicAdd(sh + tdmaps::sdh::bucket(tdmaps::sdh::dist2(a, p[j]), w, B), 1u);
  }
  __syncthreads();
  flush_block_hist(sh, B, hist);
}

// ---- v3 / v4: divergence control (balanced circular pairing), AoS or SoA ----------------
// Thread i pairs with i + d (mod N) for d = 1 .. half, half = (N-1)/2; when N is even
// the pair at d = N/2 is taken by i < N/2 only. Every unordered pair exactly once.
template <bool SoA>
__global__ void k_balanced(const Point* __restrict__ p, const float* __restrict__ X, const float* __restrict__ Y,
                           const float* __restrict__ Z, int N, float w, u32 B, ull* hist) {
  extern __shared__ u32 sh[];
  zero_shared(sh, B);
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float ax, ay, az;
    if constexpr (SoA) { ax = X[i]; ay = Y[i]; az = Z[i]; }
    else { ax = p[i].x; ay = p[i].y; az = p[i].z; }
    const int half = (N - 1) / 2;
    const int last = ((N & 1) == 0 && i < N / 2) ? half + 1 : half;
    int j = i;
    for (int d = 1; d <= last; ++d) {
      if (++j == N) j = 0;
      float bx, by, bz;
      if constexpr (SoA) { bx = X[j]; by = Y[j]; bz = Z[j]; }
      else { bx = p[j].x; by = p[j].y; bz = p[j].z; }
      atomicAdd(sh + tdmaps::sdh::bucket(tdmaps::sdh::dist2(ax, ay, az, bx, by, bz), w, B), 1u);
    }
  }
  __syncthreads();
  flush_block_hist(sh, B, hist);
}

// ---- v5: the report's tiling --------------------------------------------------------------
// Shared: histogram[B] then the tile (x[T], y[T], z[T]).
__global__ void k_v5(const float* __restrict__ X, const float* __restrict__ Y, const float* __restrict__ Z, int N,
                     float w, u32 B, ull* hist) {
  extern __shared__ u32 sh[];
  const int T = blockDim.x, t = threadIdx.x;
  float* tx = reinterpret_cast<float*>(sh + B);
  float* ty = tx + T;
  float* tz = ty + T;
  zero_shared(sh, B);
  const int i = blockIdx.x * T + t;
  const float ax = i < N ? X[i] : 0.0f, ay = i < N ? Y[i] : 0.0f, az = i < N ? Z[i] : 0.0f;
  tx[t] = ax; ty[t] = ay; tz[t] = az;
  __syncthreads();
  // pairs inside the anchor tile: (i, j), j > i
  if (i < N) {
    const int nj = min(T, N - int(blockIdx.x) * T);
    for (int j = t + 1; j < nj; ++j)
      atomicAdd(sh + tdmaps::sdh::bucket(tdmaps::sdh::dist2(ax, ay, az, tx[j], ty[j], tz[j]), w, B), 1u);
  }
  // the anchor tile against every later tile
  for (int b = blockIdx.x + 1; b < int(gridDim.x); ++b) {
    __syncthreads();
    const int jj = b * T + t;
    if (jj < N) { tx[t] = X[jj]; ty[t] = Y[jj]; tz[t] = Z[jj]; }
    __syncthreads();
    if (i < N) {
      const int nj = min(T, N - b * T);
      for (int j = 0; j < nj; ++j)
        atomicAdd(sh + tdmaps::sdh::bucket(tdmaps::sdh::dist2(ax, ay, az, tx[j], ty[j], tz[j]), w, B), 1u);
    }
  }
  __syncthreads();
  flush_block_hist(sh, B, hist);
}

}  // namespace tdmaps::gpu::sdh
