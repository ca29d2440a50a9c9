// src/support/gram/gram_epilogue.cuh — the epilogue of our own kernels (classic, sm80-8w, sm90-ws), written once
// (issue #36 item 4). A kernel runs its mainloop, then hands this file its accumulator fragment, the fragment's
// (row, column) in the tile, the tile's place and a team (its threads and their barrier); every output's
// arithmetic and stores live here and nowhere else. (sm90-evt's epilogue is CUTLASS's own machinery, the visitor
// tree of gram_sm90_evt.cu.) Part of gram.cuh.
#pragma once
#include "gram_config.cuh"
#include "gram_cpu.hpp"  // condensed_index

namespace gram {
using gram_cpu::condensed_index;  // the pdist / SciPy index of the pair a < b among N points

namespace epi {
using cute::get;
using cute::size;

// The Gram form of the squared distance, clamped at 0 (issue #27): d2(i, j) = |x_i|^2 + |x_j|^2 - 2 x_i.x_j. One FFMA
// for the last two terms: 2 x_i.x_j is exact in float, so fma(-2, dot, ni + nj) rounds once, as (ni + nj) - (dot + dot)
// did: the same bits, an instruction less a pair (ptxas had made 2 dot an FADD of its own).
__device__ __forceinline__ float gram_form(float ni, float nj, float dot) { return __fmaf_rn(-2.0f, dot, ni + nj); }
__device__ __forceinline__ float squared_distance(float ni, float nj, float dot) {
  return fmaxf(gram_form(ni, nj, dot), 0.0f);
}
// The count's test d2 <= eps2 (issue #37), one FSETP: !(x > eps2) answers max(x, 0) <= eps2 for every x, NaN included
// (fmaxf(NaN, 0) = 0 <= eps2; !(NaN > eps2) too), as long as eps2 >= 0 (the dispatch refuses other eps2): the clamp's
// FMNMX goes.
__device__ __forceinline__ bool within_eps2(float ni, float nj, float dot, float eps2) {
  return !(gram_form(ni, nj, dot) > eps2);
}
// counter += inc where `in`: one predicated IADD. nvcc's own forms were a SEL and an add, or an add and a predicated
// move (sm90-ws count's SASS: about 8 instructions a pair with a row and a column counter, 4 with this and one).
__device__ __forceinline__ void add_where(bool in, u32& counter, u32 inc) {
  asm("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\t@q add.u32 %0, %0, %2;\n\t}" : "+r"(counter) : "r"(u32(in)), "r"(inc));
}
// The distance the reductions bucket and compare (histogram, minmax): one MUFU square root.
__device__ __forceinline__ float approx_distance(float d2) {
  float d;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(d2));
  return d;
}

// The threads that hold a tile's accumulators and their barrier. classic / sm80-8w: the whole block
// (__syncthreads); sm90-ws: its two consumer warp groups (named barrier 1: the producer warp is not in it), or, in the
// count's ping-pong kernel, one warp group (named barrier 2 or 3, its own).
template <int Threads, bool NamedBarrier = false> struct Team {
  static constexpr int threads = Threads;
  int tid;      // the thread's index in the team
  int bar = 1;  // the named barrier (NamedBarrier)
  __device__ __forceinline__ int lane() const { return tid % 32; }
  __device__ __forceinline__ int warp() const { return tid / 32; }
  __device__ __forceinline__ void sync() const {
    if constexpr (NamedBarrier) asm volatile("bar.sync %0, %1;" ::"r"(bar), "r"(Threads) : "memory");
    else __syncthreads();
  }
};

// Where a tile lies: rows r0 .. (points of the accumulator's rows), columns c0 .., on the diagonal of tiles or not, and
// the norms of its rows and columns (padded to Np: no test). Lower / hist / mirror / count / minmax: rows I (points i),
// columns J <= I. Condensed: rows J (a), columns I (b). Passed by value; each epilogue below unpacks it into local
// variables (TD_EPI_TILE) with __restrict__ norms, as the kernels had them: read through the struct, the compiler
// neither folded nor shared the norms' loads (sm90-ws lower: 128 loads a thread for 96, measured 16 % slower).
struct TileAt {
  i64 N, r0, c0;
  bool diag;
  const float* nr;
  const float* nc;
  __device__ __forceinline__ TileAt(const Params& p, int tm, int tn, bool on_diagonal)
      : N(p.N), r0(i64(tm) * tile_side), c0(i64(tn) * tile_side), diag(on_diagonal), nr(p.norms + r0), nc(p.norms + c0) {}
};
#define TD_EPI_TILE(t)                                                                   \
  const i64 N = (t).N, r0 = (t).r0, c0 = (t).c0;                                         \
  const bool diag = (t).diag;                                                            \
  const float* __restrict__ nr = (t).nr;                                                 \
  const float* __restrict__ nc = (t).nc;                                                 \
  const int rows_in = int(N - r0 < tile_side ? N - r0 : tile_side);                      \
  const int cols_in = int(N - c0 < tile_side ? N - c0 : tile_side);                      \
  (void)N, (void)r0, (void)c0, (void)diag, (void)nr, (void)nc, (void)rows_in, (void)cols_in
// d2 of cell (r, c) of the tile (the Gram form, eq. above) and whether it is a pair i > j (the reductions count each
// unordered pair once, never i == j), on TD_EPI_TILE's locals: the tile's rows and columns inside N (rows_in,
// cols_in, <= tile_side) compared in 32 bits, not r0 + r < N in 64 (sm90-ws's count spent 31 instructions a pair,
// ncu call 46, many of them 64-bit compares and their branches).
#define TD_EPI_D2(r, c, dot) squared_distance(__ldg(nr + (r)), __ldg(nc + (c)), (dot))
// (Bitwise & and |: the compiler turned the short-circuit forms into a branch a cell.)
#define TD_EPI_BELOW(r, c) (bool(((r) < rows_in) & ((c) < cols_in) & (!diag | ((c) < (r)))))
// Where value v of a thread's fragment lies from the fragment's first, (rb, cb): wgmma's 64 x N accumulators
// (Wgmma: rows + 0, 8, columns + 0, 1, 8, 9, .., value v = column bit + 2 row bit + 4 n, CuTe's SM90 64xN
// accumulator layout), or any layout, from the coordinates themselves. With Wgmma the norms are loads at fixed
// offsets from one base a thread (nrb, ncb); from the coordinates, nvcc recomputed each load's 64-bit address (4
// instructions a load, sm90-ws's SASS). The count and histogram tests check the layout (each point and bucket against
// float64).
// The fragment Offsets<true> and count_wgmma assume, as a type: CuTe's partition of a 128 x 128 tile by sm90-ws's two
// m64n128 warp groups (value v at row offset 8 (v / 2 % 2), column offset v % 2 + 8 (v / 4)). Another atom, tile or
// schedule fails to compile here instead of counting the wrong cells.
template <class Cc>
constexpr bool is_wgmma_fragment = std::is_same_v<
    std::decay_t<decltype(std::declval<const Cc&>().layout())>,
    cute::Layout<cute::Shape<cute::Shape<cute::_2, cute::_2, cute::_16>, cute::_1, cute::_1>,
                 cute::Stride<cute::Stride<cute::ScaledBasis<cute::_1, 1>, cute::ScaledBasis<cute::_8, 0>,
                                           cute::ScaledBasis<cute::_8, 1>>,
                              cute::_0, cute::_0>>>;
template <bool Wgmma> struct Offsets {
  template <class Cc> __device__ __forceinline__ static int dr(const Cc& cc, int v) {
    if constexpr (Wgmma) return 8 * ((v >> 1) & 1);
    else return get<0>(cc(v)) - get<0>(cc(0));
  }
  template <class Cc> __device__ __forceinline__ static int dc(const Cc& cc, int v) {
    if constexpr (Wgmma) return (v & 1) + 8 * (v >> 2);
    else return get<1>(cc(v)) - get<1>(cc(0));
  }
};
#define TD_EPI_BASES(cc)                                                   \
  const int rb = get<0>((cc)(0)), cb = get<1>((cc)(0));                    \
  const float* __restrict__ nrb = nr + rb;                                 \
  const float* __restrict__ ncb = nc + cb
#define TD_EPI_D2_AT(dr, dc, dot) squared_distance(__ldg(nrb + (dr)), __ldg(ncb + (dc)), (dot))

// How lower and condensed leave the tile. staged (classic, sm80-8w): through a padded shared tile, a warp a
// row (16-byte streaming stores for the lower triangle, 4-byte ones for the condensed rows). registers
// (sm90-ws): straight from the accumulators, a pair of adjacent columns a thread (wgmma's layout).
enum class Stores { staged, registers };

constexpr int hist_copies = 16;                // the histogram's interleaved shared copies (lane % 16)
constexpr int staged_ld = tile_side + 4;       // the staged tile's rows (16-byte aligned)
constexpr int mirror_ld = tile_side + 1;       // mirror's rows: odd, so a warp reads a row or a column conflict-free
// Shared memory each output needs (bytes): the kernel's mainloop storage must hold it.
template <Out O, Stores S> constexpr int smem_bytes() {
  if constexpr (O == Out::hist || O == Out::hist_exact) return hist_max_buckets * hist_copies * 4;
  else if constexpr (O == Out::count || O == Out::count_exact) return (2 * tile_side + 1) * 4;
  else if constexpr (O == Out::minmax) return 0;
  else if constexpr (O == Out::mirror) return tile_side * mirror_ld * 4;
  else return S == Stores::staged ? tile_side * staged_ld * 4 : 0;
}

// Each epilogue takes the kernel's Params by value: through a reference, the compiler did not know that the
// epilogue's atomics and stores leave them alone, and re-read them (sm90-ws hist: two branches more a cell, 25 %
// slower, measured).

// The exact mode's replay list (issue #37 item 2): the pairs whose bracket straddles eps or an edge, appended a warp
// at a time (one atomic a warp and value index: the ballot's leader reserves the warp's slots). Every lane of the
// warp calls it together (the epilogues' loops are uniform). Pairs past the list's capacity are counted, not kept.
template <class Tm>
__device__ __forceinline__ void replay_append(const Params& p, bool need, i64 i, i64 j, Tm tm) {
  const unsigned m = __ballot_sync(0xffffffffu, need);
  if (m == 0) return;
  const int lane = tm.lane(), leader = __ffs(m) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(p.replay_n, (unsigned long long)__popc(m));
  base = __shfl_sync(0xffffffffu, base, leader);
  const unsigned long long k = base + __popc(m & ((1u << lane) - 1u));
  if (need && k < p.replay_cap) p.replay[k] = (unsigned long long)i << 32 | (unsigned long long)j;
}

// The exact mode's bracket of one pair (issue #37 item 2), written once for every kernel (our epilogue below and
// sm90-evt's visitor-tree node, gram_sm90_evt.cuh), from the pair's norms and dot product; each kernel adds the pair
// and appends the replay list (replay_append) around it in its own form (sm90-evt: unconditional atomics, its node
// says why).
// The histogram's (hist_exact): the pair counts only where its bracket's distances [sqrt(d2 - E), sqrt(d2 + E)] fall
// in one bucket, their bucket coordinates widened by q_margin (sure(): in bucket lo); a bracket wholly below the first
// edge or above the last (none()): no count; the others go to the replay list (recounted in float64 against the
// float64 edges: replay_histogram).
struct HistBracket {
  int lo, hi;
  __device__ __forceinline__ bool sure() const { return lo == hi; }
  __device__ __forceinline__ bool none(const Params& p) const { return hi < 0 || lo >= p.buckets; }
};
__device__ __forceinline__ HistBracket hist_bracket(const Params& p, float ni, float nj, float dot) {
  const float d2 = squared_distance(ni, nj, dot), e = p.bracket * (ni + nj);
  return {__float2int_rd(bucket_coord(approx_distance(fmaxf(d2 - e, 0.0f)), p) - p.q_margin),
          __float2int_rd(bucket_coord(approx_distance(d2 + e), p) + p.q_margin)};
}
// The eps count's (count_exact): the pair counts where its bracket [d2 - E, d2 + E] lies below eps^2 (rounded down:
// within), nowhere where it lies above eps^2 (rounded up: outside), and goes to the replay list otherwise (recounted
// in float64: replay_count).
struct EpsBracket {
  bool within, outside;
};
__device__ __forceinline__ EpsBracket eps_bracket(const Params& p, float ni, float nj, float dot) {
  const float d2 = squared_distance(ni, nj, dot), e = p.bracket * (ni + nj);
  return {d2 + e < p.eps2, d2 - e > p.eps2_hi};
}

// One shared-memory counter += 1: ptxas's ATOMS.POPC.INC, which adds a warp's lanes of one address at once (an add of
// a 0/1 value, ATOMS.ADD, serializes them: sm90-ws's hist 1.27 s against 1.20 s, call 42). Unconditional: ptxas puts
// a predicated one in a branch (BSSY / BSYNC and a branch a pair), so a pair that does not count is sent to a
// counter that takes it back (histogram below). The SDH kernels' form (sdh_fast.cuh red_inc_128). No "memory" clobber
// (it would keep the norms' loads from being hoisted): what orders these adds before the flush's reads is the team's
// barrier after them, whose asm (or __syncthreads) does clobber memory; the take-back (atomicSub) may land before or
// after them, the sum being the same.
__device__ __forceinline__ void shared_inc(u32 at) { asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(at)); }

