// src/support/gpu/edm.cuh — Euclidean distance matrix (EDM) kernels, written once and
// templated on the map policy M (000_dc8ca915cfc23e3c.txt §V, test (2); 001_76513e4fc7b63a5f.txt
// §IV, EDM with d = 1..4 features, eq. (16)):
//     D[i][j] = sqrt( sum_k (x_i^k - x_j^k)^2 ),   0 <= j <= i < N.
//
// Points: d float arrays (SoA), feature k of point i at pts[k*N + i].
// Output layouts (64-bit indices throughout: N^2 passes 2^31 at N = 46341):
//   full    the N x N row-major matrix, only the lower triangle (with diagonal)
//           written, element i*N + j (the papers' layout)
//   packed  the condensed lower triangle with diagonal, element i(i+1)/2 + j
//
// The plain kernel's arithmetic is pinned (fsub_rn/fmul_rn/fadd_rn/fsqrt_rn of tdmaps/config.hpp:
// __fsub_rn/__fmul_rn/__fadd_rn/__fsqrt_rn on the device, plain IEEE operations
// with -ffp-contract=off on the host), in one fixed order, so the device result
// is the correctly rounded float evaluation of that order; relative to the exact
// (float64) distance its error is below 4 * 2^-24 ~ 2.4e-7 for every d <= 4.
// The fast kernel uses fused multiply-adds and the approximate square root
// (distance_fast; ~2 ulp more), still checked against float64 at <= 1e-6.
//
// Two kernels:
//   plain  one output per thread, rho x rho threads per block, every map of the
//          registry (the papers' kernel). The map supplies grid and (i, j); UTM's cells
//          are taken in row-major order so that its stores coalesce (plain_cell below).
//   fast   blockwise maps only (BB, LTM-*, REC): the map is planned with block side
//          T = 4*rho cells (64 or 128); each block of 2T threads covers a T x T tile
//          given by M::block_cell, T/4 lanes per row, each lane computing 4 consecutive
//          columns of T/8 rows and storing them as one aligned float4. Each row's
//          segment is shifted left by row_start(i) % 8 columns so that it starts on a
//          32-byte sector (the shifted-out columns belong to the tile on the left, the
//          diagonal tile takes the spill): then no DRAM sector is half-written by two
//          tiles (experiments/apps2d/README.md has the measurements).
//          In the full layout the diagonal tile also completes the sector holding
//          (i, i) with the symmetric values D(i, j), j > i (fast_full_row_end).
//          This is the thread coarsening that block-space maps make easy (000 §VI).
// The host-side part (layouts, indices, distance) also compiles with a plain C++
// compiler, so the CPU checks use the very same functions.
#pragma once
#include <tdmaps/numbers.hpp>
#include <tdmaps/plan.hpp>
#include <tdmaps/registry.hpp>  // is_utm
#include <results/layouts.hpp>  // results::edm_variant: the layouts' words in edm.csv, declared once

namespace tdmaps::edm {

// The output layout of the N x N distance matrix: full (row-major N x N) or packed (the lower triangle
// with diagonal, tri(N) elements). Not a CSV layout (results::Layout); layout_name gives edm.csv's word.
enum class EdmOutput { full, packed };
inline const char* layout_name(EdmOutput L) {
  return L == EdmOutput::full ? results::edm_variant::full : results::edm_variant::packed;
}

constexpr int max_features = 4;

// Elements of the output buffer of a layout.
inline u64 out_elems(i64 N, EdmOutput L) { return L == EdmOutput::full ? u64(N) * u64(N) : tri(u64(N)); }
// Elements the kernels write (the lower triangle with diagonal), both layouts.
inline u64 written_elems(i64 N) { return tri(u64(N)); }

// Index of element (i, 0) of row i.
template <EdmOutput L>
TD_HD u64 row_start(i64 N, i64 i) {
  if constexpr (L == EdmOutput::full) return u64(i) * u64(N);
  else return tri(u64(i));
}
inline u64 out_index(EdmOutput L, i64 N, i64 i, i64 j) {
  return (L == EdmOutput::full ? row_start<EdmOutput::full>(N, i) : row_start<EdmOutput::packed>(N, i)) + u64(j);
}

// Fast kernels, full layout: the last column they write in row i. Besides (i, 0..i) they
// write the rest of the 32-byte sector holding the diagonal element (i, i) (within the
// row), with the values D(i, j) = D(j, i): a sector left half-written is evicted from L2
// with a byte mask and costs a DRAM read-modify-write (ECC works on whole sectors;
// attempts/edm_2ad168d_*.csv is the kernel without this). Assumes a 32-byte aligned
// output. The plain kernels write exactly the lower triangle.
TD_HD i64 fast_full_row_end(i64 N, i64 i) {
  const i64 e = i + 7 - i64((u64(i) * u64(N) + u64(i)) & 7u);
  return e < N - 1 ? e : N - 1;
}

// The distance, in this fixed order: s = (a0-b0)^2; s += (ak-bk)^2 for k = 1..D-1; sqrt(s).
template <int D>
TD_HD float distance(const float (&a)[D], const float (&b)[D]) {
  static_assert(D >= 1 && D <= max_features, "1..4 features");
  float d = fsub_rn(a[0], b[0]);
  float s = fmul_rn(d, d);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int k = 1; k < D; ++k) {
    d = fsub_rn(a[k], b[k]);
    s = fadd_rn(s, fmul_rn(d, d));
  }
  return fsqrt_rn(s);
}

