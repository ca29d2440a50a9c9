// src/gpu/edm.cuh — Euclidean distance matrix (EDM) kernels, written once and
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
// The arithmetic is pinned (fsub_rn/fmul_rn/fadd_rn/fsqrt_rn of tdmaps/config.hpp:
// __fsub_rn/__fmul_rn/__fadd_rn/__fsqrt_rn on the device, plain IEEE operations
// with -ffp-contract=off on the host), in one fixed order, so the device result
// is the correctly rounded float evaluation of that order; relative to the exact
// (float64) distance its error is below 4 * 2^-24 ~ 2.4e-7 for every d <= 4.
//
// Two kernels:
//   plain  one output per thread, rho x rho threads per block, every map of the
//          registry (the papers' kernel). The map supplies grid and (i, j).
//   fast   blockwise maps only (BB, LTM-*, REC): the map is planned with block
//          side T = 4*rho cells; each block of 256 threads covers the T x T tile
//          that M::block_cell gives. A row segment (T columns) belongs to T/4
//          lanes; lane c keeps the points of its 4 columns in registers and
//          computes 4 outputs per row for T*T/1024 rows of the tile. Two column
//          assignments, chosen per launch:
//            vec     (full layout, N % 4 == 0: every row start 16-byte aligned)
//                    columns 4c..4c+3, one float4 store per row;
//            strided (packed layout, full with N % 4 != 0) columns c + e*T/4,
//                    e = 0..3: four coalesced scalar stores per row (a warp
//                    writes 128 contiguous bytes per store, whatever the row's
//                    alignment), so no realignment (shuffles, heads, tails).
//          Only tiles that cross the diagonal test columns against the row.
//          Arithmetic of the fast kernels (error <= ~3e-7, not bit-pinned; the
//          checks compare with float64 at 1e-6): d = 1: |a - b| (= sqrt(d*d)
//          exactly up to the one rounding of a - b); d >= 2: FMA accumulation and
//          sqrt.approx.f32 (MUFU.SQRT with subnormal scaling; exact 0 for 0).
//          This is the thread coarsening that block-space maps make easy (000 §VI).
// The host-side part (layouts, indices, distance) also compiles with a plain C++
// compiler, so the CPU checks use the very same functions.
#pragma once
#include <tdmaps/numbers.hpp>
#include <tdmaps/plan.hpp>

