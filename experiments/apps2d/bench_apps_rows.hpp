// experiments/apps2d/bench_apps_rows.hpp — bench_apps' CSV row (edm.csv, collision.csv: layout::edm),
// by column name (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <cmath>
#include <string>

namespace tdmaps::rows {

// One (test, variant, features, N, rho, map) point of edm.csv / collision.csv (or a write_bw row), its cells by name;
// I and GBps are derived from these and the median of `stats`.
struct Apps2dRow {
  std::string test;                  // "edm" | collision_test(style)
  std::string variant;               // edm: results::edm_variant (full, packed); collision: "3d" | "1d"; write_bw: "-"
  int features = 0;
  long long N = 0;
  int rho = 0;
  std::string map;                   // the map's name, or results::kWriteBwMap
  bool exact = false;
  unsigned long long bytes = 0;      // bytes_written
  bench::Stats stats;
  double bb_median_ms = NAN;         // the reference's median (I = it over the median); NaN: none
  bool bandwidth = false;            // GBps = bytes over the median; else NaN
};

inline results::RowOf<results::layout::edm> apps2d_row(const Apps2dRow& a) {
  const bench::Stats& s = a.stats;
  const double improvement = (std::isfinite(a.bb_median_ms) && s.median_ms > 0) ? a.bb_median_ms / s.median_ms : NAN;
  const double gbps = a.bandwidth && s.median_ms > 0 ? double(a.bytes) / (s.median_ms * 1e6) : NAN;
  results::RowOf<results::layout::edm> r;
  r.set(TD_COL("test"), a.test).set(TD_COL("variant"), a.variant).set(TD_COL("features"), a.features);
  r.set(TD_COL("N"), a.N).set(TD_COL("rho"), a.rho).set(TD_COL("map"), a.map).set(TD_COL("exact"), a.exact);
  r.set(TD_COL("bytes_written"), a.bytes);
  r.stats(s, results::sig, 6);
  r.set(TD_COL("bb_median_ms"), results::sig(a.bb_median_ms)).set(TD_COL("I"), results::sig(improvement));
  r.set(TD_COL("GBps"), results::sig(gbps));
  return r;
}

}  // namespace tdmaps::rows