// ---- the plain kernel's cell: UTM in row-major order ------------------------------------
// UTM (map_utm.hpp) enumerates the strictly upper triangle of side N+1 row by row, thread k
// -> (a, b), b fastest, and transposes: (i, j) = (b-2, a-1). Consecutive threads then get
// consecutive i at a fixed j, so their EDM stores are N floats apart (full layout) or a
// row apart (packed): one sector per thread. The plain EDM kernel reads UTM's row a as
// lower-triangle row N-a instead (lengths N+1-a = (N-a)+1 agree):
//     (i', j') = (N - a, b - a - 1) = (N-1-j, i-j)   from UTM's (i, j),
// a bijection of {0 <= j <= i < N} onto itself; consecutive threads (consecutive b) get
// consecutive j' in row i', i.e. consecutive addresses. The map's arithmetic is UTM's,
// untouched; only which cell a thread computes changes (the EDM's symmetry allows it).
template <class Index>
TD_HD Cell2T<Index> utm_row_major(const Cell2T<Index>& c, i64 N) {
  return Cell2T<Index>{Index(N) - 1 - c.j, c.i - c.j, c.inside};
}
// The cell thread (bx, by, tx, ty) of pass `pass` computes in the plain EDM kernel: the
// map's cell, in row-major order for UTM (above).
template <class M, class Index>
TD_HD Cell2T<Index> plain_cell(const typename M::Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
  const Cell2T<Index> c = M::template cell<Index>(p, pass, bx, by, tx, ty);
  if constexpr (is_utm<M>::value) return utm_row_major<Index>(c, p.N);
  else return c;
}

// The fast kernel's tile side for a given rho.
inline int fast_tile(int rho) { return 4 * rho; }

}  // namespace tdmaps::edm

#if defined(__CUDACC__)

// The fast kernels' distance: verified by relative error (<= 1e-6 against float64),
// not bit for bit, so they may use fused multiply-adds and the approximate
// hardware square root (x * rsqrt(x), ~2 ulp). One feature: |a - b| exactly.
// sqrt.approx.f32 (MUFU.SQRT, relative error ~2^-23), without flushing subnormals
// to zero: a subnormal sum of squares (distance < 2^-63) still gets its square root.
__device__ __forceinline__ float sqrt_approx(float x) {
  float r;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

template <int D>
__device__ __forceinline__ float distance_fast(const float (&a)[D], const float (&b)[D]) {
  if constexpr (D == 1) {
    return fabsf(a[0] - b[0]);
  } else {
    float d = a[0] - b[0];
    float s = d * d;
#pragma unroll
    for (int k = 1; k < D; ++k) {
      d = a[k] - b[k];
      s = fmaf(d, d, s);
    }
    return sqrt_approx(s);
  }
}

#include "common.cuh"

#include <cstdint>

namespace tdmaps::edm {

// ---- plain: one output per thread (the papers' EDM kernel) ---------------------------
template <class M, class Index, int D, EdmOutput L>
__global__ void edm_plain_kernel(typename M::Params p, int pass, const float* __restrict__ pts, float* __restrict__ out) {
  const Cell2T<Index> c = plain_cell<M, Index>(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (!c.inside) return;
  float a[D], b[D];
#pragma unroll
  for (int k = 0; k < D; ++k) {
    a[k] = pts[i64(k) * p.N + c.i];
    b[k] = pts[i64(k) * p.N + c.j];
  }
  out[row_start<L>(p.N, c.i) + u64(c.j)] = distance<D>(a, b);
}

template <class M, int D, EdmOutput L>
void launch_plain(const typename M::Params& p, const float* pts, float* out) {
  gpu::launch_checked<M>(p, TD_KERNEL_FOR(edm_plain_kernel<M, Index, D, L>), pts, out);
}

// ---- fast: T x T tiles, row segments skewed to 32-byte sectors, float4 stores -------
// Tile T x T cells (T = 64 or 128), 2T threads: T/4 lanes per row segment, 8 rows per
// sweep, T/8 sweeps. Row i of tile (bi, bj) owns the columns
//     [j0 - S_i, j0 - S_i + T) intersected with [0, i],   S_i = row_start(i) % 8,
// plus, in the diagonal tile (bj == bi), the up to S_i columns [j0 - S_i + T, i].
// Over bj = 0..bi the segments partition [0, i]. Shifting each row by S_i makes every
// segment start on a 32-byte sector, so each lane stores one aligned float4 and no
// sector is shared by two tiles except at the row's two ends. (With 16-byte alignment
// half the segments share their end sectors with the neighbouring tile; when L2 evicts
// such a half-written sector before the neighbour writes the other half, the DRAM write
// becomes a read-modify-write: measured 1.1x-1.3x slower on the packed layout.)
// S = 4h + a: lane L's columns are j0 - a + 4(L - h) + e, e = 0..3. a = row_start(i) % 4
// depends only on i mod 8 (packed: tri(i + 8) - tri(i) = 8i + 36; full: 8N), so it is
// fixed per thread; h flips every sweep in the packed layout (8i + 36 = 4 mod 8) and is
// fixed in the full one. Each lane keeps the points of both column sets (h = 0, 1) in
// registers for the whole tile.
template <int T>
struct TileGeom {
  static_assert(T == 64 || T == 128, "tile side 64 or 128");
  static constexpr int lpr = T / 4;            // lanes per row segment
  static constexpr int rows = 8;               // rows per sweep (16 measured slower: d = 4 needs ~80
                                               // registers, so 512-thread blocks fall to one per SM)
  static constexpr int threads = lpr * rows;   // threads per block (2T)
  static constexpr int sweeps = T / rows;      // rows per thread (even)
};

// One 16-byte store, written as st.global.v4 so that the compiler cannot split it into
// four scalar stores when it merges branches (it did: 4x the L2 write requests).
__device__ __forceinline__ void store4(float* p, const float (&v)[4]) {
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3]));
}

