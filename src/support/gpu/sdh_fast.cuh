// src/support/gpu/sdh_fast.cuh — SDH on the GPU: the fast persistent kernel (fast-*): LTM-E
// walk over tile pairs, register tile, threshold buckets, histogram modes lane,
// thread and block (HistMode, FastLayout, k_fast<T, R, HM, Clamp> and its device
// helpers). Part of the umbrella src/support/gpu/sdh.cuh (overview of the modes there).
#pragma once
#include "sdh_device.cuh"
#include <registry/sdh_rungs.hpp>  // HistMode

namespace tdmaps::gpu::sdh {

// sqrt.approx.ftz.f32: one MUFU.SQRT. A subnormal s flushes to 0 and gives the
// estimate 0, which is still within one of the true bucket because validate()
// requires w >= 1e-18 (sqrt of a subnormal is below 1.1e-19).
__device__ __forceinline__ float sqrt_approx(float x) {
  float y;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// ---- fast: persistent LTM-E walk, register tile, threshold buckets ------------------------
// HistMode (hm_lane, hm_thread, hm_block): registry/sdh_rungs.hpp, where the rungs name theirs

// Shared memory of the fast kernel: the j-tile (P float4), then the table/counters.
//   lane:   row k (k = 0..B-1) = 64 words: [T_{k+1} x 32 lanes][count(k, lane) x 32]
//   thread: thr[k][32] (B rows) then count[k][T]
//   block:  thr[k][32] (B rows) then count[k]
template <int T, int R, int HM>
struct FastLayout {
  static constexpr int P = T * R;
  __host__ __device__ static size_t table_words(u32 B) {
    if (HM == hm_lane) return size_t(B) * 64;
    if (HM == hm_thread) return size_t(B) * 32 + size_t(B) * T;
    return size_t(B) * 32 + B;
  }
  __host__ __device__ static size_t smem_bytes(u32 B) { return size_t(P) * 16 + table_words(B) * 4; }
  // Largest increment one tile pair can add to one 32-bit counter.
  static u64 per_tile_max() {
    if (HM == hm_lane) return u64(T / 32) * R * P;
    if (HM == hm_thread) return u64(R) * P;
    return u64(T) * R * P;
  }
};

template <int T, int HM>
__device__ __forceinline__ void fast_flush(u32* tab, u32 B, ull* hist) {
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (HM == hm_block) {
    u32* cnt = tab + size_t(B) * 32;
    for (u32 k = threadIdx.x; k < B; k += T) {
      const u32 v = cnt[k];
      cnt[k] = 0;
      if (v) atomicAdd(hist + k, ull(v));
    }
  } else {
    for (u32 k = warp; k < B; k += T / 32) {
      ull v = 0;
      if (HM == hm_lane) {
        u32* c = tab + size_t(k) * 64 + 32 + lane;
        v = *c;
        *c = 0;
      } else {
        u32* c = tab + size_t(B) * 32 + size_t(k) * T;
        for (int t = lane; t < T; t += 32) { v += c[t]; c[t] = 0; }
      }
      for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
      if (lane == 0 && v) atomicAdd(hist + k, v);
    }
  }
  __syncthreads();
}

// Shared-memory accesses by 32-bit shared-window address, so that the table and
// counter addresses of a pair cost one integer instruction (the per-thread part,
// the shared base and the magic bits of the estimate are folded into one constant).
// The threshold table is written before the first __syncthreads of the tile loop and
// never changes after: its load is a pure function of the address (not volatile),
// so the compiler may interleave the loads of several pairs.
__device__ __forceinline__ float lds_f32(u32 a) {
  float v;
  asm("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(a));
  return v;
}
__device__ __forceinline__ u32 lds_u32(u32 a) {
  u32 v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));
  return v;
}
__device__ __forceinline__ void sts_u32(u32 a, u32 v) { asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v)); }
__device__ __forceinline__ void red_inc(u32 a) { asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(a)); }
__device__ __forceinline__ void red_inc_128(u32 a) { asm volatile("red.shared.add.u32 [%0+128], 1;" ::"r"(a)); }

// Per-thread address constants of the fast kernel (u32 wrap-around arithmetic: the
// estimate's bits b = 0x4B400000 + k0 enter as b * row_bytes, and the constant
// subtracts 0x4B400000 * row_bytes).
struct FastAddr {
  u32 thr;  // byte address of T_{k0+1} for this lane = b * thr_row + thr
  u32 cnt;  // byte address of counter (k0, this thread/lane) = b * cnt_row + cnt
};
template <int T, int HM>
__device__ __forceinline__ FastAddr fast_addr(const u32* tab, u32 B) {
  const u32 base = u32(__cvta_generic_to_shared(tab));
  const u32 lane = threadIdx.x & 31, M = tdmaps::sdh::est_magic_bits;
  FastAddr a;
  if (HM == hm_lane) {  // row k: [thr x32][cnt x32], 256 bytes
    a.thr = base + lane * 4u - M * 256u;
    a.cnt = a.thr + 128u;
  } else if (HM == hm_thread) {  // thr[k][32] (128 B rows), then cnt[k][T]
    a.thr = base + lane * 4u - M * 128u;
    a.cnt = base + B * 128u + threadIdx.x * 4u - M * u32(T * 4);
  } else {  // thr[k][32], then cnt[k]
    a.thr = base + lane * 4u - M * 128u;
    a.cnt = base + B * 128u - M * 4u;
  }
  return a;
}

