// src/support/gpu/sdh_band.cuh — SDH on the GPU: the band kernel (band-*, issue #26), the rung
// after fast-lane. Same persistent LTM-E walk, register tile and per-lane shared
// counters as k_fast (sdh_fast.cuh), but a pair costs 12 instructions instead of 15:
//
//   s' = ((n_i + n_j) - 2 c_i.x c_j.x ...)  one FADD + three FFMA on centred points
//        c = p - o and their squared norms n = |c|^2 (the j tile holds (c_j, n_j),
//        each thread -2 c_i and n_i), instead of the rule's 3 FADD + 3 FMUL + 2 FADD;
//   k0 = floor(sqrt.approx(|s'|) * cb)      MUFU + FFMA.RM (cb = (1 - mu) / w);
//   a  = k0 * 256 + lane constant           IMAD: row k0 = [T_{k0+1} x32][count x32];
//   D  = s' - T_{k0+1}                      LDS + FADD;
//   count (k0, lane) += 0x10000 + sign(D)   LEA.HI + RED: the high half counts the pairs
//        whose estimate is k0, the low half those of them that stay in k0 (D < 0);
//        bucket k = low(k) + high(k-1) - low(k-1), summed at the flush;
//   ambiguous |= |D| < Eb                   FSETP.OR.
//
// s' is not the rule's s (sdh_cpu.hpp), but |s' - s| <= E with E proven on the host from
// the point set (band_params below: the norm trick's cancellation, the centring and the
// rule's own five roundings), so [s >= T] = [D >= 0] whenever |D| >= Eb > E. A pair with
// |D| < Eb (about 2 in 10^4 at the default box and width) is ambiguous: once per j the
// warp votes, and a warp with an ambiguous pair recounts exactly those pairs with the
// rule itself (fsqrt_rn, fdiv_rn on the original points): undo its packed count, add it
// to the rule's bucket. So the histogram is the rule's, bit for bit, for every point set
// the host accepts (band_params says when the proof's conditions fail: then the
// implementation cannot run and says why).
//
// The estimate: with mu >= e_sq + E/(2 w^2) + 2^-16 (e_sq = 2^-13 bounds sqrt.approx's
// relative error, as for fast-*), k0 <= k for every pair; with
// (B - 1) (e_sq + mu + E/(4 w^2) + 2^-20) <= 1, k0 >= k - 1 (NOTES.md, "band"). So one
// threshold decides every pair that is not ambiguous.
#pragma once
#include "sdh_fast.cuh"

#include <cmath>
#include <string>

namespace tdmaps::gpu::sdh {

// Host-side parameters of the band kernel for one point set (and why it cannot run).
struct BandParams {
  float ox = 0, oy = 0, oz = 0;  // centre o (float)
  float cb = 0;                  // (1 - mu) / w, rounded down
  float Eb = 0;                  // ambiguity band: |D| < Eb recounts exactly; Eb > E
  double E = 0, mu = 0;          // the proven bound on |s' - s| and the estimate's margin
  std::string why;               // "" = applicable
};

// Shared memory of k_band: tile (P float4: c, n), table rows (64 words each), then two
// 64-bit block histograms (stay in k0 / step up), B each.
template <int T, int R>
struct BandLayout {
  static constexpr int P = T * R;
  __host__ __device__ static size_t table_words(u32 B) { return size_t(B) * 64; }
  __host__ __device__ static size_t smem_bytes(u32 B) { return size_t(P) * 16 + table_words(B) * 4 + size_t(B) * 16; }
  // Largest increment one tile pair adds to the high half of one packed counter.
  static constexpr u64 per_tile_max() { return u64(T / 32) * R * P; }
  static_assert(u64(T / 32) * R * P < 65536, "band: packed 16-bit counters must hold one tile pair");
};

__device__ __forceinline__ void red_add_128(u32 a, u32 v) { asm volatile("red.shared.add.u32 [%0+128], %1;" ::"r"(a), "r"(v)); }

// The exact recount of one ambiguous pair (i, j): undo its packed count at row address a
// (counter at a + 128) and count it in the rule's bucket (stays there: 0x10001).
__device__ __forceinline__ void band_fix(u32 a, float D, const float4* __restrict__ pts, int i, int j, float w, u32 B,
                                      u32 cnt0) {
  const float4 p = pts[i], q = pts[j];
  const u32 k = tdmaps::sdh::bucket(tdmaps::sdh::dist2(p.x, p.y, p.z, q.x, q.y, q.z), w, B);
  const u32 v = 0x10000u + (__float_as_uint(D) >> 31);
  asm volatile("red.shared.add.u32 [%0+128], %1;" ::"r"(a), "r"(0u - v));
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(cnt0 + k * 256u), "r"(0x10001u));
}