template <int D>
__device__ __forceinline__ void load_point(const float* __restrict__ pts, i64 N, i64 j, float (&x)[D]) {
#pragma unroll
  for (int k = 0; k < D; ++k) x[k] = (j >= 0 && j < N) ? pts[i64(k) * N + j] : 0.0f;
}

template <class M, class Index, int D, EdmOutput L, int T>
__global__ void __launch_bounds__(TileGeom<T>::threads) edm_fast_kernel(typename M::Params p, int pass,
                                                                         const float* __restrict__ pts,
                                                                         float* __restrict__ out) {
  using G = TileGeom<T>;
  constexpr int R = G::rows;
  // packed: tri(i + 8) - tri(i) = 8i + 36 = 4 mod 8, so S flips by 4 each sweep; full: 8N = 0 mod 8.
  constexpr bool flips = L == EdmOutput::packed;
  __shared__ float rows[D][T];
  const i64 N = p.N;
  const int tid = int(threadIdx.x), lane = tid % G::lpr, r = tid / G::lpr;  // r: local row 0..R-1
  // row_start(i0 + r) % 8 for every tile (i0 % 64 == 0); sweep s adds 4s (packed) or 0 (full) mod 8
  const int S0 = int(row_start<L>(N, r) & 7u);
  // base of the row G::rows further down, before re-aligning (packed: tri(i + 8) - tri(i) = 8i + 36)
  auto step = [N](u64 b, i64 row) {
    return b + ((L == EdmOutput::full) ? u64(R) * u64(N) : u64(R) * u64(row) + u64(R * (R + 1) / 2));
  };
  // The map's block coordinate; the whole block leaves together (before any barrier).
  // (A persistent grid walking the map's blocks measured slower in a development probe.)
  const Cell2T<Index> b = M::template block_cell<Index>(p, pass, blockIdx.x, blockIdx.y);
  if (!b.inside) return;
  const i64 i0 = i64(b.i) * T, j0 = i64(b.j) * T;
  if (i0 >= N) return;

  for (int q = tid; q < T; q += G::threads) {
    const i64 i = i0 + q;
#pragma unroll
    for (int k = 0; k < D; ++k) rows[k][q] = (i < N) ? pts[i64(k) * N + i] : 0.0f;
  }
  // Even sweeps use shift S0, odd sweeps S1 (= S0 + 4 mod 8 when packed).
  const int S1 = flips ? (S0 ^ 4) : S0;
  const i64 ce = j0 - S0 + 4 * lane, co = j0 - S1 + 4 * lane;  // first column, even / odd sweeps
  float cpe[4][D], cpo[4][D];
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    load_point<D>(pts, N, ce + e, cpe[e]);
    if constexpr (flips) load_point<D>(pts, N, co + e, cpo[e]);
  }
  __syncthreads();

  i64 i = i0 + r;
  u64 raw = row_start<L>(N, i) + u64(j0);  // element (i, j0)
  if (b.j >= 1 && b.j < b.i && i0 + T <= N) {  // interior tile: whole chunks, no tests
#pragma unroll 2
    for (int s = 0; s < G::sweeps; s += 2) {
      float rp[D], v[4];
#pragma unroll
      for (int k = 0; k < D; ++k) rp[k] = rows[k][r + s * G::rows];
#pragma unroll
      for (int e = 0; e < 4; ++e) v[e] = distance_fast<D>(rp, cpe[e]);
      store4(out + (raw - S0 + 4u * u32(lane)), v);
      raw = step(raw, i);
      i += G::rows;
#pragma unroll
      for (int k = 0; k < D; ++k) rp[k] = rows[k][r + (s + 1) * G::rows];
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if constexpr (flips) v[e] = distance_fast<D>(rp, cpo[e]);
        else v[e] = distance_fast<D>(rp, cpe[e]);
      }
      store4(out + (raw - S1 + 4u * u32(lane)), v);
      raw = step(raw, i);
      i += G::rows;
    }
    return;
  }
  const bool last_lane = lane == G::lpr - 1, diagonal = b.i == b.j;
  for (int s = 0; s < G::sweeps && i < N; ++s, i += G::rows) {  // rows past N: last tile row only
    // last column written in this row: i, or in the full layout's diagonal tile the end of
    // the sector holding (i, i) (fast_full_row_end)
    const i64 jmax = (L == EdmOutput::full && diagonal) ? fast_full_row_end(N, i) : i;
    const bool odd = flips && (s & 1);
    const int S = odd ? S1 : S0;
    const i64 c0 = odd ? co : ce;
    float rp[D], v[4];
#pragma unroll
    for (int k = 0; k < D; ++k) rp[k] = rows[k][r + s * G::rows];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float x[D];  // select values, not arrays (a pointer select would put cpe/cpo in local memory)
#pragma unroll
      for (int k = 0; k < D; ++k) {
        if constexpr (flips) x[k] = odd ? cpo[e][k] : cpe[e][k];
        else x[k] = cpe[e][k];
      }
      v[e] = distance_fast<D>(rp, x);
    }
    const u64 base = raw - S + 4u * u32(lane);
    if (c0 >= 0 && c0 + 3 <= jmax) {
      store4(out + base, v);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (c0 + e >= 0 && c0 + e <= jmax) out[base + e] = v[e];
    }
    if (diagonal && last_lane)  // columns j0 - S + T .. jmax
      for (i64 j = c0 + 4; j <= jmax; ++j) {
        float x[D];
        load_point<D>(pts, N, j, x);
        out[base + u64(j - c0)] = distance_fast<D>(rp, x);
      }
    raw = step(raw, i);
  }
}

