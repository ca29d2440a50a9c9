// src/support/gpu/sdh_tiled.cuh — SDH on the GPU: the tiled kernel, one tile pair per block,
// driven over the pair triangle by a blockwise 2D map (tiled-bb, tiled-ltm-e:
// k_tiled<M>). Part of the umbrella src/support/gpu/sdh.cuh.
#pragma once
#include "sdh_device.cuh"

namespace tdmaps::gpu::sdh {

// ---- tiled, one tile pair per block, mapped by a blockwise 2D map M ----------------------
// Plan: M::plan(N, T) (rho = tile = threads per block); the block's tile pair is
// M::block_cell(plan, 0, blockIdx.x, blockIdx.y) = (bi, bj), bj <= bi. Thread t owns
// point i = bi*T + t and pairs it with the points j of tile bj (j < i on the diagonal).
template <class M>
__global__ void k_tiled(typename M::Params p, const float* __restrict__ X, const float* __restrict__ Y, const float* __restrict__ Z,
                        float w, u32 B, ull* hist) {
  const Cell2 b = M::block_cell(p, 0, blockIdx.x, blockIdx.y);
  if (!b.inside) return;  // BB: discarded block (bj > bi), before any other work
  extern __shared__ u32 sh[];
  const int T = blockDim.x, t = threadIdx.x, N = int(p.N);
  float* tx = reinterpret_cast<float*>(sh + B);
  float* ty = tx + T;
  float* tz = ty + T;
  zero_shared(sh, B);
  const int jbase = int(b.j) * T, i = int(b.i) * T + t;
  const int nj = min(T, N - jbase);
  if (t < nj) { tx[t] = X[jbase + t]; ty[t] = Y[jbase + t]; tz[t] = Z[jbase + t]; }
  __syncthreads();
  if (i < N) {
    const float ax = X[i], ay = Y[i], az = Z[i];
    const int lim = (b.i == b.j) ? t : nj;
    for (int j = 0; j < lim; ++j)
      atomicAdd(sh + tdmaps::sdh::bucket(tdmaps::sdh::dist2(ax, ay, az, tx[j], ty[j], tz[j]), w, B), 1u);
  }
  __syncthreads();
  flush_block_hist(sh, B, hist);
}

}  // namespace tdmaps::gpu::sdh
