// src/support/gpu/collision.cuh — brute-force collision detection of N spheres (3D) or
// intervals (1D), all pairs i > j, written once and templated on the map policy M
// (000_dc8ca915cfc23e3c.txt §V, test (3): "collision detection of N spheres with
// random radius inside a unit box ... using a shared memory approach").
//
// Pair (i, j) collides when
//     dx^2 [+ dy^2 + dz^2] <= (r_i + r_j)^2
// evaluated with pinned rounding (fsub_rn/fmul_rn/fadd_rn of tdmaps/config.hpp) in
// the fixed order of collides() below, so the device and the CPU reference (the
// same function, host build with -ffp-contract=off) agree exactly, pair by pair.
// The map covers the triangle with its diagonal; the diagonal cells (i == j) are
// mapped but not counted: a sphere does not collide with itself.
//
// Output: per-sphere collision counts (u32) and the number of colliding pairs
// (u64); each colliding pair adds 1 to counts[i], 1 to counts[j] and 1 to the total.
// Two kernel styles (Style), the same pair test:
//   smem    blockwise maps only (BB, LTM-*, REC, RB-B): the block stages its two tiles of
//           spheres in shared memory (rows [bi*rho, bi*rho+rho), columns [bj*rho,
//           bj*rho+rho), from M::block_cell), counts collisions per tile sphere with
//           shared-memory atomics and then adds each nonzero count to global memory with
//           one atomicAdd: the papers' shared-memory test (000 §V, test (3)).
//   direct  every map: each thread reads its two spheres through the read-only data cache
//           (__ldg) and adds to global memory per colliding pair. The only form a
//           threadwise map (RB, UTM, BB-T) can take (RB folds two row ranges into one
//           block, UTM's blocks are 1D runs of a row-major order; as the paper says for UTM).
// default_style<M>() is smem for blockwise maps and direct for the others (the form each
// map had before both styles existed). In both styles the block's pair count is reduced
// with __syncthreads_count and added to the total with one 64-bit atomicAdd.
#pragma once
#include <tdmaps/plan.hpp>

#include <string>

namespace tdmaps::coll {

// A sphere (D = 3) or an interval (D = 1): centre c and radius r. 16 / 8 bytes,
// aligned so that one 128-/64-bit load fetches it.
template <int D>
struct alignas(D == 3 ? 16 : 8) Sphere {
  float c[D];
  float r;
};
static_assert(sizeof(Sphere<3>) == 16 && sizeof(Sphere<1>) == 8, "sphere layout");

template <int D>
TD_HD bool collides(const Sphere<D>& a, const Sphere<D>& b) {
  static_assert(D == 1 || D == 3, "1D or 3D");
  float d = fsub_rn(a.c[0], b.c[0]);
  float d2 = fmul_rn(d, d);
  for (int k = 1; k < D; ++k) {
    d = fsub_rn(a.c[k], b.c[k]);
    d2 = fadd_rn(d2, fmul_rn(d, d));
  }
  const float s = fadd_rn(a.r, b.r);
  return d2 <= fmul_rn(s, s);
}

// Largest rho a collision kernel takes (a block has rho*rho <= 1024 threads).
constexpr int max_rho = 32;

// The kernel style (see the top of this file).
enum class Style : int { smem = 0, direct = 1 };
inline const char* style_name(Style s) { return s == Style::smem ? "smem" : "direct"; }
// The styles map M can run, and its default (the papers' form for that map).
template <class M> constexpr bool has_style(Style s) { return s == Style::direct || M::blockwise; }
template <class M> constexpr Style default_style() { return M::blockwise ? Style::smem : Style::direct; }

}  // namespace tdmaps::coll

#if defined(__CUDACC__)
#include "common.cuh"

