// src/support/gpu/dummy.cuh — the map-only kernels of the experiments, written once and
// templated on the map policy M (any 2D map of tdmaps/registry.hpp).
//
//   dummy_store<M>  the papers' dummy kernel (000_dc8ca915cfc23e3c.txt §IV-A and
//                   §V, test (1)): every thread evaluates the map and every
//                   in-domain thread writes i + j to ONE fixed global location.
//                   "It is necessary to perform at least one memory access
//                   otherwise the compiler can optimize the code removing part
//                   of the cost of mapping" (§IV-A). All in-domain threads store
//                   to the same address, so at large N this form also measures
//                   the memory system's handling of that contended store.
//   dummy_cond<M>   contention-free variant: the store happens only when
//                   i + j == `never`, a run-time value that no cell produces
//                   (the host passes -1; i + j >= 0 inside, -2 outside), so the
//                   compiler must keep the whole map but no thread stores.
//   coverage2<M>    verification: every in-domain thread sets the bit of its cell
//                   in a bitmap of the lower triangle and the block counts its
//                   productions, duplicates and out-of-domain cells; the host
//                   then checks that every cell (i, j), 0 <= j <= i < N, was
//                   produced exactly once and nothing else was.
//
// The per-thread coverage step (coverage_record) and the host check are plain
// TD_HD / host code, so a CPU emulation of the kernel (emulate_coverage2) runs
// the same logic in the host unit test (experiments/maps2d/test_maps2d_host.cu).
#pragma once
#include "common.cuh"

#include <string>
#include <vector>

