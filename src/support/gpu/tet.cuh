// src/support/gpu/tet.cuh — the GPU kernels of the tetrahedral study (003_66f856975a7ab3ee.txt),
// written once and templated on the 3D map policy M (BB3, TET_F, TET_E, TET_FAST:
// tdmaps/map_3d.hpp, tdmaps/tet_fast.hpp) and on where the block coordinate is
// computed (Mode):
//   Mode::thread  every thread evaluates M::cell / M::block_cell itself (as the papers);
//   Mode::block   thread 0 evaluates M::block_cell once, shares it through shared memory
//                 and __syncthreads (the map is blockwise: all threads of a block share
//                 the block coordinate, so this is the same map at 1/rho^3 of the cost).
// No map arithmetic lives here: every coordinate comes from the map headers.
//
//   dummy3_store  map only, the papers' dummy: every in-domain thread stores x + y + z
//                 to ONE fixed global address (so at large N it also measures that
//                 contended store).
//   dummy3_cond   map only, contention free: the store happens only when x + y + z
//                 equals a run-time value no cell produces (-1), so the map stays.
//   coverage3     verification: every in-domain thread sets the bit of its cell
//                 (linear index tet(z) + tri(y) + x) and the block counts productions,
//                 duplicates and out-of-domain cells.
//   threebody3    a 3-body workload over the triplets i <= j <= k of N points (the
//                 cells x <= y <= z): the histogram of how many of the three sides
//                 |p_i p_j|, |p_j p_k|, |p_i p_k| are shorter than r (4 bins, exact
//                 integer counts). Each block stages its three point tiles in shared
//                 memory at the block coordinate the map gives.
//   layout3_step  one diffusion step over the pyramid (apps/diffusion3d.hpp diffuse_thread),
//                 data in the linear or the succinct blocked layout (§III-A).
//   layout3_bw    the bandwidth-bound layout kernel: each in-domain thread streams its cell's
//                 K floats (K planes, each plane one array in the layout) in -> out with
//                 out = in + 1, no other work: the memory-bound case that 003 §III-A's
//                 "up to 2x from the blocked layout" (misaligned warps cost extra memory
//                 transactions) is about. layout3_step above is the compute-bound case.
//   bw_copy       its bandwidth reference: the same op over a flat array of the same byte
//                 count (16-byte vector accesses, grid-stride).
//   root_check3   the exact range of a layer root (Layer = true) or a row root on the device:
//                 tet(z) <= lambda < tet(z + 1) (tri for rows) checked with integers.
#pragma once
#include "common.cuh"

#include <apps/diffusion3d.hpp>  // also tdmaps/layout3d.hpp
#include <tdmaps/tet_fast.hpp>