// The plan of a fast variant: the map's own plan with block side T = 4*rho cells.
template <class M>
typename M::Params plan_fast(i64 N, int rho, bool allow_inexact) {
  static_assert(M::blockwise, "the fast EDM needs a blockwise map (block_cell)");
  if (rho != 16 && rho != 32)
    throw unsupported(std::string(M::name) + "-fast: rho must be 16 or 32 (tiles of 64 or 128 cells); got " +
                      std::to_string(rho));
  return M::plan(N, fast_tile(rho), allow_inexact);
}

template <class M, int D, EdmOutput L, int T>
void launch_fast_tile(const typename M::Params& p, const float* pts, float* out) {
  // The fast kernel takes its block coordinate on the 64-bit path whatever the plan:
  // it evaluates the map once per T x T tile (not per cell), its output indices are
  // 64-bit anyway, and the 32-bit instantiation measured slower on an H200 (d = 4:
  // 96 registers instead of 80 in one instantiation, a spill in another; bb-fast and
  // ltm-e-fast packed up to 13% slower, experiments/apps2d/README.md).
  for (int pass = 0; pass < p.passes; ++pass) {
    edm_fast_kernel<M, i64, D, L, T><<<gpu::to_dim3(M::grid(p, pass)), TileGeom<T>::threads>>>(p, pass, pts, out);
    TD_LAUNCHED();
  }
}
template <class M, int D, EdmOutput L>
void launch_fast(const typename M::Params& p, const float* pts, float* out) {
  if (reinterpret_cast<std::uintptr_t>(out) % 32 != 0) gpu::die("edm fast: the output must be 32-byte aligned");
  if (p.rho == 64) launch_fast_tile<M, D, L, 64>(p, pts, out);
  else if (p.rho == 128) launch_fast_tile<M, D, L, 128>(p, pts, out);
  else gpu::die("edm fast: plan block side must be 64 or 128 (plan it with plan_fast)");
}

}  // namespace tdmaps::edm
#endif  // __CUDACC__
