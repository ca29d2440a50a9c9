// experiments/maps3d/bench_maps3d_rows.hpp — bench_maps3d's CSV rows (tet_dummy.csv, tet_threebody.csv,
// tet_layout.csv), by column name (results/row.hpp TD_COL: a name the layout does not declare fails to
// compile), each from a struct whose fields are named after its columns, filled field by field at the call
// site. Number formats: timings %.6g, derived values %.4g. Host only, no CUDA:
// verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <array>
#include <cmath>
#include <string>

namespace tdmaps::rows {

inline results::Num g4(double v) { return results::sig(v, 4); }
inline results::Num g6(double v) { return results::sig(v, 6); }

// --test dummy (tet_dummy.csv): one timed variant, its cells by name; I = bb3_median_ms over the median.
struct TetDummyRow {
  long long N = 0;
  int rho = 0;
  long long n = 0;     // ceil(N / rho)
  std::string form;    // "cond" / "store"
  std::string map;     // a 3D map's name (bb3, tet-f, tet-e, tet-fast)
  std::string mode;    // results::kThreadMode / kBlockMode
  int exact = 0;       // 1: the plan is exact at this size
  int verified = 0;    // 1: the coverage check passed at this size
  unsigned long long launched_blocks = 0, useful_blocks = 0, launched_threads = 0, useful_threads = 0;
  bench::Stats stats;
  double bb3_median_ms = NAN;  // BB3's median at the same point
  double I_eq17 = NAN;         // the bound of eq. (17) at n
};
inline results::RowOf<results::layout::tet_dummy> tet_dummy_row(const TetDummyRow& d) {
  results::RowOf<results::layout::tet_dummy> r;
  r.set(TD_COL("N"), d.N).set(TD_COL("rho"), d.rho).set(TD_COL("n"), d.n).set(TD_COL("form"), d.form);
  r.set(TD_COL("map"), d.map).set(TD_COL("mode"), d.mode).set(TD_COL("exact"), d.exact).set(TD_COL("verified"), d.verified);
  r.set(TD_COL("launched_blocks"), d.launched_blocks).set(TD_COL("useful_blocks"), d.useful_blocks);
  r.set(TD_COL("launched_threads"), d.launched_threads).set(TD_COL("useful_threads"), d.useful_threads);
  r.stats(d.stats, results::sig, 6);
  r.set(TD_COL("bb3_median_ms"), g6(d.bb3_median_ms)).set(TD_COL("I"), g4(d.bb3_median_ms / d.stats.median_ms));
  r.set(TD_COL("I_eq17"), g4(d.I_eq17));
  return r;
}

// --test threebody (tet_threebody.csv): one timed variant, verified against the CPU reference before timing (its
// verified cell is 1); bins the CPU reference's 4 bins; I = bb3_median_ms over the median.
struct TetThreebodyRow {
  long long N = 0;
  int rho = 0;
  long long n = 0;
  std::string map, mode;
  unsigned long long launched_blocks = 0, useful_blocks = 0, triplets = 0;
  double r = NAN;  // the cutoff
  std::array<unsigned long long, 4> bins{};
  bench::Stats stats;
  double gtriplets_per_s = NAN;
  double bb3_median_ms = NAN;
  double I_eq17 = NAN;
};
inline results::RowOf<results::layout::tet_threebody> tet_threebody_row(const TetThreebodyRow& t) {
  results::RowOf<results::layout::tet_threebody> r;
  r.set(TD_COL("N"), t.N).set(TD_COL("rho"), t.rho).set(TD_COL("n"), t.n).set(TD_COL("map"), t.map);
  r.set(TD_COL("mode"), t.mode).set(TD_COL("verified"), 1).set(TD_COL("launched_blocks"), t.launched_blocks);
  r.set(TD_COL("useful_blocks"), t.useful_blocks).set(TD_COL("triplets"), t.triplets).set(TD_COL("r"), g4(t.r));
  r.set(TD_COL("bin0"), t.bins[0]).set(TD_COL("bin1"), t.bins[1]).set(TD_COL("bin2"), t.bins[2]);
  r.set(TD_COL("bin3"), t.bins[3]);
  r.stats(t.stats, results::sig, 6);
  r.set(TD_COL("gtriplets_per_s"), g4(t.gtriplets_per_s)).set(TD_COL("bb3_median_ms"), g6(t.bb3_median_ms));
  r.set(TD_COL("I"), g4(t.bb3_median_ms / t.stats.median_ms)).set(TD_COL("I_eq17"), g4(t.I_eq17));
  return r;
}

// --test layout (and its --bw-planes rows, tet_layout.csv): one timed (layout, map, mode), verified before timing
// (its verified cell is 1). bb3_median_ms / linear_median_ms: the medians of BB3 / of the same map in the linear
// layout at the same point, NaN for none (their cells and I / linear_over_blocked empty).
struct TetLayoutRow {
  long long N = 0;
  int rho = 0;
  long long n = 0;
  std::string layout;  // a data layout's name (tdmaps/layout3d.hpp), "-" for the bandwidth reference
  std::string map;     // a 3D map's name, or results::kBwCopyMap
  std::string mode;    // results::kThreadMode / kBlockMode / kBwMode
  unsigned long long slots = 0, padding = 0;
  double padding_over_n2rho3 = NAN;
  bench::Stats stats;
  double eff_gbs = NAN;
  double bb3_median_ms = NAN;
  double linear_median_ms = NAN;
};
inline results::RowOf<results::layout::tet_layout> tet_layout_row(const TetLayoutRow& l) {
  const bool bb = !std::isnan(l.bb3_median_ms), lin = !std::isnan(l.linear_median_ms);
  const double ms = l.stats.median_ms;
  results::RowOf<results::layout::tet_layout> r;
  r.set(TD_COL("N"), l.N).set(TD_COL("rho"), l.rho).set(TD_COL("n"), l.n).set(TD_COL("layout"), l.layout);
  r.set(TD_COL("map"), l.map).set(TD_COL("mode"), l.mode).set(TD_COL("verified"), 1).set(TD_COL("slots"), l.slots);
  r.set(TD_COL("padding"), l.padding).set(TD_COL("padding_over_n2rho3"), g4(l.padding_over_n2rho3));
  r.stats(l.stats, results::sig, 6);
  r.set(TD_COL("eff_gbs"), g4(l.eff_gbs));
  r.set(TD_COL("bb3_median_ms"), bb ? results::text(g6(l.bb3_median_ms)) : "");
  r.set(TD_COL("I"), bb ? results::text(g4(l.bb3_median_ms / ms)) : "");
  r.set(TD_COL("linear_median_ms"), lin ? results::text(g6(l.linear_median_ms)) : "");
  r.set(TD_COL("linear_over_blocked"), lin ? results::text(g4(l.linear_median_ms / ms)) : "");
  return r;
}

}  // namespace tdmaps::rows
