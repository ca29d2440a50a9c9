// examples/pairs/pairs.hpp — what the example computes, on the host: for every pair
// (i, j), 0 <= j <= i < N, of the lower triangle, the number of pairs and the sums of
// i and of j. cpu_pairs() visits the pairs exactly as the GPU does, through the map
// (every block and thread of LTM_E's plan, M::cell on the host); closed_form() is the
// answer without the map.
#pragma once
#include <tdmaps/map_ltm.hpp>

#include <cstdio>

struct PairSums {
  unsigned long long pairs = 0, sum_i = 0, sum_j = 0;
  bool operator==(const PairSums& o) const { return pairs == o.pairs && sum_i == o.sum_i && sum_j == o.sum_j; }
};

// sum over pairs of 1, of i, of j: N(N+1)/2, (N-1)N(N+1)/3, (N-1)N(N+1)/6
inline PairSums closed_form(long long N) {
  const unsigned long long n = static_cast<unsigned long long>(N);
  const unsigned long long t = (n - 1) * n * (n + 1);
  return PairSums{n * (n + 1) / 2, t / 3, t / 6};
}

// The GPU's launch replayed on the host: every pass, block and thread of the plan.
template <class M>
PairSums cpu_pairs(const typename M::Params& p) {
  PairSums s;
  const tdmaps::Dim3 b = M::block(p);
  for (int pass = 0; pass < p.passes; ++pass) {
    const tdmaps::Dim3 g = M::grid(p, pass);
    for (tdmaps::u32 by = 0; by < g.y; ++by)
      for (tdmaps::u32 bx = 0; bx < g.x; ++bx)
        for (tdmaps::u32 ty = 0; ty < b.y; ++ty)
          for (tdmaps::u32 tx = 0; tx < b.x; ++tx) {
            const tdmaps::Cell2 c = M::cell(p, pass, bx, by, tx, ty);
            if (!c.inside) continue;
            s.pairs += 1;
            s.sum_i += static_cast<unsigned long long>(c.i);
            s.sum_j += static_cast<unsigned long long>(c.j);
          }
  }
  return s;
}

// One result line, "<what>: <pairs> pairs, sum i = ..., sum j = ... ok|WRONG (expected ...)";
// returns whether it matches.
inline bool report(const char* what, const PairSums& got, const PairSums& want) {
  const bool ok = got == want;
  std::printf("%s: %llu pairs, sum i = %llu, sum j = %llu %s", what, got.pairs, got.sum_i, got.sum_j,
              ok ? "ok\n" : "WRONG");
  if (!ok) std::printf(" (expected %llu, %llu, %llu)\n", want.pairs, want.sum_i, want.sum_j);
  return ok;
}
