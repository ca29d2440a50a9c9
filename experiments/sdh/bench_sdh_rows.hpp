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
// threads <= 0: empty (a CPU implementation); with_transfers_ms < 0: empty; cpu_mt_ms <= 0: no speedup.
inline results::RowOf<results::layout::sdh> sdh_row(const std::string& impl, long long N, float bucket_width,
                                                    unsigned buckets, int threads, const bench::Stats& s,
                                                    double with_transfers_ms, double pairs, double cpu_mt_ms) {
  results::RowOf<results::layout::sdh> r;
  r.set(TD_COL("impl"), impl).set(TD_COL("N"), N).set(TD_COL("bucket_width"), results::sig(double(bucket_width)));
  r.set(TD_COL("buckets"), buckets).set(TD_COL("threads_per_block"), threads > 0 ? std::to_string(threads) : "");
  r.stats(s, results::fixed, 4);
  r.set(TD_COL("with_transfers_ms"), with_transfers_ms >= 0 ? sdh_printf("%.4f", with_transfers_ms) : "");
  r.set(TD_COL("pairs_per_s"), sdh_printf("%.6e", pairs / (s.median_ms / 1000.0)));
  r.set(TD_COL("speedup_vs_cpu_mt"), cpu_mt_ms > 0 ? sdh_printf("%.3f", cpu_mt_ms / s.median_ms) : "");
  return r;
}

}  // namespace tdmaps::rows