// The fused histogram's pairs of a tile into this lane's copy (`mine`: its bucket 0's shared address); Full: every cell
// is a pair i > j (no test a cell; the kernel picks the loop once a tile). Returns the pairs that did not count, each
// sent to bucket 0 of the lane's copy (shared_inc) for the caller to take back.
template <bool Exact, bool Full, bool Wgmma, class Tm, class Acc, class Cc>
__device__ __forceinline__ u32 histogram_pairs(const Params p, TileAt t, const Acc& acc, const Cc& cc, u32 mine, Tm tm) {
  static_assert(!Wgmma || is_wgmma_fragment<Cc>, "Offsets<true>: wgmma's 64 x 128 fragment");
  TD_EPI_TILE(t);
  TD_EPI_BASES(cc);
  using At = Offsets<Wgmma>;
  u32 off = 0;
  CUTE_UNROLL
  for (int v = 0; v < size(acc); ++v) {
    const int dr = At::dr(cc, v), dc = At::dc(cc, v), r = rb + dr, c = cb + dc;
    const bool below = Full || TD_EPI_BELOW(r, c);
    if constexpr (!Exact) {
      const u32 b = bucket_of(approx_distance(TD_EPI_D2_AT(dr, dc, acc(v))), p);
      const bool ok = below & (b < u32(p.buckets));
      shared_inc(ok ? mine + b * (hist_copies * 4) : mine);
      off += u32(!ok);
    } else {
      const HistBracket k = hist_bracket(p, __ldg(nrb + dr), __ldg(ncb + dc), acc(v));
      const bool sure = k.sure(), none = k.none(p);
      const bool ok = below & sure & !none;
      shared_inc(ok ? mine + u32(k.lo) * (hist_copies * 4) : mine);
      off += u32(!ok);
      replay_append(p, below & !sure & !none, r0 + r, c0 + c, tm);
    }
  }
  return off;
}

