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
//          registry (the papers' kernel). The map supplies grid and (i, j).
//   fast   blockwise maps only (BB, LTM-*, REC): the map is planned with block
//          side T = 4*rho cells; each block of 256 threads covers a T x T tile
//          given by M::block_cell, each thread computing 4 consecutive columns
//          of T/(256/(T/4)) rows and storing them as float4 along j. Rows whose
//          first element is not 16-byte aligned (packed layout; full layout with
//          N % 4 != 0) are realigned with warp shuffles so that every interior
//          chunk is still one aligned float4 store; the unaligned head and tail
//          of each row segment are written as scalars. This is the thread
//          coarsening that block-space maps make easy (000 §VI).
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

}  // namespace tdmaps::edm

#if defined(__CUDACC__)

// The fast kernels' distance: verified by relative error (<= 1e-6 against float64),
// not bit for bit, so they may use fused multiply-adds and the approximate
// hardware square root (x * rsqrt(x), ~2 ulp). One feature: |a - b| exactly.
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
    return s > 0.0f ? s * rsqrtf(s) : 0.0f;
  }
}

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

// ---- fast: T x T tiles, float4 stores along j ----------------------------------------
template <int T>
struct FastGeom {
  static constexpr int lpr = T / 4;                        // lanes per row segment (4 columns each)
  static constexpr int rows_per_sweep = fast_threads / lpr; // rows the block covers at once
  static constexpr int sweeps = T / rows_per_sweep;         // rows per thread
  static_assert(lpr == 16 || lpr == 32, "T must be 64 or 128 (a row segment is a half or full warp)");
  static_assert(sweeps * rows_per_sweep == T, "tile rows must divide evenly");
};

// Stores one row segment: lane `lane` of the segment holds v[e] = D(i, j0 + 4*lane + e).
// The segment starts at output element off = cb + A (cb multiple of 4, A = off % 4,
// uniform over the segment). Lane c writes the aligned chunk [cb + 4c, cb + 4c + 4),
// which holds local columns q = 4c + e - A: from its own v[e - A] when e >= A, else
// from lane c-1's v[e - A + 4] (one shuffle). The last lane also writes the A
// elements that spill past chunk lpr-1. Only columns 0 <= q <= qmax are written.
// Every lane of the segment must call this (the shuffles), row_ok or not.
template <int A, int LPR>
__device__ __forceinline__ void store_segment(float* __restrict__ out, u64 cb, const float (&v)[4], int lane,
                                              int qmax, bool row_ok, unsigned mask) {
  float w[4];
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const float x = v[(e - A) & 3];
    w[e] = (e < A) ? __shfl_up_sync(mask, x, 1, LPR) : x;
  }
  if (!row_ok) return;
  const int q0 = 4 * lane - A;  // local column of w[0]
  float* dst = out + cb + 4u * u32(lane);
  if (q0 >= 0 && q0 + 3 <= qmax) {
    *reinterpret_cast<float4*>(dst) = make_float4(w[0], w[1], w[2], w[3]);
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (q0 + e >= 0 && q0 + e <= qmax) dst[e] = w[e];
  }
  if (A > 0 && lane == LPR - 1) {
#pragma unroll
    for (int e = 0; e < A; ++e)
      if (4 * LPR + e - A <= qmax) dst[4 + e] = v[(e - A) & 3];
  }
}

template <class M, int D, Layout L, int T>
__global__ void __launch_bounds__(fast_threads) edm_fast_kernel(Plan2 p, int pass, const float* __restrict__ pts,
                                                                  float* __restrict__ out) {
  using G = FastGeom<T>;
  // The map's block coordinate; the whole block leaves together (before any barrier).
  const Cell2 b = M::block_cell(p, pass, blockIdx.x, blockIdx.y);
  if (!b.inside) return;
  const i64 N = p.N, i0 = b.i * T, j0 = b.j * T;
  if (i0 >= N) return;

  // Row points of the tile, staged once; read as broadcasts below.
  __shared__ float rows[D][T];
  for (int t = threadIdx.x; t < T; t += fast_threads) {
    const i64 i = i0 + t;
#pragma unroll
    for (int k = 0; k < D; ++k) rows[k][t] = (i < N) ? pts[i64(k) * N + i] : 0.0f;
  }
  const int lane = int(threadIdx.x) % G::lpr, r0 = int(threadIdx.x) / G::lpr;
  const unsigned mask =
      G::lpr == 32 ? 0xffffffffu : (0xffffu << (threadIdx.x & 16u));  // the lanes of this row segment
  // The thread's 4 columns, in registers for the whole tile.
  float cp[4][D];
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const i64 j = j0 + 4 * lane + e;
#pragma unroll
    for (int k = 0; k < D; ++k) cp[e][k] = (j < N) ? pts[i64(k) * N + j] : 0.0f;
  }
  __syncthreads();

  for (int s = 0; s < G::sweeps; ++s) {
    const int rl = r0 + s * G::rows_per_sweep;
    const i64 i = i0 + rl;
    const bool row_ok = i < N;  // uniform over the segment
    float rp[D];
#pragma unroll
    for (int k = 0; k < D; ++k) rp[k] = rows[k][rl];
    float v[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) v[e] = distance_fast<D>(rp, cp[e]);
    // last local column of the row inside the triangle (block_cell gives j0 <= i0 <= i)
    const int qmax = int((i - j0 < T - 1) ? i - j0 : T - 1);
    const u64 off = row_start<L>(N, i) + u64(j0);
    const u64 cb = off & ~u64(3);
    switch (int(off & 3u)) {
      case 0: store_segment<0, G::lpr>(out, cb, v, lane, qmax, row_ok, mask); break;
      case 1: store_segment<1, G::lpr>(out, cb, v, lane, qmax, row_ok, mask); break;
      case 2: store_segment<2, G::lpr>(out, cb, v, lane, qmax, row_ok, mask); break;
      default: store_segment<3, G::lpr>(out, cb, v, lane, qmax, row_ok, mask); break;
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

template <class M, int D, Layout L, int T>
void launch_fast_tile(const Plan2& p, const float* pts, float* out) {
  for (int pass = 0; pass < p.passes; ++pass) {
    edm_fast_kernel<M, D, L, T><<<gpu::to_dim3(M::grid(p, pass)), fast_threads>>>(p, pass, pts, out);
    TD_LAUNCHED();
  }
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
