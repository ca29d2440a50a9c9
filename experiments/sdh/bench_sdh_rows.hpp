// experiments/sdh/bench_sdh_rows.hpp — bench_sdh's CSV row (sdh.csv: layout::sdh), by column name
// (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <cstdio>
#include <string>

namespace tdmaps::rows {

// printf of one double (the cells below keep their printf text, inf included).
inline std::string sdh_printf(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
// One timed implementation at one N of sdh.csv, its cells by name; pairs_per_s and the speedup are derived from
// these and the median of `stats`.
struct SdhRow {
  std::string impl;
  long long N = 0;
  float bucket_width = 0;
  unsigned buckets = 0;
  int threads = 0;                   // threads_per_block; <= 0: empty (a CPU implementation)
  bench::Stats stats;
  double with_transfers_ms = -1;     // < 0: empty
  double pairs = 0;                  // the pairs counted (pairs_per_s = pairs over the median)
  double cpu_mt_ms = 0;              // the multi-threaded CPU's median; <= 0: no speedup
};

inline results::RowOf<results::layout::sdh> sdh_row(const SdhRow& h) {
  const bench::Stats& s = h.stats;
  results::RowOf<results::layout::sdh> r;
  r.set(TD_COL("impl"), h.impl).set(TD_COL("N"), h.N).set(TD_COL("bucket_width"), results::sig(double(h.bucket_width)));
  r.set(TD_COL("buckets"), h.buckets).set(TD_COL("threads_per_block"), h.threads > 0 ? std::to_string(h.threads) : "");
  r.stats(s, results::fixed, 4);
  r.set(TD_COL("with_transfers_ms"), h.with_transfers_ms >= 0 ? sdh_printf("%.4f", h.with_transfers_ms) : "");
  r.set(TD_COL("pairs_per_s"), sdh_printf("%.6e", h.pairs / (s.median_ms / 1000.0)));
  r.set(TD_COL("speedup_vs_cpu_mt"), h.cpu_mt_ms > 0 ? sdh_printf("%.3f", h.cpu_mt_ms / s.median_ms) : "");
  return r;
}

}  // namespace tdmaps::rows
