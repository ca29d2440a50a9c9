// verify/oracle.hpp — the CPU oracle: exhaustive coverage/uniqueness walks and
// exactness searches over the map headers in src/lib/tdmaps (the same code the
// kernels run). Reference values come from plain enumeration (row by row), never
// from an inverse formula, so the oracle does not trust what it tests.
#pragma once
#include <apps/parallel.hpp>
#include <tdmaps/registry.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace tdmaps::oracle {

// Host threads: the one pool of src/support/apps/parallel.hpp (the apps' references and the
// harness use it too), at most 8 threads here.
inline unsigned workers() { return bench::host_workers(8); }

// Runs f(begin, end) over [0, count) split into contiguous parts, one per worker.
template <class F>
void parallel_for(u64 count, F&& f) {
  bench::parallel_for(count, [&f](unsigned, u64 b, u64 e) { f(b, e); }, workers());
}

// Result of walking every thread a plan launches.
struct Coverage {
  u64 launched_threads = 0, launched_blocks = 0, useful_blocks = 0;
  u64 inside = 0;      // threads that produced a cell
  u64 out_of_domain = 0; // produced a cell with j > i, i >= N or negative
  u64 duplicates = 0;  // cells produced more than once
  u64 missing = 0;     // domain cells never produced
  // The index paths (plan.hpp PlanBase::narrow): when the plan is narrow, every launched
  // thread (block) is evaluated on both paths, cell<i32> against cell<i64>.
  bool narrow = false;
  u64 path_mismatch = 0;  // inside flags differ, or coordinates of an inside cell
  bool ok() const { return out_of_domain == 0 && duplicates == 0 && missing == 0 && path_mismatch == 0; }
  std::string str() const {
    return "inside=" + std::to_string(inside) + " out_of_domain=" + std::to_string(out_of_domain) +
           " duplicates=" + std::to_string(duplicates) + " missing=" + std::to_string(missing) +
           " narrow=" + std::to_string(narrow) + " path_mismatch=" + std::to_string(path_mismatch);
  }
};

// Narrow and wide results of one thread (block) agree: same inside flag and, when
// inside, the same coordinates (the coordinates of an outside cell carry no meaning).
inline bool paths_agree(const Cell2T<i32>& a, const Cell2& b) {
  return a.inside == b.inside && (!b.inside || (i64(a.i) == b.i && i64(a.j) == b.j));
}
inline bool paths_agree(const Cell3T<i32>& a, const Cell3& b) {
  return a.inside == b.inside && (!b.inside || (i64(a.x) == b.x && i64(a.y) == b.y && i64(a.z) == b.z));
}

// One launched block (bx, by) of pass `pass` of a 2D plan: every thread's cell on the wide
// path (`wide`: p with narrow cleared), and on the narrow path too when `narrow`; counted into
// c (inside, out of domain, duplicates, path mismatches) and marked in `seen` (N x N).
// Returns whether the block produced a cell. Used by walk2 and by the partition walk.
template <class M>
bool visit_block2(const typename M::Params& p, const typename M::Params& wide, bool narrow, int pass, u32 bx, u32 by,
                  std::vector<uint8_t>& seen, Coverage& c) {
  const Dim3 b = M::block(p);
  const i64 N = p.N;
  bool useful = false;
  for (u32 ty = 0; ty < b.y; ++ty)
    for (u32 tx = 0; tx < b.x; ++tx) {
      const Cell2 x = M::template cell<i64>(wide, pass, bx, by, tx, ty);
      if (narrow && !paths_agree(M::template cell<i32>(p, pass, bx, by, tx, ty), x)) ++c.path_mismatch;
      if (!x.inside) continue;
      useful = true;
      ++c.inside;
      if (x.i < 0 || x.j < 0 || x.i >= N || x.j > x.i) { ++c.out_of_domain; continue; }
      uint8_t& s = seen[size_t(x.i) * size_t(N) + size_t(x.j)];
      if (s) ++c.duplicates; else s = 1;
    }
  return useful;
}
// The same for block (bx, by, bz) of a 3D plan (`seen`: N x N x N).
template <class M>
bool visit_block3(const Plan3& p, const Plan3& wide, bool narrow, u32 bx, u32 by, u32 bz,
                  std::vector<uint8_t>& seen, Coverage& c) {
  const Dim3 b = M::block(p);
  const i64 N = p.N;
  bool useful = false;
  for (u32 tz = 0; tz < b.z; ++tz)
    for (u32 ty = 0; ty < b.y; ++ty)
      for (u32 tx = 0; tx < b.x; ++tx) {
        const Cell3 x = M::template cell<i64>(wide, bx, by, bz, tx, ty, tz);
        if (narrow && !paths_agree(M::template cell<i32>(p, bx, by, bz, tx, ty, tz), x)) ++c.path_mismatch;
        if (!x.inside) continue;
        useful = true;
        ++c.inside;
        if (x.x < 0 || x.x > x.y || x.y > x.z || x.z >= N) { ++c.out_of_domain; continue; }
        uint8_t& s = seen[(size_t(x.z) * size_t(N) + size_t(x.y)) * size_t(N) + size_t(x.x)];
        if (s) ++c.duplicates; else s = 1;
      }
  return useful;
}

