// src/support/gpu/sdh_gram2.cuh — SDH on the GPU: the bracket kernel (fast-gram2, issue #26), the
// rung after fast-gram. The same rule (the Gram rule, apps/sdh_cpu.hpp), walk, tiles and per-lane
// counters as k_gram (sdh_gram.cuh), but a pair's bucket costs 6 instructions instead of 7: no
// threshold load, compare and step. The bracket (apps/sdh_cpu.hpp, "the bracket", with its proof):
//
//   y  = sqrt.approx.ftz(|s|)                            MUFU.SQRT (|s|: an operand modifier)
//   lo = bits(rd(y c_lo + 1.5 2^23)) = M + k_lo          FFMA.RM
//   hi = bits(rd(y c_hi + 1.5 2^23)) = M + k_hi          FFMA.RM
//   amb |= lo ^ hi                                       LOP3
//   count (k_hi, lane) += 1                              LEA + ATOMS (optimistic)
//
// k_lo <= K <= k_hi <= k_lo + 1 for the rule's unclamped bucket K (c_lo w <= 1 - 3u - 2^-40 and
// c_hi w >= 1 + 4u + 2^-40 cover the 2^-23 relative error of sqrt.approx.f32 stated by the PTX ISA
// and the rule's two roundings; proof in apps/sdh_cpu.hpp), so a pair with lo == hi is counted in
// its bucket. After each group of J columns (J R pairs a lane) a warp with an ambiguous pair (about
// 1.6 in 10^5 pairs at the default box and width) replays the group: each column's pairs are
// recomputed, and in a column holding an ambiguous pair of the lane, the pairs with lo != hi take
// their optimistic count back and count the threshold form's k_lo + [s >= T_{k_lo+1}] (fast_count
// with c_lo; exact because K is k_lo or k_lo + 1). Pairs past the last bucket: the table has
// `rows` >= B rows, enough for every k_hi of the set (bracket_k_hi_max, host), rows >= B - 1 hold
// the threshold +inf, and the flush adds the counts of rows >= B - 1 to bucket B - 1; where that
// many rows do not fit (tiny w), Clamp caps k_hi at B - 1 with one IMNMX per pair (rows = B).
#pragma once
#include "sdh_gram.cuh"

namespace tdmaps::gpu::sdh {

__device__ __forceinline__ void red_dec_128(u32 a) { asm volatile("red.shared.add.u32 [%0+128], -1;" ::"r"(a)); }


// Where the pairs replayed are counted: a register per thread (ReplayReg), or one shared counter
// per block (ReplayShared: no register held across the tile; an atomic per replayed pair).
struct ReplayReg {
  u32& n;
  __device__ __forceinline__ void add() { ++n; }
};
struct ReplayShared {
  u32* n;
  __device__ __forceinline__ void add() { atomicAdd(n, 1u); }
};

// The exact replay of one group of J columns (rare): every pair recomputed; an ambiguous one
// (lo != hi) moves its optimistic count from k_hi to the threshold form's bucket.
template <int T, int R, bool Clamp, int J, class Replayed>
__device__ __forceinline__ void gram2_replay(const float4* tile, const float (&ax)[R], const float (&ay)[R],
                                          const float (&az)[R], const float (&an)[R], float clo, float chi,
                                          u32 lim_bits, FastAddr fa, Replayed replayed) {
#pragma unroll 1
  for (int jj = 0; jj < J; ++jj) {
    const float4 q = tile[jj];
    float s[R];
    u32 lo[R], hi[R], amb = 0;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      s[r] = fabsf(tdmaps::sdh::gram_s(ax[r], ay[r], az[r], an[r], q.x, q.y, q.z, q.w));
      const float y = sqrt_approx(s[r]);
      lo[r] = tdmaps::sdh::est_bits(y, clo);
      hi[r] = tdmaps::sdh::est_bits(y, chi);
      amb |= lo[r] ^ hi[r];
    }
    if (amb) {  // this column holds an ambiguous pair of this lane
#pragma unroll
      for (int r = 0; r < R; ++r)
        if (lo[r] != hi[r]) {
          red_dec_128((Clamp ? min(hi[r], lim_bits) : hi[r]) * 256u + fa.thr);
          fast_count<T, hm_lane, Clamp>(s[r], clo, lim_bits, fa);
          replayed.add();
        }
    }
  }
}

