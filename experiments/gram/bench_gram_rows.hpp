// experiments/gram/bench_gram_rows.hpp — bench_gram's CSV row (gram.csv: layout::gram), by column name
// (results/row.hpp TD_COL: a name the layout does not declare fails to compile), its names the Gram
// vocabulary's (results/gram_names.hpp: gram::name(Prec), gram::Output, gram::impl_name, gram::peer).
// Host only, no CUDA, no CUTLASS: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/gram_names.hpp>
#include <results/row.hpp>

#include <cmath>
#include <string>

namespace tdmaps::rows {

// One timed variant of gram.csv, its cells by name; the rates (TFLOPs, GBps, I, blocks_per_s) are derived
// from these and the median of `stats`.
struct GramRow {
  long long N = 0;
  int d = 0;
  std::string precision;                   // gram::name(gram::Prec), or gram::peer::fp32 / fp64 / none
  gram::Output output = gram::Output::none;
  std::string impl;                        // ours: gram::impl_name(sched, kernel); a peer: gram::peer::...
  std::string tile;                        // "128x128" (ours, the empty blocks), "cublas", "64x64" (the exact mode)
  unsigned long long launched_tiles = 0, useful_tiles = 0;
  bench::Stats stats;
  double flop = NAN;           // useful flops (TFLOPs = flop over the median); NaN: none (a write, the empty blocks)
  double bytes = 0;            // bytes_written (GBps = bytes over the median; 0: GBps nan)
  double err = NAN;            // err_vs_f64: max |d^2 - d2_exact| / S over the pairs checked; NaN: not checked
  double bound = NAN;          // err_bound (gram_cpu.hpp bound_coef); NaN: none
  double bb_median_ms = NAN;   // the median of this row's bb-grid (bb_median_ms, I = it over the median); NaN: none
  bool blocks_rate = false;    // blocks_per_s: launched_tiles over the median (ours, the empty blocks); else nan
  int verified = -1;           // 1 / 0: within / past the bound at the pairs checked; -1: not checked
};

inline results::RowOf<results::layout::gram> gram_row(const GramRow& g) {
  using results::fixed;
  using results::sig;
  const double ms = g.stats.median_ms;
  const bool bb = !std::isnan(g.bb_median_ms);
  results::RowOf<results::layout::gram> r;
  r.set(TD_COL("N"), g.N).set(TD_COL("d"), g.d).set(TD_COL("precision"), g.precision);
  r.set(TD_COL("output"), gram::name(g.output)).set(TD_COL("impl"), g.impl).set(TD_COL("tile"), g.tile);
  r.set(TD_COL("launched_tiles"), g.launched_tiles).set(TD_COL("useful_tiles"), g.useful_tiles);
  r.stats(g.stats, fixed, 4);
  r.set(TD_COL("TFLOPs"), sig(g.flop / (ms * 1e-3) / 1e12, 4));
  r.set(TD_COL("GBps"), sig(g.bytes > 0 ? g.bytes / (ms * 1e-3) / 1e9 : NAN, 4));
  r.set(TD_COL("bytes_written"), sig(g.bytes, 6));
  r.set(TD_COL("err_vs_f64"), sig(g.err, 3)).set(TD_COL("err_bound"), sig(g.bound, 3));
  r.set(TD_COL("bb_median_ms"), bb ? fixed(g.bb_median_ms, 4) : sig(NAN));
  r.set(TD_COL("I"), bb ? fixed(g.bb_median_ms / ms, 3) : sig(NAN));
  r.set(TD_COL("blocks_per_s"), sig(g.blocks_rate ? double(g.launched_tiles) / (ms * 1e-3) : NAN, 4));
  r.set(TD_COL("verified"), g.verified);
  return r;
}

// gram_exact.csv (layout::gram_exact): one timing of the bracketed exact mode (bench_gram --exact-N).
struct GramExactRow {
  long long N = 0;
  int d = 0;
  gram::Prec precision = gram::Prec::tf32x3;
  gram::Out output = gram::Out::count_exact;
  gram::Kernel kernel = gram::Kernel::classic;
  int buckets = 0;
  double bucket_width = NAN, eps = NAN;
  unsigned long long pairs = 0, replayed = 0;
  bench::Stats stats;
  double fp64_median_ms = NAN;
  int equal_fp64 = -1;
};
inline results::RowOf<results::layout::gram_exact> gram_exact_row(const GramExactRow& g) {
  using results::fixed;
  using results::sig;
  results::RowOf<results::layout::gram_exact> r;
  r.set(TD_COL("N"), g.N).set(TD_COL("d"), g.d).set(TD_COL("precision"), gram::name(g.precision));
  r.set(TD_COL("output"), gram::name(g.output)).set(TD_COL("impl"), gram::impl_name(gram::Sched::ltm_e, g.kernel));
  const bool hist = g.output == gram::Out::hist_exact;
  r.set(TD_COL("buckets"), hist ? g.buckets : 0).set(TD_COL("bucket_width"), sig(hist ? g.bucket_width : NAN, 6));
  r.set(TD_COL("eps"), sig(hist ? NAN : g.eps, 6));
  r.set(TD_COL("pairs"), g.pairs).set(TD_COL("replayed"), g.replayed);
  r.set(TD_COL("replayed_pct"), sig(g.pairs ? 100.0 * double(g.replayed) / double(g.pairs) : NAN, 4));
  r.stats(g.stats, fixed, 4);
  r.set(TD_COL("fp64_median_ms"), std::isnan(g.fp64_median_ms) ? sig(NAN) : fixed(g.fp64_median_ms, 4));
  r.set(TD_COL("equal_fp64"), g.equal_fp64);
  return r;
}

}  // namespace tdmaps::rows
