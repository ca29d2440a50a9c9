// experiments/multigpu/multi_hist_rows.hpp — multi_hist's CSV row (sdh_multigpu.csv, threebody_multigpu.csv,
// gram_multigpu.csv: one layout), by column name (results/row.hpp TD_COL: a name the layout does not
// declare fails to compile). Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only
// machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <cmath>
#include <string>

namespace tdmaps::rows {

// One (app, N, kernel, gpus, chunks) configuration, its cells by name: wall / compute / reduce / wait the statistics
// of each part over the timed runs; work_per_s the work over the wall median, first_rate the first configuration's.
struct MultigpuRow {
  std::string app;                   // results::multigpu_app
  long long N = 0;
  std::string kernel;
  int gpus = 0, chunks = 0;          // workers = gpus * chunks
  unsigned long long blocks = 0, work = 0;
  bench::Stats wall, compute, reduce, wait;
  double work_per_s = NAN, first_rate = NAN;
  bool identical = false;            // every bucket equals 1 GPU x 1 chunk's
  std::string verified;              // "oracle" | "float64" | "count"
};

inline results::RowOf<results::layout::sdh_multigpu> multigpu_row(const MultigpuRow& m) {
  results::RowOf<results::layout::sdh_multigpu> r;
  r.set(TD_COL("app"), m.app).set(TD_COL("N"), m.N).set(TD_COL("kernel"), m.kernel).set(TD_COL("gpus"), m.gpus);
  r.set(TD_COL("chunks"), m.chunks).set(TD_COL("workers"), m.gpus * m.chunks).set(TD_COL("blocks"), m.blocks);
  r.set(TD_COL("work"), m.work).set(TD_COL("reps"), m.wall.reps).set(TD_COL("median_ms"), results::fixed(m.wall.median_ms, 4));
  r.set(TD_COL("p25_ms"), results::fixed(m.wall.p25_ms, 4)).set(TD_COL("p75_ms"), results::fixed(m.wall.p75_ms, 4));
  r.set(TD_COL("compute_ms"), results::fixed(m.compute.median_ms, 4));
  r.set(TD_COL("reduce_ms"), results::fixed(m.reduce.median_ms, 4)).set(TD_COL("wait_ms"), results::fixed(m.wait.median_ms, 4));
  r.set(TD_COL("reduce_frac"), results::sig(m.reduce.median_ms / m.wall.median_ms, 4));
  r.set(TD_COL("work_per_s"), results::sig(m.work_per_s, 6));
  r.set(TD_COL("rate_vs_first"), results::fixed(m.work_per_s / m.first_rate, 4));
  r.set(TD_COL("identical"), m.identical).set(TD_COL("verified"), m.verified);
  return r;
}

}  // namespace tdmaps::rows
