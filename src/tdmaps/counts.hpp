// tdmaps/counts.hpp — launched, useful and wasted blocks and threads of a plan
// (host only). Used by the CLI, the experiments' CSV and the figures.
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
Counts counts2(const Plan2& p) {
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

}  // namespace tdmaps
