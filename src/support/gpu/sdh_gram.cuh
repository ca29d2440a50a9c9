// src/support/gpu/sdh_gram.cuh — SDH on the GPU: the Gram kernel (fast-gram, issue #26), the rung
// after fast-fma. fast-lane's persistent LTM-E walk, tiles, threshold buckets and per-lane counters
// (sdh_fast.cuh: FastLayout, fast_addr, fast_count, fast_flush in mode lane), but the squared
// distance by the Gram rule (apps/sdh_cpu.hpp, gram_s / dist2_gram):
//
//   s = |fma(a.x, q.x, fma(a.y, q.y, fma(a.z, q.z, n_i + q.w)))|     FADD + 3 FFMA
//
// where each thread keeps a = -2 c_i and n_i = |c_i|^2 of its R points in registers and the j
// tile holds (c_j, n_j) as one float4 (one broadcast LDS.128 serves R pairs); c = p - o are the
// points centred on their bounding box's middle, computed once on the host (gram_points), so
// the kernel's s is the host oracle's bit for bit. The absolute value is free (an operand
// modifier of MUFU.SQRT and FSETP). The bucket is the threshold form of every fast kernel:
// exactly the pinned rule's sqrt, division and truncation applied to this s.
#pragma once
#include "sdh_fast.cuh"

namespace tdmaps::gpu::sdh {

// One tile pair's operands: this thread's R points i as a = -2 c_i and n_i in registers, and the
// j tile's (c_j, n_j) in shared memory (zeros past N); the closing barrier, and the opening one
// (the previous tile no longer read) unless the caller has one (Sync0 = false). Shared by k_gram
// and k_gram2 (sdh_gram2.cuh).
template <int T, int R, bool Sync0 = true>
__device__ __forceinline__ void gram_load(const float4* __restrict__ pg, int N, int ibase, int jbase, int tid,
                                          float (&ax)[R], float (&ay)[R], float (&az)[R], float (&an)[R],
                                          float4* tile) {
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = ibase + tid + r * T;
    const float4 a = i < N ? pg[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    ax[r] = -2.0f * a.x; ay[r] = -2.0f * a.y; az[r] = -2.0f * a.z; an[r] = a.w;
  }
  if (Sync0) __syncthreads();  // the previous tile is no longer read
  load_tile<T, R>(tile, pg, N, jbase, tid);
  __syncthreads();
}

// Pairs of one full off-diagonal tile pair per loop iteration: J columns j (R pairs each).
template <int T, int R, bool Clamp, int J>
__device__ __forceinline__ void gram_full_tile(const float4* tile, const float (&ax)[R], const float (&ay)[R],
                                               const float (&az)[R], const float (&an)[R], float c, u32 lim_bits,
                                               FastAddr fa) {
  constexpr int P = T * R;
#pragma unroll J
  for (int j = 0; j < P; ++j) {
    const float4 q = tile[j];
#pragma unroll
    for (int r = 0; r < R; ++r)
      fast_count<T, hm_lane, Clamp>(fabsf(tdmaps::sdh::gram_s(ax[r], ay[r], az[r], an[r], q.x, q.y, q.z, q.w)), c,
                                    lim_bits, fa);
  }
}

// A diagonal or last (partial) tile pair: pair (i, j) counted when j < i - jbase (and j < nj), each by fast_count's
// threshold form from `scale` (k_gram: its estimate's c; k_gram2: c_lo, exact because K is k_lo or k_lo + 1). Shared
// by k_gram and k_gram2 (sdh_gram2.cuh), on the kernels' locals (tile, ax .. an, N, ibase, jbase, nj, tid, lim_bits,
// fa). A macro: as an inline function it left k_gram's SASS as it was but rescheduled k_gram2's (cuobjdump).
#define TD_SDH_GRAM_PARTIAL_TILE(scale)                                                                              \
  for (int j = 0; j < nj; ++j) {                                                                                     \
    const float4 q = tile[j];                                                                                        \
    _Pragma("unroll") for (int r = 0; r < R; ++r) {                                                                  \
      const int i = ibase + tid + r * T;                                                                             \
      const bool ok = i < N && j < i - jbase;                                                                        \
      fast_count<T, hm_lane, Clamp>(fabsf(tdmaps::sdh::gram_s(ax[r], ay[r], az[r], an[r], q.x, q.y, q.z, q.w)), scale, \
                                    lim_bits, fa, ok);                                                               \
    }                                                                                                                \
  }

// N points; pg: the Gram points (c, n) of apps/sdh_cpu.hpp gram_points; tile pairs
// lambda in [lam_begin, lam_end) of LTM_E over tiles of T*R points (as k_fast).
template <int T, int R, bool Clamp, int J = 4>
__global__ void __launch_bounds__(T) k_gram(int N, u64 lam_begin, u64 lam_end, const float4* __restrict__ pg,
                                            const float* __restrict__ thr_g, u32 B, float c, u32 flush_every,
                                            ull* hist) {
  using L = FastLayout<T, R, hm_lane>;
  constexpr int P = L::P;
  extern __shared__ float4 smem4[];
  float4* tile = smem4;
  u32* tab = reinterpret_cast<u32*>(smem4 + P);
  const int tid = threadIdx.x;

  // table: row k holds T_{k+1} for every lane, then the 32 lanes' counters (zero)
  for (u32 e = tid; e < u32(L::table_words(B)); e += T) tab[e] = (e & 63u) < 32u ? __float_as_uint(thr_g[(e >> 6) + 1]) : 0u;
  const FastAddr fa = fast_addr<T, hm_lane>(tab, B);
  const u32 lim_bits = tdmaps::sdh::est_magic_bits + (B - 1);

  u32 since = 0;
  for (u64 lam = lam_begin + blockIdx.x; lam < lam_end; lam += gridDim.x) {
    const Cell2 bc = LTM_E::g(lam);  // tile row bi >= tile column bj
    const int ibase = int(bc.i) * P, jbase = int(bc.j) * P;
    float ax[R], ay[R], az[R], an[R];
    const int nj = min(P, N - jbase);
    gram_load<T, R>(pg, N, ibase, jbase, tid, ax, ay, az, an, tile);
    if (bc.i != bc.j && ibase + P <= N) {
      gram_full_tile<T, R, Clamp, J>(tile, ax, ay, az, an, c, lim_bits, fa);  // P x P pairs, no predicates
    } else {
      TD_SDH_GRAM_PARTIAL_TILE(c);  // diagonal or last (partial) tile pair
    }
    if (++since >= flush_every) {
      fast_flush<T, hm_lane>(tab, B, hist);
      since = 0;
    }
  }
  fast_flush<T, hm_lane>(tab, B, hist);
}

}  // namespace tdmaps::gpu::sdh