// The fused histogram (issue #27): hist_copies copies in shared memory, interleaved (bucket b of copy l at
// b * 16 + l, copy = lane % 16: a warp's atomics meet at most 2-way conflicts), summed into global at the end.
// Exact: hist_bracket. The copies zeroed, the tile's pairs added (histogram_pairs: a copy's counter takes at most
// Tm::threads / 16 x size(acc) a tile), the copies summed into the global histogram, each after the team's barrier.
template <bool Exact, bool Wgmma, class Tm, class Acc, class Cc>
__device__ __forceinline__ void histogram(const Params p, TileAt t, const Acc& acc, const Cc& cc, char* smem, Tm tm) {
  TD_EPI_TILE(t);
  u32* sh = reinterpret_cast<u32*>(smem);
  for (int k = tm.tid; k < hist_copies / 4 * p.buckets; k += Tm::threads) reinterpret_cast<uint4*>(sh)[k] = make_uint4(0, 0, 0, 0);
  tm.sync();
  const u32 mine = u32(__cvta_generic_to_shared(sh + tm.lane() % hist_copies));  // this lane's copy, bucket 0
  const u32 off = !diag && rows_in == tile_side ? histogram_pairs<Exact, true, Wgmma>(p, t, acc, cc, mine, tm)
                                                : histogram_pairs<Exact, false, Wgmma>(p, t, acc, cc, mine, tm);
  if (off) atomicSub(sh + tm.lane() % hist_copies, off);
  tm.sync();
  for (int b = tm.tid; b < p.buckets; b += Tm::threads) {
    u32 s = 0;
    for (int w = 0; w < hist_copies; ++w) s += sh[b * hist_copies + ((w + b) & (hist_copies - 1))];
    if (s) atomicAdd(&p.hist[b], (unsigned long long)s);
  }
}