// One pair's count. `ok` false: nothing is counted (generic tiles only).
template <int T, int HM, bool Clamp>
__device__ __forceinline__ void fast_count(float s, float c, u32 lim_bits, FastAddr fa, bool ok = true) {
  u32 b = tdmaps::sdh::est_bits(sqrt_approx(s), c);  // 0x4B400000 + floor(y*c)
  if (Clamp) b = min(b, lim_bits);
  if (HM == hm_lane) {
    u32 a = b * 256u + fa.thr;                 // T_{k0+1}, this lane
    if (s >= lds_f32(a)) a += 256u;            // k = k0 + 1
    if (ok) red_inc_128(a);                    // counter (k, lane) = a + 128
  } else {
    const bool up = s >= lds_f32(b * 128u + fa.thr);
    if (HM == hm_thread) {
      u32 a = b * u32(T * 4) + fa.cnt;
      if (up) a += u32(T * 4);
      if (ok) sts_u32(a, lds_u32(a) + 1u);     // private to this thread: no atomic
    } else {
      u32 a = b * 4u + fa.cnt;
      if (up) a += 4u;
      if (ok) red_inc(a);
    }
  }
}

// The j tile: points jbase .. jbase + T*R - 1 of src into shared memory, zeros past N (one a thread a step;
// k_fast, k_band and the Gram rungs' gram_load share it). The caller's barriers frame it.
template <int T, int R>
__device__ __forceinline__ void load_tile(float4* tile, const float4* __restrict__ src, int N, int jbase, int tid) {
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int j = jbase + tid + r * T;
    tile[tid + r * T] = j < N ? src[j] : make_float4(0.f, 0.f, 0.f, 0.f);
  }
}

// s of one pair by the pinned or the fused rule (apps/sdh_cpu.hpp).
template <bool Fused>
__device__ __forceinline__ float pair_s(float x, float y, float z, float4 q) {
  return Fused ? tdmaps::sdh::dist2_fma(x, y, z, q.x, q.y, q.z) : tdmaps::sdh::dist2(x, y, z, q.x, q.y, q.z);
}

// Fused: the fused rule's s (tdmaps::sdh::dist2_fma, the fast-fma rungs) instead of the pinned one.
template <int T, int R, int HM, bool Clamp, bool Fused = false>
__global__ void __launch_bounds__(T) k_fast(LTM_E::Params p, u64 lam_begin, u64 lam_end, const float4* __restrict__ pts,
                                            const float* __restrict__ thr_g, u32 B, float c, u32 flush_every,
                                            ull* hist) {
  using L = FastLayout<T, R, HM>;
  constexpr int P = L::P;
  extern __shared__ float4 smem4[];
  float4* tile = smem4;
  u32* tab = reinterpret_cast<u32*>(smem4 + P);
  const int tid = threadIdx.x;
  const int N = int(p.N);

  // table: row k holds T_{k+1} for every lane; counters zero
  for (u32 e = tid; e < u32(L::table_words(B)); e += T) {
    u32 v = 0;
    if (HM == hm_lane) {
      if ((e & 63u) < 32u) v = __float_as_uint(thr_g[(e >> 6) + 1]);
    } else if (e < B * 32u) {
      v = __float_as_uint(thr_g[(e >> 5) + 1]);
    }
    tab[e] = v;
  }
  const FastAddr fa = fast_addr<T, HM>(tab, B);
  const u32 lim_bits = tdmaps::sdh::est_magic_bits + (B - 1);

  u32 since = 0;
  // The tile pairs lambda in [lam_begin, lam_end): the whole plan [0, p.total) on one GPU,
  // or one worker's range of tdmaps/partition.hpp (experiments/multigpu).
  for (u64 lam = lam_begin + blockIdx.x; lam < lam_end; lam += gridDim.x) {
    const Cell2 bc = LTM_E::g(lam);  // tile row bi >= tile column bj
    const int ibase = int(bc.i) * P, jbase = int(bc.j) * P;
    float xi[R], yi[R], zi[R];
    int lim[R];
    const int nj = min(P, N - jbase);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int i = ibase + tid + r * T;
      const float4 a = i < N ? pts[i] : make_float4(0.f, 0.f, 0.f, 0.f);
      xi[r] = a.x; yi[r] = a.y; zi[r] = a.z;
      lim[r] = i < N ? min(i - jbase, nj) : 0;  // j (tile-local) < lim[r]: pair counted
    }
    __syncthreads();  // the previous tile is no longer read
    load_tile<T, R>(tile, pts, N, jbase, tid);
    __syncthreads();
    if (bc.i != bc.j && ibase + P <= N) {
      // full off-diagonal tile pair: P x P pairs, no predicates
#pragma unroll 4
      for (int j = 0; j < P; ++j) {
        const float4 q = tile[j];
#pragma unroll
        for (int r = 0; r < R; ++r)
          fast_count<T, HM, Clamp>(pair_s<Fused>(xi[r], yi[r], zi[r], q), c, lim_bits, fa);
      }
    } else {
      // diagonal or last (partial) tile pair
      for (int j = 0; j < nj; ++j) {
        const float4 q = tile[j];
#pragma unroll
        for (int r = 0; r < R; ++r)
          fast_count<T, HM, Clamp>(pair_s<Fused>(xi[r], yi[r], zi[r], q), c, lim_bits, fa, j < lim[r]);
      }
    }
    if (++since >= flush_every) {
      fast_flush<T, HM>(tab, B, hist);
      since = 0;
    }
  }
  fast_flush<T, HM>(tab, B, hist);
}

}  // namespace tdmaps::gpu::sdh
