// experiments/multigpu/multi_hist_rows.hpp — multi_hist's CSV row (sdh_multigpu.csv, threebody_multigpu.csv,
// gram_multigpu.csv: one layout), by column name (results/row.hpp TD_COL: a name the layout does not
// declare fails to compile). Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only
// machine and checks its text.
#pragma once
#include <bench/stats.hpp>
#include <results/row.hpp>

#include <string>

namespace tdmaps::rows {

// wall / compute / reduce / wait: the statistics of each part over the timed runs; work_per_s the work
// over the wall median, first_rate the first configuration's.
inline results::RowOf<results::layout::sdh_multigpu> multigpu_row(
    const std::string& app, long long N, const std::string& kernel, int gpus, int chunks, unsigned long long blocks,
    unsigned long long work, const bench::Stats& wall, const bench::Stats& compute, const bench::Stats& reduce,
    const bench::Stats& wait, double work_per_s, double first_rate, bool identical, const std::string& verified) {
  results::RowOf<results::layout::sdh_multigpu> r;
  r.set(TD_COL("app"), app).set(TD_COL("N"), N).set(TD_COL("kernel"), kernel).set(TD_COL("gpus"), gpus);
  r.set(TD_COL("chunks"), chunks).set(TD_COL("workers"), gpus * chunks).set(TD_COL("blocks"), blocks);
  r.set(TD_COL("work"), work).set(TD_COL("reps"), wall.reps).set(TD_COL("median_ms"), results::fixed(wall.median_ms, 4));
  r.set(TD_COL("p25_ms"), results::fixed(wall.p25_ms, 4)).set(TD_COL("p75_ms"), results::fixed(wall.p75_ms, 4));
  r.set(TD_COL("compute_ms"), results::fixed(compute.median_ms, 4));
  r.set(TD_COL("reduce_ms"), results::fixed(reduce.median_ms, 4)).set(TD_COL("wait_ms"), results::fixed(wait.median_ms, 4));
  r.set(TD_COL("reduce_frac"), results::sig(reduce.median_ms / wall.median_ms, 4));
  r.set(TD_COL("work_per_s"), results::sig(work_per_s, 6));
  r.set(TD_COL("rate_vs_first"), results::fixed(work_per_s / first_rate, 4));
  r.set(TD_COL("identical"), identical).set(TD_COL("verified"), verified);
  return r;
}

}  // namespace tdmaps::rows