// Neighbours within eps (d^2 <= eps2) of the pairs i > j: per-row and per-column counts of the tile in shared
// memory, then one global atomic per nonzero row / column, and the tile's total. Exact: eps_bracket.
template <bool Exact, class Tm, class Acc, class Cc>
__device__ __forceinline__ void count(const Params p, TileAt t, const Acc& acc, const Cc& cc, char* smem, Tm tm) {
  TD_EPI_TILE(t);
  u32* rc = reinterpret_cast<u32*>(smem);  // rc[0, 128): rows, rc[128, 256): columns, rc[256]: total
  for (int k = tm.tid; k < 2 * tile_side + 1; k += Tm::threads) rc[k] = 0;
  tm.sync();
  u32 mine = 0;
  CUTE_UNROLL
  for (int v = 0; v < size(acc); ++v) {
    const int r = get<0>(cc(v)), c = get<1>(cc(v));
    // (a lambda for the three adds changed the SASS of both forms; measured before 097af5b)
    if constexpr (!Exact) {
      // the test before the branch, its norms' loads unconditional: inside the && they went behind a branch a pair
      // (097af5b: 2-4x the LDGs in the classic and sm80-8w SASS, their count x1.1-1.4 slower in gram.csv of ca927b8)
      const bool in = within_eps2(__ldg(nr + r), __ldg(nc + c), acc(v), p.eps2);
      if (TD_EPI_BELOW(r, c) && in) {
        atomicAdd(&rc[r], 1u);
        atomicAdd(&rc[tile_side + c], 1u);
        ++mine;
      }
    } else {
      const EpsBracket k = eps_bracket(p, __ldg(nr + r), __ldg(nc + c), acc(v));
      const bool below = TD_EPI_BELOW(r, c);
      if (below && k.within) {
        atomicAdd(&rc[r], 1u);
        atomicAdd(&rc[tile_side + c], 1u);
        ++mine;
      }
      replay_append(p, below && !k.within && !k.outside, r0 + r, c0 + c, tm);
    }
  }
  for (int o = 16; o > 0; o /= 2) mine += __shfl_down_sync(0xffffffffu, mine, o);
  if (tm.lane() == 0 && mine) atomicAdd(&rc[2 * tile_side], mine);
  tm.sync();
  for (int k = tm.tid; k < 2 * tile_side; k += Tm::threads) {
    const i64 pt = k < tile_side ? r0 + k : c0 + (k - tile_side);
    if (rc[k] && pt < N) atomicAdd(&p.counts[pt], rc[k]);
  }
  if (tm.tid == 0 && rc[2 * tile_side]) atomicAdd(p.total, (unsigned long long)rc[2 * tile_side]);
}