namespace tdmaps::gpu {

// ---- the dummy kernels ------------------------------------------------------------
// __launch_bounds__(1024): rho = 32 launches 32 x 32 = 1024 threads per block, so the
// register allocation must allow it for every map. Index is the plan's index path.
// As printed (000 §IV-A): every in-domain thread stores the int i + j (4 bytes).
template <class M, class Index>
__global__ void __launch_bounds__(1024) dummy_store(typename M::Params p, int pass, int* out) {
  const Cell2T<Index> c = M::template cell<Index>(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (c.inside) out[0] = int(c.i + c.j);
}

template <class M, class Index>
__global__ void __launch_bounds__(1024) dummy_cond(typename M::Params p, int pass, int* out, int never) {
  const Cell2T<Index> c = M::template cell<Index>(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (c.inside && int(c.i + c.j) == never) out[0] = int(c.i + c.j);
}

// The reference of the instruction table (experiments/maps2d/sass_cost.sh): the same
// kernel with no map at all (the cell is the block and thread index, always inside).
// What a map adds per thread is its kernel's instructions minus these.
static __global__ void __launch_bounds__(1024) dummy_cond_nomap(PlanBase, int, int* out, int never) {
  const int i = int(blockIdx.y) + int(threadIdx.y), j = int(blockIdx.x) + int(threadIdx.x);
  if (i + j == never) out[0] = i + j;
}

// The run-time value given to dummy_cond: no cell has i + j == -1.
constexpr int dummy_never = -1;

// ---- coverage ---------------------------------------------------------------------
// The bitmap holds one bit per cell of the lower triangle, enumerated row by row:
// cell (i, j) is bit t = tri(i) + j (numbers.hpp), so tri(N) bits in all and the
// index is 64-bit (tri(65537) > 2^31).
inline u64 coverage_words(i64 N) { return (tri(u64(N)) + 31) / 32; }

// One thread's production, as the coverage kernel classifies it.
enum CoverageClass : int { cov_none = 0, cov_new = 1, cov_dup = 2, cov_ood = 3 };

// Atomic OR on a 32-bit word of the bitmap; returns the previous word. On the host
// (the single-threaded emulation) a plain read-modify-write.
struct BitOr {
  u32* words;
  TD_HD u32 operator()(u64 w, u32 bit) const {
#if defined(__CUDA_ARCH__)
    return atomicOr(words + w, bit);
#else
    const u32 old = words[w];
    words[w] = old | bit;
    return old;
#endif
  }
};

// Records cell c (the map's answer for one thread) in the bitmap.
template <class Index>
TD_HD int coverage_record(const Cell2T<Index>& c, i64 N, BitOr bits) {
  if (!c.inside) return cov_none;
  if (c.i < 0 || c.j < 0 || i64(c.i) >= N || c.j > c.i) return cov_ood;
  const u64 t = tri(u64(c.i)) + u64(c.j);
  const u32 bit = 1u << u32(t & 31u);
  const u32 old = bits(t >> 5, bit);
  return (old & bit) ? cov_dup : cov_new;
}

// Counters the coverage kernel accumulates (all launches and passes of a plan).
enum CoverageCounter : int { cnt_inside = 0, cnt_dup, cnt_ood, cnt_useful_blocks, cnt_count };

template <class M, class Index>
__global__ void __launch_bounds__(1024) coverage2(typename M::Params p, int pass, u32* bits, unsigned long long* counters) {
  const Cell2T<Index> c = M::template cell<Index>(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  const int r = coverage_record(c, p.N, BitOr{bits});
  // Every thread reaches these barriers (no early exit above).
  const int n_inside = __syncthreads_count(r != cov_none);
  const int n_dup = __syncthreads_count(r == cov_dup);
  const int n_ood = __syncthreads_count(r == cov_ood);
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    if (n_inside) {
      atomicAdd(counters + cnt_inside, (unsigned long long)n_inside);
      atomicAdd(counters + cnt_useful_blocks, 1ull);
    }
    if (n_dup) atomicAdd(counters + cnt_dup, (unsigned long long)n_dup);
    if (n_ood) atomicAdd(counters + cnt_ood, (unsigned long long)n_ood);
  }
}

// What a coverage run produced.
struct CoverageRun {
  u64 counters[cnt_count] = {0, 0, 0, 0};
  std::vector<u32> bits;  // coverage_words(N) words
};

// The CPU expectation: every cell of the lower triangle exactly once, nothing else.
// Returns "" when that holds, else one line saying what differs. If
// expected_useful_blocks >= 0 the number of blocks with at least one in-domain
// thread must equal it too (counts.hpp's useful_blocks, which the CSVs report).
inline std::string check_coverage(i64 N, const CoverageRun& r, long long expected_useful_blocks = -1) {
  const u64 cells = tri(u64(N));
  std::string err;
  const auto add = [&](const std::string& s) { err += (err.empty() ? "" : "; ") + s; };
  if (r.counters[cnt_ood]) add(std::to_string(r.counters[cnt_ood]) + " out-of-domain productions");
  if (r.counters[cnt_dup]) add(std::to_string(r.counters[cnt_dup]) + " duplicate productions");
  if (r.counters[cnt_inside] != cells)
    add("produced " + std::to_string(r.counters[cnt_inside]) + " cells, expected " + std::to_string(cells));
  if (r.bits.size() != coverage_words(N)) {
    add("bitmap has the wrong size");
    return err;
  }
  // Every bit of [0, cells) set; the padding bits of the last word clear.
  u64 missing = 0, first_missing = cells;
  bool padding = false;
  for (u64 w = 0; w < r.bits.size(); ++w) {
    const u64 lo = w * 32, valid = cells - lo < 32 ? cells - lo : 32;
    const u32 want = valid == 32 ? 0xffffffffu : ((1u << valid) - 1u);
    const u32 got = r.bits[w];
    if ((got & want) != want) {
      const u32 miss = want & ~got;
      missing += u64(__builtin_popcount(miss));
      if (first_missing == cells) first_missing = lo + u64(__builtin_ctz(miss));
    }
    if (got & ~want) padding = true;
  }
  if (padding) add("bits set past the last cell");
  if (missing) {
    const u64 i = tri_root(first_missing), j = first_missing - tri(i);
    add(std::to_string(missing) + " cells never produced (first: i=" + std::to_string(i) + " j=" + std::to_string(j) + ")");
  }
  if (expected_useful_blocks >= 0 && r.counters[cnt_useful_blocks] != u64(expected_useful_blocks))
    add("useful blocks " + std::to_string(r.counters[cnt_useful_blocks]) + ", counts2 says " +
        std::to_string(expected_useful_blocks));
  return err;
}

// Host emulation of coverage2 over every launched thread of every pass, with the
// same per-thread code (used by the host unit test; small N only), on index path Index.
template <class M, class Index = i64>
CoverageRun emulate_coverage2(const typename M::Params& p) {
  CoverageRun r;
  r.bits.assign(coverage_words(p.N), 0u);
  const Dim3 b = M::block(p);
  for (int pass = 0; pass < p.passes; ++pass) {
    const Dim3 g = M::grid(p, pass);
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        u64 n_inside = 0;
        for (u32 ty = 0; ty < b.y; ++ty)
          for (u32 tx = 0; tx < b.x; ++tx) {
            const int c = coverage_record(M::template cell<Index>(p, pass, bx, by, tx, ty), p.N, BitOr{r.bits.data()});
            n_inside += c != cov_none;
            r.counters[cnt_dup] += c == cov_dup;
            r.counters[cnt_ood] += c == cov_ood;
          }
        r.counters[cnt_inside] += n_inside;
        r.counters[cnt_useful_blocks] += n_inside > 0;
      }
  }
  return r;
}

// Device buffers for coverage runs, grown on demand and reused across runs.
class CoverageBuffers {
 public:
  CoverageBuffers() = default;
  CoverageBuffers(const CoverageBuffers&) = delete;
  CoverageBuffers& operator=(const CoverageBuffers&) = delete;
  ~CoverageBuffers() {
    if (bits_) cudaFree(bits_);
    if (counters_) cudaFree(counters_);
  }
  // Runs coverage2<M> for plan p on the GPU and copies the result back.
  template <class M>
  CoverageRun run(const typename M::Params& p) {
    const u64 words = coverage_words(p.N);
    if (words > cap_) {
      if (bits_) TD_CUDA(cudaFree(bits_));
      bits_ = nullptr;
      bits_ = device_alloc<u32>(size_t(words), "the coverage bitmap");
      cap_ = words;
    }
    if (!counters_) counters_ = device_alloc<unsigned long long>(cnt_count, "the coverage counters");
    TD_CUDA(cudaMemset(bits_, 0, size_t(words) * sizeof(u32)));
    TD_CUDA(cudaMemset(counters_, 0, cnt_count * sizeof(unsigned long long)));
    launch_checked<M>(p, TD_KERNEL_FOR(coverage2<M, Index>), bits_, counters_);
    TD_CUDA(cudaDeviceSynchronize());
    CoverageRun r;
    r.bits.resize(size_t(words));
    TD_CUDA(cudaMemcpy(r.bits.data(), bits_, size_t(words) * sizeof(u32), cudaMemcpyDeviceToHost));
    unsigned long long c[cnt_count];
    TD_CUDA(cudaMemcpy(c, counters_, sizeof c, cudaMemcpyDeviceToHost));
    for (int k = 0; k < cnt_count; ++k) r.counters[k] = c[k];
    return r;
  }

 private:
  u32* bits_ = nullptr;
  u64 cap_ = 0;
  unsigned long long* counters_ = nullptr;
};

}  // namespace tdmaps::gpu