namespace tdmaps::gpu {

enum class Mode : int { thread = 0, block = 1 };

// ---- where the map is evaluated -----------------------------------------------------
// The block coordinate of this block (uniform over the block), on index path Index.
template <class M, Mode mode, class Index>
__device__ __forceinline__ Cell3T<Index> block_coord3(const Plan3& p) {
  if constexpr (mode == Mode::thread) {
    return M::template block_cell<Index>(p, blockIdx.x, blockIdx.y, blockIdx.z);
  } else {
    __shared__ int4 s;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
      const Cell3T<Index> b = M::template block_cell<Index>(p, blockIdx.x, blockIdx.y, blockIdx.z);
      s = make_int4(int(b.x), int(b.y), int(b.z), int(b.inside));
    }
    __syncthreads();
    const int4 v = s;
    return Cell3T<Index>{Index(v.x), Index(v.y), Index(v.z), v.w != 0};
  }
}
// The cell of this thread.
template <class M, Mode mode, class Index>
__device__ __forceinline__ Cell3T<Index> thread_cell3(const Plan3& p) {
  if constexpr (mode == Mode::thread)
    return M::template cell<Index>(p, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
  else
    return thread_in_block3(p.N, p.rho, block_coord3<M, mode, Index>(p), threadIdx.x, threadIdx.y, threadIdx.z);
}
// A cell of the narrow path as the i64 cell the layouts (layout3d.hpp) take.
template <class Index> __device__ __forceinline__ Cell3 widen(const Cell3T<Index>& c) { return Cell3{i64(c.x), i64(c.y), i64(c.z), c.inside}; }
__device__ __forceinline__ u32 thread_rank3() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ u64 block_rank3() {
  return (u64(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

// ---- map-only kernels ---------------------------------------------------------------
// __launch_bounds__(1024): rho = 10 launches 1000 threads per block.
// As the 2D dummy (dummy.cuh): the int x + y + z, 4 bytes.
template <class M, Mode mode, class Index>
__global__ void __launch_bounds__(1024) dummy3_store(Plan3 p, int* out) {
  const Cell3T<Index> c = thread_cell3<M, mode, Index>(p);
  if (c.inside) out[0] = int(c.x + c.y + c.z);
}
template <class M, Mode mode, class Index>
__global__ void __launch_bounds__(1024) dummy3_cond(Plan3 p, int* out, int never) {
  const Cell3T<Index> c = thread_cell3<M, mode, Index>(p);
  if (c.inside && int(c.x + c.y + c.z) == never) out[0] = int(c.x + c.y + c.z);
}
constexpr int dummy3_never = -1;  // x + y + z >= 0 inside, -3 outside
// The reference of the instruction table (experiments/maps2d/sass_cost.sh): no map.
static __global__ void __launch_bounds__(1024) dummy3_cond_nomap(Plan3, int* out, int never) {
  const int s = int(blockIdx.x + blockIdx.y + blockIdx.z + threadIdx.x + threadIdx.y + threadIdx.z);
  if (s == never) out[0] = s;
}

// ---- coverage -----------------------------------------------------------------------
inline u64 coverage3_words(i64 N) { return (tet(u64(N)) + 31) / 32; }
enum Coverage3Counter : int { c3_inside = 0, c3_dup, c3_ood, c3_useful_blocks, c3_count };

template <class M, Mode mode, class Index>
__global__ void __launch_bounds__(1024) coverage3(Plan3 p, u32* bits, unsigned long long* counters) {
  const Cell3T<Index> c = thread_cell3<M, mode, Index>(p);
  int r = 0;  // 0 none, 1 new, 2 duplicate, 3 out of domain
  if (c.inside) {
    if (c.x < 0 || c.x > c.y || c.y > c.z || i64(c.z) >= p.N) {
      r = 3;
    } else {
      const u64 t = tet(u64(c.z)) + tri(u64(c.y)) + u64(c.x);
      const u32 bit = 1u << u32(t & 31u);
      r = (atomicOr(bits + (t >> 5), bit) & bit) ? 2 : 1;
    }
  }
  const int n_in = __syncthreads_count(r != 0), n_dup = __syncthreads_count(r == 2), n_ood = __syncthreads_count(r == 3);
  if (thread_rank3() == 0) {
    if (n_in) {
      atomicAdd(counters + c3_inside, (unsigned long long)n_in);
      atomicAdd(counters + c3_useful_blocks, 1ull);
    }
    if (n_dup) atomicAdd(counters + c3_dup, (unsigned long long)n_dup);
    if (n_ood) atomicAdd(counters + c3_ood, (unsigned long long)n_ood);
  }
}

// ---- 3-body histogram -----------------------------------------------------------------
constexpr int kMaxRho3 = 10;     // rho^3 <= 1024
constexpr int kBinCopies = 1024;  // per-block partial counts spread over copies (less atomic contention)

// Squared distance with pinned rounding in a fixed order (host and device agree).
TD_HD float dist2_rn(const float4& a, const float4& b) {
  const float dx = fsub_rn(a.x, b.x), dy = fsub_rn(a.y, b.y), dz = fsub_rn(a.z, b.z);
  return fadd_rn(fadd_rn(fmul_rn(dx, dx), fmul_rn(dy, dy)), fmul_rn(dz, dz));
}
// How many sides of the triangle (a, b, c) are shorter than r (r2 = r^2): 0..3.
TD_HD int sides_below(const float4& a, const float4& b, const float4& c, float r2) {
  return int(dist2_rn(a, b) < r2) + int(dist2_rn(b, c) < r2) + int(dist2_rn(a, c) < r2);
}

// The triplets of block b (uniform over the block; b inside): bins: kBinCopies x 4
// counters, summed by the host; this block adds to copy `copy`.
template <class Index>
__device__ __forceinline__ void threebody_block(const Plan3& p, const Cell3T<Index>& b, const float4* __restrict__ pts,
                                                float r2, unsigned long long* bins, u64 copy) {
  __shared__ float4 tile[3 * kMaxRho3];
  const int rho = p.rho;
  const u32 t = thread_rank3();
  // the three tiles: 3 rho points (a loop: at rho = 1 one thread loads all three)
  for (u32 e = t; e < u32(3 * rho); e += blockDim.x * blockDim.y * blockDim.z) {
    const u32 w = e / u32(rho), k = e - w * u32(rho);
    const i64 base = i64(w == 0 ? b.x : w == 1 ? b.y : b.z) * rho + i64(k);
    tile[e] = pts[base < p.N ? base : p.N - 1];
  }
  __syncthreads();
  const Cell3T<Index> c = thread_in_block3(p.N, rho, b, threadIdx.x, threadIdx.y, threadIdx.z);
  const int s = c.inside ? sides_below(tile[threadIdx.x], tile[rho + threadIdx.y], tile[2 * rho + threadIdx.z], r2) : -1;
  const int n0 = __syncthreads_count(s == 0), n1 = __syncthreads_count(s == 1), n2 = __syncthreads_count(s == 2),
            n3 = __syncthreads_count(s == 3);
  if (t == 0) {
    unsigned long long* o = bins + 4 * (copy % kBinCopies);
    if (n0) atomicAdd(o + 0, (unsigned long long)n0);
    if (n1) atomicAdd(o + 1, (unsigned long long)n1);
    if (n2) atomicAdd(o + 2, (unsigned long long)n2);
    if (n3) atomicAdd(o + 3, (unsigned long long)n3);
  }
}

template <class M, Mode mode, class Index>
__global__ void __launch_bounds__(1024) threebody3(Plan3 p, const float4* __restrict__ pts, float r2,
                                                   unsigned long long* bins) {
  const Cell3T<Index> b = block_coord3<M, mode, Index>(p);
  if (!b.inside) return;  // uniform over the block
  threebody_block<Index>(p, b, pts, r2, bins, block_rank3());
}
// The same work over one worker's blocks lambda in [begin, begin + count) of a linear
// 3D map (TET: lambda -> block by g(), eq. (13)-(16)); launched on linear_grid(count)
// (tdmaps/partition.hpp, experiments/multigpu). Mode::thread only. A multi-row grid
// (count >= 2^31, wide path) has a tail of unused blocks in its last row (fewer than its rows): they return.
template <class M, class Index>
__global__ void __launch_bounds__(1024) threebody3_range(Plan3 p, u64 begin, u64 count, u32 gx,
                                                         const float4* __restrict__ pts, float r2,
                                                         unsigned long long* bins) {
  using U = uidx<Index>;
  const U local = linear_block<U>(gx, blockIdx.x, blockIdx.y);
  if constexpr (sizeof(U) == 8) {
    if (local >= count) return;  // uniform over the block
  }
  const Cell3T<Index> b = M::template g<Index>(U(begin) + local);
  threebody_block<Index>(p, b, pts, r2, bins, u64(local));
}

// ---- the layout study -------------------------------------------------------------------
template <class M, Mode mode, class L, class Index>
__global__ void __launch_bounds__(1024) layout3_step(Plan3 p, L lay, const float* __restrict__ in,
                                                     float* __restrict__ out) {
  const Cell3 b = widen(block_coord3<M, mode, Index>(p));
  if (!b.inside) return;
  diffuse_thread(lay, b, threadIdx.x, threadIdx.y, threadIdx.z, in, out);
}
// ---- the bandwidth-bound layout kernel and its reference ----------------------------------
// The slot of cell blk * rho + (tx, ty, tz): from the block coordinate, with no division
// (linear: tet(z) + tri(y) + x; blocked: the block's base + the local offset).
__device__ __forceinline__ u64 cell_slot(const LinearLayout3& l, const Cell3& b, u32 tx, u32 ty, u32 tz) {
  const u64 r = u64(l.rho);
  return l.index(i64(u64(b.x) * r + tx), i64(u64(b.y) * r + ty), i64(u64(b.z) * r + tz));
}
__device__ __forceinline__ u64 cell_slot(const BlockedLayout3& l, const Cell3& b, u32 tx, u32 ty, u32 tz) {
  return l.block_base(b.x, b.y, b.z) + l.local(tx, ty, tz);
}
// K planes of `stride` floats each (plane k of cell s at k * stride + s); only in-domain
// cells are touched, padding slots never.
template <class M, Mode mode, class L, class Index, int K>
__global__ void __launch_bounds__(1024) layout3_bw(Plan3 p, L lay, const float* __restrict__ in,
                                                   float* __restrict__ out, u64 stride) {
  const Cell3 b = widen(block_coord3<M, mode, Index>(p));
  if (!b.inside) return;  // uniform over the block (after block_coord3's barrier)
  const Cell3 c = thread_in_block3(p.N, p.rho, b, threadIdx.x, threadIdx.y, threadIdx.z);
  if (!c.inside) return;
  const u64 s = cell_slot(lay, b, threadIdx.x, threadIdx.y, threadIdx.z);
  float v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = in[u64(k) * stride + s];  // all loads first
#pragma unroll
  for (int k = 0; k < K; ++k) out[u64(k) * stride + s] = fadd_rn(v[k], 1.0f);
}
// out[i] = in[i] + 1 for i < n (float4 body, scalar tail), grid-stride.
static __global__ void __launch_bounds__(256) bw_copy(const float* __restrict__ in, float* __restrict__ out, u64 n) {
  const u64 n4 = n / 4, stride = u64(gridDim.x) * blockDim.x;
  const float4* __restrict__ i4 = reinterpret_cast<const float4*>(in);
  float4* __restrict__ o4 = reinterpret_cast<float4*>(out);
  for (u64 q = u64(blockIdx.x) * blockDim.x + threadIdx.x; q < n4; q += stride) {
    const float4 a = i4[q];
    o4[q] = make_float4(fadd_rn(a.x, 1.0f), fadd_rn(a.y, 1.0f), fadd_rn(a.z, 1.0f), fadd_rn(a.w, 1.0f));
  }
  for (u64 q = n4 * 4 + u64(blockIdx.x) * blockDim.x + threadIdx.x; q < n; q += stride) out[q] = fadd_rn(in[q], 1.0f);
}

// a[slot of cell] = cell_value(linear index of cell), over the cells of a TET_E plan.
template <class L>
__global__ void __launch_bounds__(1024) layout3_init(Plan3 p, L lay, float* a) {
  const Cell3 c = thread_cell3<TET_E, Mode::block, i64>(p);
  if (!c.inside) return;
  a[lay.index(c.x, c.y, c.z)] = cell_value(tet(u64(c.z)) + tri(u64(c.y)) + u64(c.x));
}
// The checksum of the cells' values (apps/diffusion3d.hpp checksum_term), in kBinCopies parts.
template <class L>
__global__ void __launch_bounds__(1024) layout3_checksum(Plan3 p, L lay, const float* a, unsigned long long* sum) {
  const Cell3 c = thread_cell3<TET_E, Mode::block, i64>(p);
  unsigned long long v = 0;
  if (c.inside) v = checksum_term(a[lay.index(c.x, c.y, c.z)], tet(u64(c.z)) + tri(u64(c.y)) + u64(c.x));
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((thread_rank3() & 31u) == 0 && v) atomicAdd(sum + (block_rank3() % kBinCopies), v);
}

template <class U> using Root_of = ::tdmaps::Root<U>;
// ---- exact range of a root on the device ----------------------------------------------------
// first_bad: atomicMin of every lambda in [begin, begin + count) whose root is wrong: Layer, the
// layer root (Root::layer: z <= 2^21 with tet(z) <= lambda < tet(z + 1), base tet(z)); else the row
// root (Root::row: y <= 2^31 with tri(y) <= lambda < tri(y + 1), base tri(y)); evaluated on index
// path U (u32: the narrow path, begin + count <= 2^32; u64: wide).
template <class Root, bool Layer, class U = u64>
__global__ void root_check3(u64 begin, u64 count, unsigned long long* first_bad) {
  constexpr u64 kmax = Layer ? (1ull << 21) : (1ull << 31);
  const auto start = [](u64 k) { return Layer ? tet(k) : tri(k); };  // the first lambda of layer / row k
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 i = u64(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const u64 l = begin + i;
    const Root_of<U> r = [&] {
      if constexpr (Layer) return Root::template layer<U>(U(l));
      else return Root::template row<U>(U(l));
    }();
    const u64 k = r.k;
    if (k > kmax || !(start(k) <= l && l < start(k + 1)) || u64(r.base) != start(k))
      atomicMin(first_bad, (unsigned long long)l);
  }
}

}  // namespace tdmaps::gpu