// One pair of the fast path: s' from the centred points, the estimate's row address a
// (T_{k0+1} of this lane; its counter at a + 128) and D = s' - T_{k0+1}.
template <bool Clamp>
__device__ __forceinline__ void band_pair(float ax, float ay, float az, float ni, float4 q, float cb, u32 lim_bits,
                                          u32 thr, float& D, u32& a) {
  float t = __fadd_rn(ni, q.w);
  t = __fmaf_rn(az, q.z, t);
  t = __fmaf_rn(ay, q.y, t);
  const float s = __fmaf_rn(ax, q.x, t);
  u32 b = tdmaps::sdh::est_bits(sqrt_approx(fabsf(s)), cb);
  if (Clamp) b = min(b, lim_bits);
  a = b * 256u + thr;
  D = __fsub_rn(s, lds_f32(a));
}

// Moves the packed per-lane counters into the block's 64-bit histograms and zeroes them.
template <int T>
__device__ __forceinline__ void band_flush(u32* tab, u32 B, ull* hb_stay, ull* hb_up) {
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (u32 k = warp; k < B; k += T / 32) {
    u32* c = tab + size_t(k) * 64 + 32 + lane;
    const u32 v = *c;
    *c = 0;
    const u32 stay = v & 0xffffu, up = (v >> 16) - stay;
    ull x = (ull(up) << 32) | stay;  // lane sums stay below 2^32 (32 x 2^16)
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
    if (lane == 0) {
      hb_stay[k] += x & 0xffffffffull;
      hb_up[k] += x >> 32;
    }
  }
  __syncthreads();
}

// pc: centred points (c, n = |c|^2); pts: the original points (exact recount only).
// Blocks per SM the register budget must allow: R = 4 caps the registers at 64 (32 warps per
// SM) so that the short-scoreboard latency of the dependent MUFU and LDS is hidden (uncapped:
// 74 registers, 24 warps, issue slots 72 % active, ncu on the H100); R = 8 spills under that cap
// and keeps its 128 registers (16 warps).
constexpr int band_min_blocks(int T, int R) { return R <= 4 ? 1024 / T : 1; }