// Thread-level walk of a 2D map for (N, rho): every launched thread, every pass, on
// the wide path; when the plan is narrow, also on the narrow path (Coverage::path_mismatch).
template <class M>
Coverage walk2(i64 N, int rho, std::vector<uint8_t>& seen) {
  const typename M::Params p = M::plan(N, rho);
  const Dim3 b = M::block(p);
  seen.assign(size_t(N) * size_t(N), 0);
  Coverage c;
  c.narrow = p.narrow;
  typename M::Params wide = p;
  wide.narrow = false;  // the wide path serves every plan
  for (int pass = 0; pass < p.passes; ++pass) {
    const Dim3 g = M::grid(p, pass);
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        ++c.launched_blocks;
        c.useful_blocks += visit_block2<M>(p, wide, p.narrow, pass, bx, by, seen, c);
      }
    c.launched_threads += u64(g.x) * g.y * b.x * b.y * b.z;
  }
  c.missing = tri(u64(N)) - (c.inside - c.out_of_domain - c.duplicates);
  return c;
}

// Narrow against wide only (no coverage): every thread of blocks [bx0, bx1) x [by0, by1)
// of pass `pass`; returns the number of threads whose results differ. 0 if not narrow.
template <class M>
u64 path_mismatches2(const typename M::Params& p, int pass, u32 bx0, u32 bx1, u32 by0, u32 by1) {
  if (!p.narrow) return 0;
  typename M::Params wide = p;
  wide.narrow = false;
  const Dim3 b = M::block(p);
  std::atomic<u64> bad{0};
  parallel_for(u64(by1 - by0) * (bx1 - bx0), [&](u64 k0, u64 k1) {
    u64 c = 0;
    for (u64 k = k0; k < k1; ++k) {
      const u32 by = by0 + u32(k / (bx1 - bx0)), bx = bx0 + u32(k % (bx1 - bx0));
      for (u32 ty = 0; ty < b.y; ++ty)
        for (u32 tx = 0; tx < b.x; ++tx)
          c += !paths_agree(M::template cell<i32>(p, pass, bx, by, tx, ty),
                            M::template cell<i64>(wide, pass, bx, by, tx, ty));
    }
    bad += c;
  });
  return bad.load();
}
// Every launched thread of every pass.
template <class M>
u64 path_mismatches2(const typename M::Params& p) {
  u64 bad = 0;
  for (int pass = 0; pass < p.passes; ++pass) {
    const Dim3 g = M::grid(p, pass);
    bad += path_mismatches2<M>(p, pass, 0, g.x, 0, g.y);
  }
  return bad;
}
// 3D: every thread of blocks [bx0, bx1) of grid row by = 0, bz = 0 (linear maps), or
// of the whole grid when bx1 = 0.
template <class M>
u64 path_mismatches3(const Plan3& p, u32 bx0 = 0, u32 bx1 = 0) {
  if (!p.narrow) return 0;
  Plan3 wide = p;
  wide.narrow = false;
  const Dim3 g = M::grid(p), b = M::block(p);
  const bool whole = bx1 == 0;
  if (whole) bx1 = g.x;
  std::atomic<u64> bad{0};
  parallel_for((whole ? u64(g.z) * g.y : 1u) * (bx1 - bx0), [&](u64 k0, u64 k1) {
    u64 c = 0;
    for (u64 k = k0; k < k1; ++k) {
      const u32 bx = bx0 + u32(k % (bx1 - bx0)), byz = u32(k / (bx1 - bx0)), by = byz % g.y, bz = byz / g.y;
      for (u32 tz = 0; tz < b.z; ++tz)
        for (u32 ty = 0; ty < b.y; ++ty)
          for (u32 tx = 0; tx < b.x; ++tx)
            c += !paths_agree(M::template cell<i32>(p, bx, by, bz, tx, ty, tz),
                              M::template cell<i64>(wide, bx, by, bz, tx, ty, tz));
    }
    bad += c;
  });
  return bad.load();
}

