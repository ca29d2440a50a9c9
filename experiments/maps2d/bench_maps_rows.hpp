// experiments/maps2d/bench_maps_rows.hpp — bench_maps' CSV row (dummy.csv, sqrt.csv: layout::dummy),
// by column name (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <string>

namespace tdmaps::rows {

// One (form, N, rho, map) point of dummy.csv / sqrt.csv, its cells by name; I is derived from bb_median_ms and the
// median of `stats`.
struct Maps2dRow {
  std::string test;                  // "dummy" | "sqrt" (bench_maps --test)
  std::string form;                  // results::pick_rows::form_name(Form): "store" | "cond"
  long long N = 0;
  int rho = 0;
  std::string map;                   // the map's name (tdmaps::<Map>::name)
  bool exact = false;
  int passes = 0;
  unsigned long long launched_blocks = 0, useful_blocks = 0, wasted_blocks = 0;
  unsigned long long launched_threads = 0, useful_threads = 0;
  bench::Stats stats;
  double bb_median_ms = 0;           // BB's median at the same point (the reference of I)
  bool narrow = false;               // the 32-bit index path (index_bits 32; else 64)
};

inline results::RowOf<results::layout::dummy> maps2d_row(const Maps2dRow& m) {
  const bench::Stats& s = m.stats;
  results::RowOf<results::layout::dummy> r;
  r.set(TD_COL("test"), m.test).set(TD_COL("form"), m.form).set(TD_COL("N"), m.N).set(TD_COL("rho"), m.rho);
  r.set(TD_COL("map"), m.map).set(TD_COL("exact"), m.exact).set(TD_COL("passes"), m.passes);
  r.set(TD_COL("launched_blocks"), m.launched_blocks).set(TD_COL("useful_blocks"), m.useful_blocks);
  r.set(TD_COL("wasted_blocks"), m.wasted_blocks).set(TD_COL("launched_threads"), m.launched_threads);
  r.set(TD_COL("useful_threads"), m.useful_threads);
  r.stats(s, results::fixed, 6);
  r.set(TD_COL("bb_median_ms"), results::fixed(m.bb_median_ms));
  r.set(TD_COL("I"), results::fixed(s.median_ms > 0 ? m.bb_median_ms / s.median_ms : 0.0, 5));
  r.set(TD_COL("index_bits"), m.narrow ? "32" : "64");
  return r;
}

}  // namespace tdmaps::rows