template <int T, int R, bool Clamp>
__global__ void __launch_bounds__(T, band_min_blocks(T, R)) k_band(LTM_E::Params p, u64 lam_begin, u64 lam_end, const float4* __restrict__ pc,
                                            const float4* __restrict__ pts, const float* __restrict__ thr_g, u32 B,
                                            float cb, float Eb, float w, ull* hist) {
  using L = BandLayout<T, R>;
  constexpr int P = L::P;
  extern __shared__ float4 smem4[];
  float4* tile = smem4;
  u32* tab = reinterpret_cast<u32*>(smem4 + P);
  ull* hb_stay = reinterpret_cast<ull*>(tab + L::table_words(B));
  ull* hb_up = hb_stay + B;
  const int tid = threadIdx.x;
  const int N = int(p.N);

  for (u32 e = tid; e < u32(L::table_words(B)); e += T)
    tab[e] = (e & 63u) < 32u ? __float_as_uint(thr_g[(e >> 6) + 1]) : 0u;
  for (u32 k = tid; k < 2 * B; k += T) hb_stay[k] = 0;
  const FastAddr fa = fast_addr<T, hm_lane>(tab, B);
  const u32 cnt0 = u32(__cvta_generic_to_shared(tab)) + (tid & 31) * 4u + 128u;  // counter (0, lane)
  const u32 lim_bits = tdmaps::sdh::est_magic_bits + (B - 1);

  for (u64 lam = lam_begin + blockIdx.x; lam < lam_end; lam += gridDim.x) {
    const Cell2 bc = LTM_E::g(lam);
    const int ibase = int(bc.i) * P, jbase = int(bc.j) * P;
    float ax[R], ay[R], az[R], ni[R];
    int lim[R];
    const int nj = min(P, N - jbase);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int i = ibase + tid + r * T;
      const float4 a = i < N ? pc[i] : make_float4(0.f, 0.f, 0.f, 0.f);
      ax[r] = -2.0f * a.x; ay[r] = -2.0f * a.y; az[r] = -2.0f * a.z; ni[r] = a.w;
      lim[r] = i < N ? min(i - jbase, nj) : 0;
    }
    __syncthreads();
    load_tile<T, R>(tile, pc, N, jbase, tid);
    __syncthreads();
    if (bc.i != bc.j && ibase + P <= N) {
      // full off-diagonal tile pair: no predicates; one vote per group of J columns (J*R pairs
      // a lane). (Voting one group later, or keeping only D and recomputing a, measured slower
      // on the H100: 1.50-1.53e12 against 1.75e12 pairs/s at N = 1e6.)
      constexpr int J = 4;
      for (int j0 = 0; j0 < P; j0 += J) {
        float D[J][R];
        u32 a[J][R];
        bool amb = false;
#pragma unroll
        for (int jj = 0; jj < J; ++jj) {
          const float4 q = tile[j0 + jj];
#pragma unroll
          for (int r = 0; r < R; ++r) {
            band_pair<Clamp>(ax[r], ay[r], az[r], ni[r], q, cb, lim_bits, fa.thr, D[jj][r], a[jj][r]);
            red_add_128(a[jj][r], 0x10000u + (__float_as_uint(D[jj][r]) >> 31));
            amb |= fabsf(D[jj][r]) < Eb;
          }
        }
        if (__any_sync(0xffffffffu, amb)) {
#pragma unroll
          for (int jj = 0; jj < J; ++jj)
#pragma unroll
            for (int r = 0; r < R; ++r)
              if (fabsf(D[jj][r]) < Eb) band_fix(a[jj][r], D[jj][r], pts, ibase + tid + r * T, jbase + j0 + jj, w, B, cnt0);
        }
      }
    } else {
      // diagonal or last (partial) tile pair: pair (i, j) counted when j < lim
      for (int j = 0; j < nj; ++j) {
        const float4 q = tile[j];
#pragma unroll
        for (int r = 0; r < R; ++r) {
          if (j >= lim[r]) continue;
          float D;
          u32 a;
          band_pair<Clamp>(ax[r], ay[r], az[r], ni[r], q, cb, lim_bits, fa.thr, D, a);
          red_add_128(a, 0x10000u + (__float_as_uint(D) >> 31));
          if (fabsf(D) < Eb) band_fix(a, D, pts, ibase + tid + r * T, jbase + j, w, B, cnt0);
        }
      }
    }
    band_flush<T>(tab, B, hb_stay, hb_up);  // 16-bit halves: every tile pair
  }
  // bucket k = stay(k) + up(k - 1); row B - 1 never steps up (T_B = +inf)
  __syncthreads();
  for (u32 k = tid; k < B; k += T) {
    const ull v = hb_stay[k] + (k > 0 ? hb_up[k - 1] : 0ull);
    if (v) atomicAdd(hist + k, v);
  }
}

}  // namespace tdmaps::gpu::sdh