// The eps count from the registers, for wgmma's accumulators (sm90-ws, Stores::registers). A thread of a 64 x 128
// wgmma holds 2 rows (lane / 4 and lane / 4 + 8 of its warp's 16) x 32 columns (2 (lane % 4) + 8 n, + 1), value
// v = column bit + 2 row bit + 4 n (CuTe's SM90 64xN accumulator layout). A thread counts its pairs within eps in
// registers, in 8-bit fields (4 a word, one a pair; count_wgmma_pairs); folded, a row's count is a counter and a
// column's an 8-bit field (at most 2 M a thread, 16 M a warp, so no field carries into the next); the rows are summed
// over their quad (lanes of one lane / 4) and go straight to global (each row of the tile is one quad's), the columns
// over the warp's lanes of one lane % 4 and then into shared memory (one atomic a column and warp). sm90-ws's count
// was 31 instructions and 2 shared atomics a pair (ncu, call 46); here a pair costs its d2 (an FADD and an FFMA), one
// compare and one predicated add. The layout is checked by every count test (each point's count against float64).
constexpr int count_wgmma_bytes = (tile_side + 1) * 4;  // count_wgmma's (count_pingpong's) shared memory
// The norms of a thread's rows and columns in its M wgmma fragments: row slot s = 2 m + row bit at rb + 64 m + 8 (row
// bit), column slot k = (v & 1) + 2 (v >> 2) at cb + (k & 1) + 8 (k >> 1). Preload: loaded once into registers, which
// the ping-pong kernel does before it waits for its wgmma, so that their latency (L2) hides under the tensor cores'
// tail (ncu, call 65: long-scoreboard stalls 11 % of the count's). Otherwise a load at each use (the persistent
// count_exact: 34 more registers there spilled more).
template <int M, bool Preload> struct WgmmaNorms {
  float r[2 * M], c[32];
  template <class Cc> __device__ __forceinline__ WgmmaNorms(const TileAt& t, const Cc& cc) {
    const float* __restrict__ nr = t.nr + get<0>(cc(0));
    const float* __restrict__ nc = t.nc + get<1>(cc(0));
    CUTE_UNROLL
    for (int s = 0; s < 2 * M; ++s) r[s] = __ldg(nr + 64 * (s >> 1) + 8 * (s & 1));
    CUTE_UNROLL
    for (int k = 0; k < 32; ++k) c[k] = __ldg(nc + (k & 1) + 8 * (k >> 1));
  }
  __device__ __forceinline__ float row(int s) const { return r[s]; }
  __device__ __forceinline__ float col(int k) const { return c[k]; }
};
template <int M> struct WgmmaNorms<M, false> {
  const float* __restrict__ nr;
  const float* __restrict__ nc;
  template <class Cc>
  __device__ __forceinline__ WgmmaNorms(const TileAt& t, const Cc& cc) : nr(t.nr + get<0>(cc(0))), nc(t.nc + get<1>(cc(0))) {}
  __device__ __forceinline__ float row(int s) const { return __ldg(nr + 64 * (s >> 1) + 8 * (s & 1)); }
  __device__ __forceinline__ float col(int k) const { return __ldg(nc + (k & 1) + 8 * (k >> 1)); }
};
// The pairs of a thread's M wgmma fragments (M = 1: count_wgmma's 64 x 128 of a warp group; M = 2: count_pingpong's
// whole 128 x 128 tile, fragment m at rows + 64 m), counted in 8-bit fields, one a pair: cw[s][k / 4] field k % 4 for
// row slot s = 2 m + row bit and column slot k (each field 0 or 1). One predicated add a pair; count_wgmma_fold then
// makes the rows (a byte sum of each slot's words, IDP4A) and the columns (the slots' words added) of them.
template <bool Exact, bool Full, int M, bool Preload, class Tm, class Acc, class Cc>
__device__ __forceinline__ void count_wgmma_pairs(const Params p, TileAt t, const Acc& acc, const Cc& cc,
                                                  const WgmmaNorms<M, Preload>& nv, Tm tm, u32 (&cw)[2 * M][8]) {
  TD_EPI_TILE(t);
  const int rb = get<0>(cc(0)), cb = get<1>(cc(0));
  using At = Offsets<true>;
  CUTE_UNROLL
  for (int m = 0; m < M; ++m) {
    CUTE_UNROLL
    for (int v = 0; v < 64; ++v) {
      const int dr = 64 * m + At::dr(cc, v), dc = At::dc(cc, v), r = rb + dr, c = cb + dc;
      const bool below = Full || TD_EPI_BELOW(r, c);
      const float dot = acc(v, m, 0);
      const int k = (v & 1) + 2 * (v >> 2), s = 2 * m + ((v >> 1) & 1);  // the column's slot (0 .. 31), the row's
      bool in;  // (bitwise: the short-circuit && kept the norms' loads behind a branch a pair)
      if constexpr (!Exact) {
        in = below & within_eps2(nv.row(s), nv.col(k), dot, p.eps2);
      } else {
        const EpsBracket e = eps_bracket(p, nv.row(s), nv.col(k), dot);
        in = below & e.within;
        replay_append(p, below & !e.within & !e.outside, r0 + r, c0 + c, tm);
      }
      add_where(in, cw[s][k >> 2], 1u << (8 * (k & 3)));
    }
  }
}
// A thread's rows row[s] (the pairs of row slot s: its fields summed, at most 32, no carry) and column words col[w]
// (each field the column's pairs over the 2 M row slots) from its fields cw.
template <int M>
__device__ __forceinline__ void count_wgmma_fold(const u32 (&cw)[2 * M][8], u32 (&row)[2 * M], u32 (&col)[8]) {
  CUTE_UNROLL
  for (int s = 0; s < 2 * M; ++s) {
    u32 a = 0;
    CUTE_UNROLL
    for (int w = 0; w < 8; ++w) a += cw[s][w];  // each field <= 8
    row[s] = u32(__dp4a(int(a), 0x01010101, 0));
  }
  CUTE_UNROLL
  for (int w = 0; w < 8; ++w) {
    u32 a = 0;
    CUTE_UNROLL
    for (int s = 0; s < 2 * M; ++s) a += cw[s][w];
    col[w] = a;
  }
}
// A thread's counters out, each sum scattered over the lanes that hold its parts (halving exchanges: a lane keeps half
// of what it holds and adds its partner's copy of that half), so that every lane adds at most one row to global and
// four columns to the team's shared counters `cols`:
// - the rows over their quad (lane bits 0, 1): lane q of a quad ends with row slot q (2 M = 4) or q % 2 (2 M = 2);
// - the column words over the 8 lanes of one lane % 4 (lane bits 2, 3, 4; 7 shuffles for 24): lane 4 g + q ends with
//   word g, slots 4 g + j (j < 4), columns (j & 1) + 8 (2 g + j / 2) from its own first;
// - the warp's total (5 shuffles) to cols[128].
// The team's barrier and the columns' flush follow (the callers').
template <int M, class Tm, class Cc>
__device__ __forceinline__ void count_wgmma_rows(const Params p, TileAt t, const Cc& cc, u32 (&row)[2 * M], u32 (&col)[8],
                                                 u32* cols, Tm tm) {
  static_assert(M == 1 || M == 2, "a warp group's 64 x 128 fragment once or twice");
  const int lane = tm.lane();
  u32 total = 0;
  CUTE_UNROLL
  for (int s = 0; s < 2 * M; ++s) total += row[s];
  for (int o = 1; o <= 16; o *= 2) total += __shfl_xor_sync(0xffffffffu, total, o);
  if (lane == 0 && total) atomicAdd(&cols[tile_side], total);
  // the rows
  u32 rs;
  int slot;
  if constexpr (M == 2) {
    const bool h = lane & 2;
    u32 half[2];
    CUTE_UNROLL
    for (int i = 0; i < 2; ++i) half[i] = (h ? row[i + 2] : row[i]) + __shfl_xor_sync(0xffffffffu, h ? row[i] : row[i + 2], 2);
    const bool h1 = lane & 1;
    rs = (h1 ? half[1] : half[0]) + __shfl_xor_sync(0xffffffffu, h1 ? half[0] : half[1], 1);
    slot = lane & 3;
  } else {
    const bool h1 = lane & 1;
    rs = (h1 ? row[1] : row[0]) + __shfl_xor_sync(0xffffffffu, h1 ? row[0] : row[1], 1);
    rs += __shfl_xor_sync(0xffffffffu, rs, 2);
    slot = (lane & 2) ? -1 : (lane & 1);  // lanes 2, 3 of a quad hold copies
  }
  if (slot >= 0 && rs) atomicAdd(&p.counts[t.r0 + get<0>(cc(0)) + 64 * (slot >> 1) + 8 * (slot & 1)], rs);
  // the columns
  u32 quarter[4], pair[2];
  const bool h4 = lane & 16, h3 = lane & 8, h2 = lane & 4;
  CUTE_UNROLL
  for (int i = 0; i < 4; ++i) quarter[i] = (h4 ? col[i + 4] : col[i]) + __shfl_xor_sync(0xffffffffu, h4 ? col[i] : col[i + 4], 16);
  CUTE_UNROLL
  for (int i = 0; i < 2; ++i) pair[i] = (h3 ? quarter[i + 2] : quarter[i]) + __shfl_xor_sync(0xffffffffu, h3 ? quarter[i] : quarter[i + 2], 8);
  const u32 w = (h2 ? pair[1] : pair[0]) + __shfl_xor_sync(0xffffffffu, h2 ? pair[0] : pair[1], 4);
  const int g = lane >> 2, c = get<1>(cc(0)) + 16 * g;
  CUTE_UNROLL
  for (int j = 0; j < 4; ++j) {
    const u32 n = (w >> (8 * j)) & 0xffu;
    if (n) atomicAdd(&cols[c + 8 * (j >> 1) + (j & 1)], n);
  }
}
template <bool Exact, class Tm, class Acc, class Cc>
__device__ __forceinline__ void count_wgmma(const Params p, TileAt t, const Acc& acc, const Cc& cc, char* smem, Tm tm) {
  static_assert(is_wgmma_fragment<Cc> && decltype(size(acc))::value == 64, "wgmma's 64 x 128 fragment: 64 a thread");
  TD_EPI_TILE(t);
  const WgmmaNorms<1, false> nv(t, cc);
  u32* cols = reinterpret_cast<u32*>(smem);  // [0, 128): the tile's columns; [128]: its total (count_wgmma_bytes)
  for (int k = tm.tid; k < tile_side + 1; k += Tm::threads) cols[k] = 0;
  tm.sync();
  u32 cw[2][8] = {}, row[2], col[8];
  if (!diag && rows_in == tile_side) count_wgmma_pairs<Exact, true, 1>(p, t, acc, cc, nv, tm, cw);
  else count_wgmma_pairs<Exact, false, 1>(p, t, acc, cc, nv, tm, cw);
  count_wgmma_fold<1>(cw, row, col);
  count_wgmma_rows<1>(p, t, cc, row, col, cols, tm);
  tm.sync();
  for (int k = tm.tid; k < tile_side; k += Tm::threads)
    if (cols[k]) atomicAdd(&p.counts[c0 + k], cols[k]);
  if (tm.tid == 0 && cols[tile_side]) atomicAdd(p.total, (unsigned long long)cols[tile_side]);
}