namespace tdmaps::edm {

enum class Layout { full, packed };
inline const char* layout_name(Layout L) { return L == Layout::full ? "full" : "packed"; }

constexpr int max_features = 4;

// Elements of the output buffer of a layout.
inline u64 out_elems(i64 N, Layout L) { return L == Layout::full ? u64(N) * u64(N) : tri(u64(N)); }
// Elements the kernels write (the lower triangle with diagonal), both layouts.
inline u64 written_elems(i64 N) { return tri(u64(N)); }

// Index of element (i, 0) of row i.
template <Layout L>
TD_HD u64 row_start(i64 N, i64 i) {
  if constexpr (L == Layout::full) return u64(i) * u64(N);
  else return tri(u64(i));
}
inline u64 out_index(Layout L, i64 N, i64 i, i64 j) {
  return (L == Layout::full ? row_start<Layout::full>(N, i) : row_start<Layout::packed>(N, i)) + u64(j);
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

// Threads per block of the fast kernel, and its tile side for a given rho.
constexpr int fast_threads = 256;
inline int fast_tile(int rho) { return 4 * rho; }

// Geometry of the fast kernel (host-visible so the CPU checks replay its indexing):
// tile T x T, lpr = T/4 lanes per row segment, rows_per_sweep rows at once; lane
// `lane` owns the tile-local columns col(lane, e), e = 0..3.
template <int T, bool Vec>
struct FastGeom {
  static constexpr int lpr = T / 4;
  static constexpr int rows_per_sweep = fast_threads / lpr;
  static_assert(T == 64 || T == 128, "T must be 64 or 128");
  static_assert(rows_per_sweep * lpr == fast_threads, "");
  TD_HD static constexpr int col(int lane, int e) { return Vec ? 4 * lane + e : lane + lpr * e; }
};
// Whether the fast kernel uses float4 stores (every row start 16-byte aligned).
inline bool fast_vec(Layout L, i64 N) { return L == Layout::full && N % 4 == 0; }

// Row starts of rows i, i+R, i+2R, ... with one 64-bit add per row (packed:
// tri(i+R) - tri(i) = R*i + tri(R), growing by R*R per step).
template <Layout L>
struct RowWalk {
  u64 rs, step;
  TD_HD RowWalk(i64 N, i64 i, int R)
      : rs(row_start<L>(N, i)),
        step(L == Layout::full ? u64(R) * u64(N) : u64(R) * u64(i) + tri(u64(R))) {}
  TD_HD void next(int R) {
    rs += step;
    if constexpr (L == Layout::packed) step += u64(R) * u64(R);
  }
};

}  // namespace tdmaps::edm

#if defined(__CUDACC__)
#include "common.cuh"

#include <cstdint>

namespace tdmaps::edm {

// ---- plain: one output per thread (the papers' EDM kernel) ---------------------------
template <class M, int D, Layout L>
__global__ void edm_plain_kernel(Plan2 p, int pass, const float* __restrict__ pts, float* __restrict__ out) {
  const Cell2 c = M::cell(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (!c.inside) return;
  float a[D], b[D];
#pragma unroll
  for (int k = 0; k < D; ++k) {
    a[k] = pts[i64(k) * p.N + c.i];
    b[k] = pts[i64(k) * p.N + c.j];
  }
  out[row_start<L>(p.N, c.i) + u64(c.j)] = distance<D>(a, b);
}

template <class M, int D, Layout L>
void launch_plain(const Plan2& p, const float* pts, float* out) {
  gpu::launch2<M>(edm_plain_kernel<M, D, L>, p, pts, out);
}

// ---- fast: T x T tiles, 4 outputs per thread and row ----------------------------------
// The distance of the fast kernels (see the header): not pinned, error <= ~3e-7.
template <int D>
__device__ __forceinline__ float fast_distance(const float (&a)[D], const float (&b)[D]) {
  static_assert(D >= 1 && D <= max_features, "1..4 features");
  if constexpr (D == 1) {
    return fabsf(__fsub_rn(a[0], b[0]));
  } else {
    float d = __fsub_rn(a[0], b[0]);
    float s = __fmul_rn(d, d);
#pragma unroll
    for (int k = 1; k < D; ++k) {
      d = __fsub_rn(a[k], b[k]);
      s = __fmaf_rn(d, d, s);
    }
    float r;
    asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(s));  // MUFU.SQRT (+ subnormal scaling)
    return r;
  }
}

// Optional streaming stores (st.global.cs), off by default: -DTDMAPS_EDM_FAST_STCS=1.
#ifndef TDMAPS_EDM_FAST_STCS
#define TDMAPS_EDM_FAST_STCS 0
#endif
__device__ __forceinline__ void fast_st(float* p, float v) {
#if TDMAPS_EDM_FAST_STCS
  __stcs(p, v);
#else
  *p = v;
#endif
}
__device__ __forceinline__ void fast_st4(float* p, float4 v) {
#if TDMAPS_EDM_FAST_STCS
  __stcs(reinterpret_cast<float4*>(p), v);
#else
  *reinterpret_cast<float4*>(p) = v;
#endif
}

// Row points in shared memory, one vector load per row (d = 3 padded to 4).
template <int D> constexpr int row_pad() { return D == 3 ? 4 : D; }
template <int D>
__device__ __forceinline__ void load_row(const float* r, float (&rp)[D]) {
  if constexpr (D == 1) {
    rp[0] = r[0];
  } else if constexpr (D == 2) {
    const float2 v = *reinterpret_cast<const float2*>(r);
    rp[0] = v.x; rp[1] = v.y;
  } else {
    const float4 v = *reinterpret_cast<const float4*>(r);
    rp[0] = v.x; rp[1] = v.y; rp[2] = v.z;
    if constexpr (D == 4) rp[3] = v.w;
  }
}

template <class M, int D, Layout L, int T, bool Vec>
__global__ void __launch_bounds__(fast_threads) edm_fast_kernel(Plan2 p, int pass, const float* __restrict__ pts,
                                                                  float* __restrict__ out) {
  using G = FastGeom<T, Vec>;
  constexpr int R = G::rows_per_sweep, P = row_pad<D>();
  // The map's block coordinate; the whole block leaves together (before the barrier).
  const Cell2 b = M::block_cell(p, pass, blockIdx.x, blockIdx.y);
  if (!b.inside) return;
  const i64 N = p.N, i0 = b.i * T, j0 = b.j * T;
  if (i0 >= N) return;
  const int rows = int(N - i0 < T ? N - i0 : T);  // rows of the tile inside the matrix

  // Row points of the tile, staged once; read as broadcasts below.
  __shared__ __align__(16) float rowp[T][P];
  for (int t = threadIdx.x; t < T * P; t += fast_threads) {
    const int r = t / P, k = t % P;
    rowp[r][k] = (r < rows && k < D) ? pts[i64(k) * N + i0 + r] : 0.0f;
  }
  const int lane = int(threadIdx.x) % G::lpr, r0 = int(threadIdx.x) / G::lpr;
  // The thread's 4 columns, in registers for the whole tile.
  float cp[4][D];
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const i64 j = j0 + G::col(lane, e);
#pragma unroll
    for (int k = 0; k < D; ++k) cp[e][k] = (j < N) ? pts[i64(k) * N + j] : 0.0f;
  }
  __syncthreads();

