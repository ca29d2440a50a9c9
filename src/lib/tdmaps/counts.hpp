// tdmaps/counts.hpp — launched, useful and wasted blocks and threads of a plan
// (host only). Two ways to the same numbers:
//   counts2 / counts3               walk every launched block and ask the map (what the
//                                   experiments' CSVs, the figures and the GPU checks use:
//                                   they count what the map computes, so a float map past
//                                   its range is counted as it maps); time grows with the grid
//   counts2_closed / counts3_closed closed forms for an exact plan (plan() without
//                                   allow_inexact), constant time at any N (the CLI's
//                                   `tdmap info`); `tdmap info --count-by walk` and the CLI
//                                   test compare the two.
#pragma once
#include "registry.hpp"

namespace tdmaps {

struct Counts {
  u64 launched_blocks = 0, useful_blocks = 0;
  u64 launched_threads = 0, useful_threads = 0;
  u64 wasted_blocks() const { return launched_blocks - useful_blocks; }
  u64 wasted_threads() const { return launched_threads - useful_threads; }
};

// A block is useful when at least one of its threads maps inside the domain.
template <class M>
Counts counts2(const typename M::Params& p) {
  Counts c;
  const Dim3 b = M::block(p);
  for (int pass = 0; pass < p.passes; ++pass) {
    const Dim3 g = M::grid(p, pass);
    c.launched_blocks += u64(g.x) * g.y;
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        bool useful = false;
        if constexpr (M::blockwise) {
          const Cell2 k = M::block_cell(p, pass, bx, by);
          useful = k.inside && k.i * p.rho < p.N;
        } else {
          for (u32 t = 0; t < b.x * b.y && !useful; ++t)
            useful = M::cell(p, pass, bx, by, t % b.x, t / b.x).inside;
        }
        c.useful_blocks += useful;
      }
  }
  c.launched_threads = c.launched_blocks * b.x * b.y * b.z;
  c.useful_threads = tri(u64(p.N));
  return c;
}

template <class M>
Counts counts3(const Plan3& p) {
  Counts c;
  const Dim3 g = M::grid(p), b = M::block(p);
  c.launched_blocks = u64(g.x) * g.y * g.z;
  for (u32 bz = 0; bz < g.z; ++bz)
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) c.useful_blocks += M::block_cell(p, bx, by, bz).inside;
  c.launched_threads = c.launched_blocks * b.x * b.y * b.z;
  c.useful_threads = tet(u64(p.N));
  return c;
}

// ---- closed forms (exact plans) --------------------------------------------------------
// Launched blocks: the grids. Useful threads: the domain, tri(N) / tet(N). Useful blocks:
//   blockwise maps, and BB-T (BB's grid, the thread filters): every block of the block
//     triangle {bj <= bi < n} holds a cell of the domain, and an exact blockwise map hits
//     each once: tri(n) (3D: tet(n)).
//   UTM: threads 0 .. tri(N)-1 of the linear thread index are the domain, packed from the
//     first block: ceil(tri(N) / rho^2).
//   RB: the grid gx x gy, gx = ceil((N+1)/rho), gy = ceil(ceil(N/2)/rho); thread row y <
//     ceil(N/2) is full when 2y+1 < N (every x <= N inside); for odd N the last row
//     y* = (N-1)/2 keeps only x <= y*. A block whose only row is y* (y* a multiple of rho)
//     is useful only if bx <= y*/rho, so gx - y*/rho - 1 blocks of that block row are not.
template <class M>
Counts counts2_closed(const typename M::Params& p) {
  Counts c;
  const Dim3 b = M::block(p);
  for (int pass = 0; pass < p.passes; ++pass) {
    const Dim3 g = M::grid(p, pass);
    c.launched_blocks += u64(g.x) * g.y;
  }
  c.launched_threads = c.launched_blocks * b.x * b.y * b.z;
  c.useful_threads = tri(u64(p.N));
  const u64 n = u64(p.n), rr = u64(p.rho) * u64(p.rho);
  if constexpr (M::blockwise || std::is_same_v<M, BB_T>) {
    c.useful_blocks = tri(n);
  } else if constexpr (is_utm<M>::value) {
    c.useful_blocks = (c.useful_threads + rr - 1) / rr;
  } else if constexpr (std::is_same_v<M, RB>) {
    c.useful_blocks = c.launched_blocks;
    const u64 N = u64(p.N), rho = u64(p.rho);
    if (N % 2 == 1) {
      const u64 ystar = (N - 1) / 2;
      if (ystar % rho == 0) c.useful_blocks -= u64(M::grid(p, 0).x) - ystar / rho - 1;
    }
  } else {
    static_assert(M::blockwise, "counts2_closed: a new thread map needs its closed form here");
  }
  return c;
}

// Every 3D map is blockwise and exact on its plan: the block pyramid, tet(n) blocks.
template <class M>
Counts counts3_closed(const Plan3& p) {
  static_assert(M::blockwise, "counts3_closed: a 3D thread map needs its closed form here");
  Counts c;
  const Dim3 g = M::grid(p), b = M::block(p);
  c.launched_blocks = u64(g.x) * g.y * g.z;
  c.launched_threads = c.launched_blocks * b.x * b.y * b.z;
  c.useful_threads = tet(u64(p.N));
  c.useful_blocks = tet(u64(p.n));
  return c;
}

}  // namespace tdmaps