// The eps count (count) of one warp group's whole 128 x 128 tile (the ping-pong kernel, gram_sm90.cuh): wgmma's fragment
// twice, rows + 0 and + 64 (MMA_M = 2), each half as count_wgmma's; a thread's rows in four counters, its columns in
// 8-bit fields summed over both halves (at most 4 a thread, 32 a warp: no field carries). The norms come loaded (the
// kernel's, under its wgmma's tail). The team's column counters `cols` (count_wgmma_bytes of shared memory) start at
// zero and are left at zero: the flush clears what it reads. One barrier a tile, before the flush (every column
// added): the kernel alternates two sets of counters, so the next tile's adds go to the other set, and this one is
// written again only after the next tile's barrier, which each thread reaches after its part of this flush.
template <class Cc>
constexpr bool is_wgmma_fragment_x2 =
    decltype(size<1>(std::declval<const Cc&>()))::value == 2 && decltype(size<2>(std::declval<const Cc&>()))::value == 1 &&
    std::is_same_v<std::decay_t<decltype(cute::stride<1>(std::declval<const Cc&>().layout()))>, cute::ScaledBasis<cute::_64, 0>> &&
    std::is_same_v<std::decay_t<decltype(cute::layout<0>(std::declval<const Cc&>().layout()))>,
                   cute::Layout<cute::Shape<cute::_2, cute::_2, cute::_16>,
                                cute::Stride<cute::ScaledBasis<cute::_1, 1>, cute::ScaledBasis<cute::_8, 0>,
                                             cute::ScaledBasis<cute::_8, 1>>>>;