  RowWalk<L> w(N, i0 + r0, R);
  float* const outc = out + (u64(j0) + u64(G::col(lane, 0)));  // + row start = this lane's first output
  if (j0 + (T - 1) <= i0) {
    // Tile wholly on or below the diagonal: every column of every row is inside.
#pragma unroll 4
    for (int rl = r0; rl < rows; rl += R) {
      float rp[D];
      load_row<D>(rowp[rl], rp);
      float v[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) v[e] = fast_distance<D>(rp, cp[e]);
      float* const dst = outc + w.rs;
      if constexpr (Vec) {
        fast_st4(dst, make_float4(v[0], v[1], v[2], v[3]));
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) fast_st(dst + G::lpr * e, v[e]);
      }
      w.next(R);
    }
  } else {
    // Tile crossing the diagonal: row i keeps its columns j <= i.
    for (int rl = r0; rl < rows; rl += R) {
      const i64 qmax = i0 + rl - j0;  // last tile-local column of the row
      float rp[D];
      load_row<D>(rowp[rl], rp);
      float v[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) v[e] = fast_distance<D>(rp, cp[e]);
      float* const dst = outc + w.rs;
      if (Vec && G::col(lane, 3) <= qmax) {
        fast_st4(dst, make_float4(v[0], v[1], v[2], v[3]));
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
          if (G::col(lane, e) <= qmax) fast_st(dst + (G::col(lane, e) - G::col(lane, 0)), v[e]);
      }
      w.next(R);
    }
  }
}

// The plan of a fast variant: the map's own plan with block side T = 4*rho cells.
template <class M>
Plan2 plan_fast(i64 N, int rho, bool allow_inexact) {
  static_assert(M::blockwise, "the fast EDM needs a blockwise map (block_cell)");
  if (rho != 16 && rho != 32)
    throw unsupported(std::string(M::name) + "-fast: rho must be 16 or 32 (tiles of 64 or 128 cells); got " +
                      std::to_string(rho));
  return M::plan(N, fast_tile(rho), allow_inexact);
}

template <class M, int D, Layout L, int T, bool Vec>
void launch_fast_geom(const Plan2& p, const float* pts, float* out) {
  for (int pass = 0; pass < p.passes; ++pass) {
    edm_fast_kernel<M, D, L, T, Vec><<<gpu::to_dim3(M::grid(p, pass)), fast_threads>>>(p, pass, pts, out);
    TD_LAUNCHED();
  }
}
template <class M, int D, Layout L, int T>
void launch_fast_tile(const Plan2& p, const float* pts, float* out) {
  if constexpr (L == Layout::full) {
    if (fast_vec(L, p.N)) return launch_fast_geom<M, D, L, T, true>(p, pts, out);
  }
  launch_fast_geom<M, D, L, T, false>(p, pts, out);
}
template <class M, int D, Layout L>
void launch_fast(const Plan2& p, const float* pts, float* out) {
  if (reinterpret_cast<std::uintptr_t>(out) % 16 != 0) gpu::die("edm fast: the output must be 16-byte aligned");
  if (p.rho == 64) launch_fast_tile<M, D, L, 64>(p, pts, out);
  else if (p.rho == 128) launch_fast_tile<M, D, L, 128>(p, pts, out);
  else gpu::die("edm fast: plan block side must be 64 or 128 (plan it with plan_fast)");
}

}  // namespace tdmaps::edm
#endif  // __CUDACC__
