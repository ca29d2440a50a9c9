// experiments/apps2d/bench_apps_rows.hpp — bench_apps' CSV row (edm.csv, collision.csv: layout::edm),
// by column name (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <cmath>
#include <string>

namespace tdmaps::rows {

// bb_ms: the reference's median (NaN: none); bandwidth: GBps = bytes over the median (else NaN).
inline results::RowOf<results::layout::edm> apps2d_row(const std::string& test, const std::string& variant,
                                                       int features, long long N, int rho, const std::string& map,
                                                       bool exact, unsigned long long bytes, const bench::Stats& s,
                                                       double bb_ms, bool bandwidth) {
  const double improvement = (std::isfinite(bb_ms) && s.median_ms > 0) ? bb_ms / s.median_ms : NAN;
  const double gbps = bandwidth && s.median_ms > 0 ? double(bytes) / (s.median_ms * 1e6) : NAN;
  results::RowOf<results::layout::edm> r;
  r.set(TD_COL("test"), test).set(TD_COL("variant"), variant).set(TD_COL("features"), features);
  r.set(TD_COL("N"), N).set(TD_COL("rho"), rho).set(TD_COL("map"), map).set(TD_COL("exact"), exact);
  r.set(TD_COL("bytes_written"), bytes);
  r.stats(s, results::sig, 6);
  r.set(TD_COL("bb_median_ms"), results::sig(bb_ms)).set(TD_COL("I"), results::sig(improvement));
  r.set(TD_COL("GBps"), results::sig(gbps));
  return r;
}

}  // namespace tdmaps::rows