// Pairs of one full off-diagonal tile pair: groups of J columns j (R pairs each), no predicates.
template <int T, int R, bool Clamp, int J, class Replayed>
__device__ __forceinline__ void gram2_full_tile(const float4* tile, const float (&ax)[R], const float (&ay)[R],
                                                const float (&az)[R], const float (&an)[R], float clo, float chi,
                                                u32 lim_bits, FastAddr fa, Replayed replayed) {
  constexpr int P = T * R;
  static_assert(P % J == 0, "J must divide the tile");
  u32 amb = 0;
#pragma unroll 1
  for (int j0 = 0; j0 < P; j0 += J) {
#pragma unroll
    for (int jj = 0; jj < J; ++jj) {
      const float4 q = tile[j0 + jj];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const float s = tdmaps::sdh::gram_s(ax[r], ay[r], az[r], an[r], q.x, q.y, q.z, q.w);
        const float y = sqrt_approx(fabsf(s));
        const u32 lo = tdmaps::sdh::est_bits(y, clo), hi = tdmaps::sdh::est_bits(y, chi);
        amb |= lo ^ hi;
        red_inc_128((Clamp ? min(hi, lim_bits) : hi) * 256u + fa.thr);
      }
    }
    if (__any_sync(0xffffffffu, amb != 0)) {  // a warp-uniform branch: no reconvergence barrier per group
      gram2_replay<T, R, Clamp, J>(tile + j0, ax, ay, az, an, clo, chi, lim_bits, fa, replayed);
      amb = 0;
    }
  }
}

// The per-lane counters of `rows` rows into the histogram, rows >= B - 1 into bucket B - 1.
template <int T>
__device__ __forceinline__ void gram2_flush(u32* tab, u32 B, u32 rows, ull* hist) {
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (u32 k = warp; k < rows; k += T / 32) {
    u32* c = tab + size_t(k) * 64 + 32 + lane;
    ull v = *c;
    *c = 0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0 && v) atomicAdd(hist + min(k, B - 1), v);
  }
  __syncthreads();
}

// Static shared bytes of k_gram2 (with Dyn: next[2] and replayed, 20 bytes that ptxas lays out in 32;
// cuobjdump -res-usage), for the host's shared-memory checks.
constexpr size_t gram2_static_bytes(bool dyn) { return dyn ? 32 : 0; }

