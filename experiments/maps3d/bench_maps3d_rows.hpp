// experiments/maps3d/bench_maps3d_rows.hpp — bench_maps3d's CSV rows (tet_dummy.csv, tet_threebody.csv,
// tet_layout.csv), by column name (results/row.hpp TD_COL: a name the layout does not declare fails to
// compile). Number formats: timings %.6g, derived values %.4g. Host only, no CUDA:
// verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <array>
#include <string>

namespace tdmaps::rows {

inline results::Num g4(double v) { return results::sig(v, 4); }
inline results::Num g6(double v) { return results::sig(v, 6); }

// --test dummy: bb_ms BB3's median at the same point, eq17 the bound of eq. (17) at n.
inline results::RowOf<results::layout::tet_dummy> tet_dummy_row(
    long long N, int rho, long long n, const std::string& form, const std::string& map, const std::string& mode,
    int exact, int verified, unsigned long long launched_blocks, unsigned long long useful_blocks,
    unsigned long long launched_threads, unsigned long long useful_threads, const bench::Stats& s, double bb_ms,
    double eq17) {
  results::RowOf<results::layout::tet_dummy> r;
  r.set(TD_COL("N"), N).set(TD_COL("rho"), rho).set(TD_COL("n"), n).set(TD_COL("form"), form);
  r.set(TD_COL("map"), map).set(TD_COL("mode"), mode).set(TD_COL("exact"), exact).set(TD_COL("verified"), verified);
  r.set(TD_COL("launched_blocks"), launched_blocks).set(TD_COL("useful_blocks"), useful_blocks);
  r.set(TD_COL("launched_threads"), launched_threads).set(TD_COL("useful_threads"), useful_threads);
  r.stats(s, results::sig, 6);
  r.set(TD_COL("bb3_median_ms"), g6(bb_ms)).set(TD_COL("I"), g4(bb_ms / s.median_ms)).set(TD_COL("I_eq17"), g4(eq17));
  return r;
}

// --test threebody: bins the CPU reference's 4 bins.
inline results::RowOf<results::layout::tet_threebody> tet_threebody_row(
    long long N, int rho, long long n, const std::string& map, const std::string& mode,
    unsigned long long launched_blocks, unsigned long long useful_blocks, unsigned long long triplets, double r_cut,
    const std::array<unsigned long long, 4>& bins, const bench::Stats& s, double gtriplets_per_s, double bb_ms,
    double eq17) {
  results::RowOf<results::layout::tet_threebody> r;
  r.set(TD_COL("N"), N).set(TD_COL("rho"), rho).set(TD_COL("n"), n).set(TD_COL("map"), map);
  r.set(TD_COL("mode"), mode).set(TD_COL("verified"), 1).set(TD_COL("launched_blocks"), launched_blocks);
  r.set(TD_COL("useful_blocks"), useful_blocks).set(TD_COL("triplets"), triplets).set(TD_COL("r"), g4(r_cut));
  r.set(TD_COL("bin0"), bins[0]).set(TD_COL("bin1"), bins[1]).set(TD_COL("bin2"), bins[2]).set(TD_COL("bin3"), bins[3]);
  r.stats(s, results::sig, 6);
  r.set(TD_COL("gtriplets_per_s"), g4(gtriplets_per_s)).set(TD_COL("bb3_median_ms"), g6(bb_ms));
  r.set(TD_COL("I"), g4(bb_ms / s.median_ms)).set(TD_COL("I_eq17"), g4(eq17));
  return r;
}

// --test layout (and its --bw-planes rows): bb / lin the timings of BB3 / of the same map in the linear
// layout at the same point, nullptr for none (their cells empty).
inline results::RowOf<results::layout::tet_layout> tet_layout_row(
    long long N, int rho, long long n, const std::string& layout, const std::string& map, const std::string& mode,
    unsigned long long slots, unsigned long long padding, double padding_over_n2rho3, const bench::Stats& s,
    double eff_gbs, const bench::Stats* bb, const bench::Stats* lin) {
  results::RowOf<results::layout::tet_layout> r;
  r.set(TD_COL("N"), N).set(TD_COL("rho"), rho).set(TD_COL("n"), n).set(TD_COL("layout"), layout);
  r.set(TD_COL("map"), map).set(TD_COL("mode"), mode).set(TD_COL("verified"), 1).set(TD_COL("slots"), slots);
  r.set(TD_COL("padding"), padding).set(TD_COL("padding_over_n2rho3"), g4(padding_over_n2rho3));
  r.stats(s, results::sig, 6);
  r.set(TD_COL("eff_gbs"), g4(eff_gbs));
  r.set(TD_COL("bb3_median_ms"), bb ? results::text(g6(bb->median_ms)) : "");
  r.set(TD_COL("I"), bb ? results::text(g4(bb->median_ms / s.median_ms)) : "");
  r.set(TD_COL("linear_median_ms"), lin ? results::text(g6(lin->median_ms)) : "");
  r.set(TD_COL("linear_over_blocked"), lin ? results::text(g4(lin->median_ms / s.median_ms)) : "");
  return r;
}

}  // namespace tdmaps::rows