namespace tdmaps::coll {

static_assert(sizeof(unsigned long long) == 8, "64-bit total");

// Read-only-cache load of sphere k.
__device__ __forceinline__ Sphere<3> load_ro(const Sphere<3>* s, i64 k) {
  const float4 v = __ldg(reinterpret_cast<const float4*>(s) + k);
  return Sphere<3>{{v.x, v.y, v.z}, v.w};
}
__device__ __forceinline__ Sphere<1> load_ro(const Sphere<1>* s, i64 k) {
  const float2 v = __ldg(reinterpret_cast<const float2*>(s) + k);
  return Sphere<1>{{v.x}, v.y};
}

// __launch_bounds__(1024, 2): at most 32 registers for every map, so every map's blocks
// fill the SM alike (2048 threads: 8 blocks of 16 x 16). Without it the maps' register
// counts (30..40) decided the occupancy, 6 or 8 blocks per SM, and with it the
// comparison (measured on an H100: ltm-e 38 registers ran 28% slower than ltm-r's 32).
template <class M, class Index, int D, Style S>
__global__ void __launch_bounds__(1024, 2) collision_kernel(typename M::Params p, int pass, const Sphere<D>* __restrict__ s, u32* __restrict__ counts,
                                 unsigned long long* __restrict__ total) {
  static_assert(has_style<M>(S), "the shared-memory collision kernel needs a blockwise map (block_cell)");
  const int t = int(threadIdx.y * blockDim.x + threadIdx.x);
  const int nthreads = int(blockDim.x * blockDim.y);
  int hit = 0;
  if constexpr (S == Style::smem) {
    __shared__ Sphere<D> rs[max_rho], cs[max_rho];  // the block's row and column tiles
    __shared__ u32 rc[max_rho], cc[max_rho];        // their collision counts
    const Cell2T<Index> b = M::template block_cell<Index>(p, pass, blockIdx.x, blockIdx.y);
    if (!b.inside) return;  // uniform over the block, before any barrier
    const int rho = p.rho;
    const i64 r0 = i64(b.i) * rho, c0 = i64(b.j) * rho;
    for (int k = t; k < 2 * rho; k += nthreads) {
      if (k < rho) {
        if (r0 + k < p.N) rs[k] = s[r0 + k];
        rc[k] = 0;
      } else {
        if (c0 + k - rho < p.N) cs[k - rho] = s[c0 + k - rho];
        cc[k - rho] = 0;
      }
    }
    __syncthreads();
    // A blockwise map's thread cell is its block cell offset by the thread (plan.hpp).
    const Cell2T<Index> c = thread_in_block(p.N, rho, b, threadIdx.x, threadIdx.y);
    if (c.inside && c.i > c.j) {
      const int li = int(c.i - r0), lj = int(c.j - c0);
      if (collides<D>(rs[li], cs[lj])) {
        hit = 1;
        atomicAdd(&rc[li], 1u);
        atomicAdd(&cc[lj], 1u);
      }
    }
    const int n = __syncthreads_count(hit);  // also the barrier before reading rc/cc
    if (t == 0 && n) atomicAdd(total, static_cast<unsigned long long>(n));
    for (int k = t; k < 2 * rho; k += nthreads) {
      if (k < rho) {
        if (rc[k]) atomicAdd(&counts[r0 + k], rc[k]);
      } else {
        if (cc[k - rho]) atomicAdd(&counts[c0 + k - rho], cc[k - rho]);
      }
    }
  } else {
    const Cell2T<Index> c = M::template cell<Index>(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
    if (c.inside && c.i > c.j && collides<D>(load_ro(s, c.i), load_ro(s, c.j))) {
      hit = 1;
      atomicAdd(&counts[c.i], 1u);
      atomicAdd(&counts[c.j], 1u);
    }
    const int n = __syncthreads_count(hit);
    if (t == 0 && n) atomicAdd(total, static_cast<unsigned long long>(n));
  }
}

template <class M, int D, Style S = default_style<M>()>
void launch(const typename M::Params& p, const Sphere<D>* s, u32* counts, unsigned long long* total) {
  if (p.rho > max_rho) gpu::die("collision: rho must be <= 32");
  gpu::launch_checked<M>(p, TD_KERNEL_FOR(collision_kernel<M, Index, D, S>), s, counts, total);
}

}  // namespace tdmaps::coll
#endif  // __CUDACC__