// N points; pg: the Gram points (c, n) of apps/sdh_cpu.hpp gram_points; tile pairs lambda in
// [lam_begin, lam_end) of LTM_E over tiles of T*R points (as k_gram). rows: table rows (>= B;
// = B with Clamp); clo, chi: bracket_scales(w); ambig (may be null): adds the number of pairs
// replayed (static: counted per thread in a register, so that the shared memory is k_gram's, to
// the byte, and six blocks of fast-gram2 still fit on an SM; Dyn: in shared memory, which frees
// the register for the tile's 32-register budget). A diagnostic for gpu_verify_sdh's sizes: exact
// while a block (Dyn) or a warp (static) replays fewer than 2^32 pairs; the histogram does not
// depend on it.
//
// Which block takes which tile pair. Static (Dyn = false): block b takes lambda = b, b + grid, ...
// Every block then has the same number of tile pairs, yet they end at very different times: the
// warp schedulers do not share an SM's issue slots evenly among its blocks (measured on an H200 at
// N = 10^6, fast-gram2-r2: the first block of an SM ends after a third of the run, the last at its
// end; blocks were resident 67 % of the run's block-slots). Dynamic (Dyn = true, fast-gram2-dyn):
// each tile pair goes to the block that asks next, from the counter `work` (zero before the
// launch; atomicAdd by thread 0, one tile pair ahead, handed over in shared memory), so every SM
// keeps all its blocks until the last tile pairs. A block then takes at most flush_every tile
// pairs and flushes once, at its end (no flush in the loop: measured 0.3 % faster on an H200);
// the host's launches (launch_fast_range) hold at most max(1, grid * flush_every / 8) tile pairs,
// so the blocks always suffice, and a block favoured by the warp schedulers (up to about 3x the
// mean rate, measured) does not reach its cap and leave its SM slot idle before the launch ends. Launch bounds: with Dyn, 4 blocks an SM asked of ptxas (32 registers at
// 512 threads; its schedule measured 0.5 % faster than without); the static rungs' are unchanged.
template <int T, int R, bool Clamp, int J = 8, bool Dyn = false>
__global__ void __launch_bounds__(T, Dyn ? 4 : 0) k_gram2(int N, u64 lam_begin, u64 lam_end, const float4* __restrict__ pg,
                                             const float* __restrict__ thr_g, u32 B, u32 rows, float clo, float chi,
                                             u32 flush_every, ull* hist, ull* ambig, ull* work) {
  using L = FastLayout<T, R, hm_lane>;
  constexpr int P = L::P;
  extern __shared__ float4 smem4[];
  float4* tile = smem4;
  u32* tab = reinterpret_cast<u32*>(smem4 + P);
  const int tid = threadIdx.x;

  // row k: T_{k+1} for every lane (+inf from row B - 1 on: thr_g[B] = +inf), then 32 counters
  for (u32 e = tid; e < rows * 64u; e += T) tab[e] = (e & 63u) < 32u ? __float_as_uint(thr_g[min((e >> 6) + 1, B)]) : 0u;
  const FastAddr fa = fast_addr<T, hm_lane>(tab, B);
  const u32 lim_bits = tdmaps::sdh::est_magic_bits + (B - 1);

  // One tile pair, then a flush where asked; the tile's first barrier (the previous tile no longer
  // read) is the caller's with Dyn.
  auto tile_pair = [&](u64 lam, bool flush, auto replayed) {
    const Cell2 bc = LTM_E::g(lam);  // tile row bi >= tile column bj
    const int ibase = int(bc.i) * P, jbase = int(bc.j) * P;
    float ax[R], ay[R], az[R], an[R];
    const int nj = min(P, N - jbase);
    gram_load<T, R, !Dyn>(pg, N, ibase, jbase, tid, ax, ay, az, an, tile);
    if (bc.i != bc.j && ibase + P <= N) {
      gram2_full_tile<T, R, Clamp, J>(tile, ax, ay, az, an, clo, chi, lim_bits, fa, replayed);  // P x P pairs
    } else {
      TD_SDH_GRAM_PARTIAL_TILE(clo);  // diagonal or last (partial) tile pair, from k_lo (exact: K is k_lo or k_lo + 1)
    }
    if (flush) gram2_flush<T>(tab, B, rows, hist);
  };
  if constexpr (Dyn) {
    __shared__ u64 next[2];  // this tile pair's lambda, the next one's
    __shared__ u32 replayed;  // pairs this block replayed
    if (tid == 0) {
      next[0] = lam_begin + atomicAdd(work, 1ull);
      replayed = 0;
    }
    for (u32 it = 0;; ++it) {
      __syncthreads();  // next[it & 1] visible; the previous tile no longer read
      const u64 lam = next[it & 1];
      if (lam >= lam_end) break;
      // the next tile pair, read after the next barrier; none past flush_every tile pairs
      if (tid == 0) next[(it + 1) & 1] = it + 1 < flush_every ? lam_begin + atomicAdd(work, 1ull) : lam_end;
      tile_pair(lam, false, ReplayShared{&replayed});  // no count held in a register
    }
    gram2_flush<T>(tab, B, rows, hist);  // its barriers also order every replay count before the read
    if (ambig && tid == 0 && replayed) atomicAdd(ambig, ull(replayed));
  } else {
    u32 replayed = 0;  // pairs this thread replayed
    u32 since = 0;
    for (u64 lam = lam_begin + blockIdx.x; lam < lam_end; lam += gridDim.x) {
      const bool flush = ++since >= flush_every;
      if (flush) since = 0;
      tile_pair(lam, flush, ReplayReg{replayed});
    }
    gram2_flush<T>(tab, B, rows, hist);
    if (ambig) {
      for (int o = 16; o > 0; o >>= 1) replayed += __shfl_down_sync(0xffffffffu, replayed, o);
      if ((tid & 31) == 0 && replayed) atomicAdd(ambig, ull(replayed));
    }
  }
}

}  // namespace tdmaps::gpu::sdh