template <class Tm, class Acc, class Cc>
__device__ __forceinline__ void count_pingpong(const Params p, TileAt t, const Acc& acc, const Cc& cc, const WgmmaNorms<2, true>& nv,
                                               u32* cols, Tm tm) {
  static_assert(is_wgmma_fragment_x2<Cc> && decltype(size(acc))::value == 128 && Tm::threads == 128,
                "one warp group's 128 x 128 tile: wgmma's 64 x 128 fragment twice, 128 a thread");
  TD_EPI_TILE(t);
  u32 cw[4][8] = {}, row[4], col[8];
  if (!diag && rows_in == tile_side) count_wgmma_pairs<false, true, 2>(p, t, acc, cc, nv, tm, cw);
  else count_wgmma_pairs<false, false, 2>(p, t, acc, cc, nv, tm, cw);
  count_wgmma_fold<2>(cw, row, col);
  count_wgmma_rows<2>(p, t, cc, row, col, cols, tm);
  tm.sync();  // every column added
  for (int k = tm.tid; k < tile_side; k += Tm::threads) {
    const u32 n = cols[k];
    if (n) atomicAdd(&p.counts[c0 + k], n), cols[k] = 0;
  }
  if (tm.tid == 0 && cols[tile_side]) atomicAdd(p.total, (unsigned long long)cols[tile_side]), cols[tile_side] = 0;
}

// The least and largest distance of the pairs i > j (as the histogram computes it), a warp's by shuffles, then
// atomics on the bits of the non-negative floats.
template <class Tm, class Acc, class Cc>
__device__ __forceinline__ void minmax(const Params p, TileAt t, const Acc& acc, const Cc& cc, Tm tm) {
  TD_EPI_TILE(t);
  float lo = __int_as_float(0x7f800000), hi = 0.0f;
  CUTE_UNROLL
  for (int v = 0; v < size(acc); ++v) {
    const int r = get<0>(cc(v)), c = get<1>(cc(v));
    const float dist = approx_distance(TD_EPI_D2(r, c, acc(v)));
    if (TD_EPI_BELOW(r, c)) {
      lo = fminf(lo, dist);
      hi = fmaxf(hi, dist);
    }
  }
  for (int o = 16; o > 0; o /= 2) {
    lo = fminf(lo, __shfl_down_sync(0xffffffffu, lo, o));
    hi = fmaxf(hi, __shfl_down_sync(0xffffffffu, hi, o));
  }
  if (tm.lane() == 0) {
    atomicMin(reinterpret_cast<unsigned*>(p.minmax), __float_as_uint(lo));
    atomicMax(reinterpret_cast<unsigned*>(p.minmax) + 1, __float_as_uint(hi));
  }
}

// The value a cell of output O writes: the distance (d2, or d with take_sqrt), or, lower and mirror, the product
// x_i.x_j itself (Request::product).
// (The distance first, then a select: a branch before the norms' loads would keep them from being issued early.)
// Condensed takes the Gram form in its three-instruction spelling (the same bits: 2 x_i.x_j is exact): with the one
// FFMA, ptxas rearranged the staged condensed kernels' address arithmetic (classic / sm80-8w TF32: +32 to +104
// instructions, sm80-8w's LTM kernel spilling 6 STL / 9 LDL; SASS of 2a75905 against 71eb10f), and their condensed
// rows in gram.csv were x1.08-1.16 slower. Lower keeps the FFMA (its kernels are 64-104 instructions shorter with it).
template <Out O> __device__ __forceinline__ float written(const Params& p, float ni, float nj, float dot) {
  float d = O == Out::condensed ? fmaxf(ni + nj - 2.0f * dot, 0.0f) : squared_distance(ni, nj, dot);
  if (p.take_sqrt) d = sqrtf(d);
  return O != Out::condensed && p.product ? dot : d;
}

// Mirror: the whole N x N from the lower tiles. The tile into shared memory, then written twice, as rows
// (i, c0 ..) and, off the diagonal, as the transposed rows (c0 + c, r0 ..): 128-byte coalesced streaming stores a
// warp. Distances get an exact 0 on the diagonal i == j; a diagonal tile's upper half is its lower half's transpose
// (bit for bit: 3xTF32's operands differ, so the tile's own upper values would not be).
template <class Tm, class Acc, class Cc>
__device__ __forceinline__ void mirror(const Params p, TileAt t, const Acc& acc, const Cc& cc, char* smem, Tm tm) {
  TD_EPI_TILE(t);
  float* st = reinterpret_cast<float*>(smem);
  CUTE_UNROLL
  for (int v = 0; v < size(acc); ++v) {
    const int r = get<0>(cc(v)), c = get<1>(cc(v));
    // (the product on a branch of its own, which the compiler takes out of the loop: the product reads no norms;
    // a select after the distance, as the rows below have it, made mirror-gram 15-21 % slower, measured)
    float x;
    if (p.product) {
      x = acc(v);
    } else {
      x = squared_distance(__ldg(nr + r), __ldg(nc + c), acc(v));
      if (p.take_sqrt) x = sqrtf(x);
      if (diag && r == c) x = 0.0f;
    }
    st[r * mirror_ld + c] = x;
  }
  tm.sync();
  const int rows = int(N - r0 < tile_side ? N - r0 : tile_side), cols = int(N - c0 < tile_side ? N - c0 : tile_side);
  const int lane = tm.lane();
  for (int r = tm.warp(); r < rows; r += Tm::threads / 32) {  // rows i = r0 + r, columns c0 ..
    float* dst = p.out + (r0 + r) * N + c0;
    CUTE_UNROLL
    for (int q = 0; q < tile_side / 32; ++q) {
      const int c = lane + 32 * q;
      if (c < cols) __stcs(dst + c, diag && c > r ? st[c * mirror_ld + r] : st[r * mirror_ld + c]);
    }
  }
  if (!diag) {
    for (int c = tm.warp(); c < cols; c += Tm::threads / 32) {  // rows c0 + c, columns r0 .. (the transpose)
      float* dst = p.out + (c0 + c) * N + r0;
      CUTE_UNROLL
      for (int q = 0; q < tile_side / 32; ++q) {
        const int r = lane + 32 * q;
        if (r < rows) __stcs(dst + r, st[r * mirror_ld + c]);
      }
    }
  }
}