// Block-level walk of a blockwise 2D map over n x n block cells (N = n * rho).
template <class M>
Coverage walk2_blocks(i64 n, int rho, std::vector<uint8_t>& seen) {
  const typename M::Params p = M::plan(n * rho, rho);
  seen.assign(size_t(n) * size_t(n), 0);
  Coverage c;
  c.narrow = p.narrow;
  typename M::Params wide = p;
  wide.narrow = false;
  for (int pass = 0; pass < p.passes; ++pass) {
    const Dim3 g = M::grid(p, pass);
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        ++c.launched_blocks;
        const Cell2 x = M::template block_cell<i64>(wide, pass, bx, by);
        if (p.narrow && !paths_agree(M::template block_cell<i32>(p, pass, bx, by), x)) ++c.path_mismatch;
        if (!x.inside) continue;
        ++c.inside;
        ++c.useful_blocks;
        if (x.i < 0 || x.j < 0 || x.i >= n || x.j > x.i) { ++c.out_of_domain; continue; }
        uint8_t& s = seen[size_t(x.i) * size_t(n) + size_t(x.j)];
        if (s) ++c.duplicates; else s = 1;
      }
  }
  c.missing = tri(u64(n)) - (c.inside - c.out_of_domain - c.duplicates);
  return c;
}

// Thread-level walk of a 3D map.
template <class M>
Coverage walk3(i64 N, int rho, std::vector<uint8_t>& seen) {
  const Plan3 p = M::plan(N, rho);
  const Dim3 g = M::grid(p), b = M::block(p);
  seen.assign(size_t(N) * size_t(N) * size_t(N), 0);
  Coverage c;
  c.narrow = p.narrow;
  Plan3 wide = p;
  wide.narrow = false;
  for (u32 bz = 0; bz < g.z; ++bz)
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        ++c.launched_blocks;
        c.useful_blocks += visit_block3<M>(p, wide, p.narrow, bx, by, bz, seen, c);
      }
  c.launched_threads = u64(g.x) * g.y * g.z * b.x * b.y * b.z;
  c.missing = tet(u64(N)) - (c.inside - c.out_of_domain - c.duplicates);
  return c;
}

// Block-level walk of a blockwise 3D map over n^3 block cells.
template <class M>
Coverage walk3_blocks(i64 n, std::vector<uint8_t>& seen) {
  const Plan3 p = M::plan(n, 1);
  const Dim3 g = M::grid(p);
  seen.assign(size_t(n) * size_t(n) * size_t(n), 0);
  Coverage c;
  c.narrow = p.narrow;
  Plan3 wide = p;
  wide.narrow = false;
  for (u32 bz = 0; bz < g.z; ++bz)
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        ++c.launched_blocks;
        const Cell3 x = M::template block_cell<i64>(wide, bx, by, bz);
        if (p.narrow && !paths_agree(M::template block_cell<i32>(p, bx, by, bz), x)) ++c.path_mismatch;
        if (!x.inside) continue;
        ++c.inside;
        ++c.useful_blocks;
        if (x.x < 0 || x.x > x.y || x.y > x.z || x.z >= n) { ++c.out_of_domain; continue; }
        uint8_t& s = seen[(size_t(x.z) * size_t(n) + size_t(x.y)) * size_t(n) + size_t(x.x)];
        if (s) ++c.duplicates; else s = 1;
      }
  c.missing = tet(u64(n)) - (c.inside - c.out_of_domain - c.duplicates);
  return c;
}

