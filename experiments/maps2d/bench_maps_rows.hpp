// experiments/maps2d/bench_maps_rows.hpp — bench_maps' CSV row (dummy.csv, sqrt.csv: layout::dummy),
// by column name (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <string>

namespace tdmaps::rows {

// One (form, N, rho, map) point; bb_ms: BB's median at the same point (the reference of I).
inline results::RowOf<results::layout::dummy> maps2d_row(const std::string& test, const std::string& form, long long N,
                                                         int rho, const std::string& map, bool exact, int passes,
                                                         unsigned long long launched_blocks,
                                                         unsigned long long useful_blocks,
                                                         unsigned long long wasted_blocks,
                                                         unsigned long long launched_threads,
                                                         unsigned long long useful_threads, const bench::Stats& s,
                                                         double bb_ms, bool narrow) {
  results::RowOf<results::layout::dummy> r;
  r.set(TD_COL("test"), test).set(TD_COL("form"), form).set(TD_COL("N"), N).set(TD_COL("rho"), rho);
  r.set(TD_COL("map"), map).set(TD_COL("exact"), exact).set(TD_COL("passes"), passes);
  r.set(TD_COL("launched_blocks"), launched_blocks).set(TD_COL("useful_blocks"), useful_blocks);
  r.set(TD_COL("wasted_blocks"), wasted_blocks).set(TD_COL("launched_threads"), launched_threads);
  r.set(TD_COL("useful_threads"), useful_threads);
  r.stats(s, results::fixed, 6);
  r.set(TD_COL("bb_median_ms"), results::fixed(bb_ms));
  r.set(TD_COL("I"), results::fixed(s.median_ms > 0 ? bb_ms / s.median_ms : 0.0, 5));
  r.set(TD_COL("index_bits"), narrow ? "32" : "64");
  return r;
}

}  // namespace tdmaps::rows