// Lower (j <= i of a row-major N x N) or condensed, staged: the values into a shared tile (rows padded to 132
// floats), then a warp a row: coalesced 16-byte streaming stores (lower) or 4-byte ones (condensed, whose rows
// are not aligned).
template <Out O, class Tm, class Acc, class Cc>
__device__ __forceinline__ void rows_staged(const Params p, TileAt t, const Acc& acc, const Cc& cc, char* smem, Tm tm) {
  TD_EPI_TILE(t);
  float* st = reinterpret_cast<float*>(smem);
  CUTE_UNROLL
  for (int v = 0; v < size(acc); ++v) {
    const int r = get<0>(cc(v)), c = get<1>(cc(v));
    st[r * staged_ld + c] = written<O>(p, __ldg(nr + r), __ldg(nc + c), acc(v));
  }
  tm.sync();
  const int lane = tm.lane();
  for (int r = tm.warp(); r < tile_side; r += Tm::threads / 32) {
    const i64 i = r0 + r;
    if (i >= N) break;
    const float* row = st + r * staged_ld;
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

// Lower or condensed from the registers: wgmma's accumulators come in pairs of adjacent columns of one row
// (v, v + 1), checked here (folded away: the layout is static) and, wherever it did not hold, stored one by one.
// Lower: 8-byte streaming stores (a warp's store 8 whole 32-byte sectors). Condensed: a pair is one 8-byte store
// where its condensed index is even (the rows' starts are not aligned), else two 4-byte ones.
template <Out O, class Acc, class Cc>
__device__ __forceinline__ void rows_from_registers(const Params p, TileAt t, const Acc& acc, const Cc& cc) {
  static_assert(decltype(size(acc))::value % 2 == 0, "pairs of accumulators");
  TD_EPI_TILE(t);
  const bool fast = O == Out::lower && !diag && r0 + tile_side <= N && c0 + tile_side <= N && (N % 2) == 0;
  CUTE_UNROLL
  for (int v = 0; v + 1 < size(acc); v += 2) {
    const int r = get<0>(cc(v)), c = get<1>(cc(v));
    const int r1 = get<0>(cc(v + 1)), c1 = get<1>(cc(v + 1));
    // as written<O>, for the pair at once: one test of take_sqrt a pair (sqrtf's slow path is a branch)
    float a = squared_distance(__ldg(nr + r), __ldg(nc + c), acc(v));
    float b = squared_distance(__ldg(nr + r1), __ldg(nc + c1), acc(v + 1));
    if (p.take_sqrt) {
      a = sqrtf(a);
      b = sqrtf(b);
    }
    if (O != Out::condensed && p.product) {
      a = acc(v);
      b = acc(v + 1);
    }
    const i64 i = r0 + r, j = c0 + c, i1 = r0 + r1, j1 = c0 + c1;
    const bool pair = r1 == r && c1 == c + 1;
    if constexpr (O == Out::lower) {
      if (fast && pair) {
        __stcs(reinterpret_cast<float2*>(p.out + i * N + j), make_float2(a, b));
      } else {
        if (i < N && j < N && (!diag || c <= r)) p.out[i * N + j] = a;
        if (i1 < N && j1 < N && (!diag || c1 <= r1)) p.out[i1 * N + j1] = b;
      }
    } else {  // condensed: row a = i, column b = j > a
      const bool ok = i < N && j < N && j > i, ok1 = i1 < N && j1 < N && j1 > i1;
      const i64 k = ok ? condensed_index(N, i, j) : 0;
      if (ok && ok1 && pair && (k & 1) == 0) {
        *reinterpret_cast<float2*>(p.out + k) = make_float2(a, b);
      } else {
        if (ok) p.out[k] = a;
        if (ok1) p.out[condensed_index(N, i1, j1)] = b;
      }
    }
  }
}

// The epilogue of output O: the one entry every kernel of ours calls after its mainloop. `smem`: shared memory
// of at least smem_bytes<O, S>() that the team may use once its barrier has passed (the mainloop is done with it).
template <Out O, Stores S, class Tm, class Acc, class Cc>
__device__ __forceinline__ void apply(const Params p, TileAt t, const Acc& acc, const Cc& cc, char* smem, Tm tm) {
  if constexpr (O == Out::minmax) {
    minmax(p, t, acc, cc, tm);
  } else if constexpr ((O == Out::lower || O == Out::condensed) && S == Stores::registers) {
    rows_from_registers<O>(p, t, acc, cc);
  } else {
    tm.sync();  // every thread of the team is done with the mainloop's shared memory: it becomes the epilogue's
    if constexpr (O == Out::hist || O == Out::hist_exact)
      histogram<O == Out::hist_exact, S == Stores::registers>(p, t, acc, cc, smem, tm);
    else if constexpr ((O == Out::count || O == Out::count_exact) && S == Stores::registers)
      count_wgmma<O == Out::count_exact>(p, t, acc, cc, smem, tm);
    else if constexpr (O == Out::count || O == Out::count_exact) count<O == Out::count_exact>(p, t, acc, cc, smem, tm);
    else if constexpr (O == Out::mirror) mirror(p, t, acc, cc, smem, tm);
    else rows_staged<O>(p, t, acc, cc, smem, tm);
  }
}

}  // namespace epi
}  // namespace gram
#undef TD_EPI_TILE
#undef TD_EPI_D2
#undef TD_EPI_BELOW
#undef TD_EPI_BASES
#undef TD_EPI_D2_AT