// First block index lambda < limit at which `row(lambda)` differs from the true
// row (found by enumerating rows); `limit` if none. Parallel over row chunks.
template <class RowFn>
u64 first_wrong_row(RowFn row, u64 limit) {
  const u64 rows_per_batch = 1u << 14;
  for (u64 r0 = 0;; r0 += rows_per_batch) {
    if (tri(r0) >= limit) return limit;
    std::atomic<u64> best{limit};
    parallel_for(rows_per_batch, [&](u64 b, u64 e) {
      for (u64 i = r0 + b; i < r0 + e; ++i) {
        const u64 start = tri(i);
        if (start >= best.load(std::memory_order_relaxed)) return;
        for (u64 l = start; l <= start + i && l < limit; ++l)
          if (row(l) != i) {
            u64 cur = best.load();
            while (l < cur && !best.compare_exchange_weak(cur, l)) {}
            return;
          }
      }
    });
    if (best.load() < limit) return best.load();
  }
}

// First block index lambda < limit at which layer(lambda) differs from the true
// tetrahedral layer; `limit` if none.
template <class LayerFn>
u64 first_wrong_layer(LayerFn layer, u64 limit) {
  for (u64 z = 0;; ++z) {
    const u64 s = tet(z), e = std::min(tet(z + 1), limit);
    if (s >= limit) return limit;
    std::atomic<u64> best{limit};
    parallel_for(e - s, [&](u64 b, u64 f) {
      for (u64 l = s + b; l < s + f; ++l)
        if (layer(l) != z) {
          u64 cur = best.load();
          while (l < cur && !best.compare_exchange_weak(cur, l)) {}
          return;
        }
    });
    if (best.load() < limit) return best.load();
  }
}

// Whether the threadwise UTM map is exact for N: every thread k maps to the k-th
// cell of the column-major enumeration (j = 0.., i = j..N-1). R: the rounding policy
// of its float arithmetic (numbers.hpp: Pinned, the library's; Fused, the papers' binaries).
template <class U, class R = Pinned>
bool utm_exact_for(i64 N) {
  i64 k = 0;
  for (i64 j = 0; j < N; ++j)
    for (i64 i = j; i < N; ++i, ++k) {
      const Cell2 c = U::template map_thread<i64, R>(N, k);
      if (c.i != i || c.j != j) return false;
    }
  return true;
}

// Largest N in [0, to] such that good(N') holds for every N' = 1..N; good is evaluated in
// parallel, sizes handed out in increasing order, none past the first bad one found.
template <class Good>
i64 last_good_N(i64 to, Good&& good) {
  std::atomic<i64> first_bad{to + 1};
  bench::parallel_chunks(
      u64(std::max<i64>(to, 0)), 1,
      [&](unsigned, u64 b, u64) {
        const i64 N = i64(b) + 1;
        if (N >= first_bad.load()) return;
        if (!good(N)) {
          i64 cur = first_bad.load();
          while (N < cur && !first_bad.compare_exchange_weak(cur, N)) {}
        }
      },
      workers());
  return first_bad.load() - 1;
}

// Largest N such that every N' <= N is exact (searching N' = 1..to in parallel).
template <class U, class R = Pinned>
i64 utm_last_exact_N(i64 to) {
  return last_good_N(to, [](i64 N) { return utm_exact_for<U, R>(N); });
}

}  // namespace tdmaps::oracle
