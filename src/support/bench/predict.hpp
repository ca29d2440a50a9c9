// src/support/bench/predict.hpp — the one prediction-and-refusal policy of the experiment programs
// (issue #26). Host only (no CUDA): every program calls it after parsing its command line
// and before its first CUDA call, so a run predicted to take hours is refused in one line,
// with exit status 2, on a machine with or without a GPU (and is tested that way).
//
// A program states its work as a Forecast: named parts (CPU reference, GPU timing, ...),
// each a predicted time in seconds from a stated model (a rate measured on the lent H100
// and written next to the model, or a rate measured on this host by a small calibration
// run). The policy: if the total exceeds --max-minutes, print
//   <program>: refused: predicted <total> (<part> <time>, ...) is more than --max-minutes <M>; pass --max-minutes <needed> to run it
// and exit 2; else print the prediction on stderr (one progress line) and go on.
#pragma once
#include "args.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace tdmaps::bench {

// "42 s", "3.5 min", "2.1 h", "16 days" (3 significant figures at most).
inline std::string human_time(double s) {
  char b[64];
  if (!(s < 1e300)) return "forever";
  if (s < 90) std::snprintf(b, sizeof b, "%.2g s", s);
  else if (s < 90 * 60) std::snprintf(b, sizeof b, "%.3g min", s / 60);
  else if (s < 48 * 3600) std::snprintf(b, sizeof b, "%.3g h", s / 3600);
  else if (s < 3 * 365.25 * 86400) std::snprintf(b, sizeof b, "%.3g days", s / 86400);
  else std::snprintf(b, sizeof b, "%.3g years", s / (365.25 * 86400));
  return b;
}

struct Forecast {
  std::vector<std::pair<std::string, double>> parts;  // (what, seconds), in the order added
  // Adds `seconds` to the part named `what` (a new part the first time).
  void add(const std::string& what, double seconds) {
    if (!(seconds > 0)) return;
    for (auto& p : parts)
      if (p.first == what) { p.second += seconds; return; }
    parts.emplace_back(what, seconds);
  }
  double total() const {
    double t = 0;
    for (const auto& p : parts) t += p.second;
    return t;
  }
  // "CPU reference 5.2 days, GPU 1.9 h" (largest first).
  std::string describe() const {
    std::vector<std::pair<std::string, double>> v = parts;
    for (size_t i = 0; i < v.size(); ++i)
      for (size_t j = i + 1; j < v.size(); ++j)
        if (v[j].second > v[i].second) std::swap(v[i], v[j]);
    std::string s;
    for (const auto& p : v) s += (s.empty() ? "" : ", ") + p.first + " " + human_time(p.second);
    return s.empty() ? "nothing" : s;
  }
};

// The refusal line for `f` under a limit of max_minutes, or "" if it fits.
inline std::string refusal(const std::string& program, const Forecast& f, double max_minutes) {
  const double t = f.total();
  if (t <= max_minutes * 60) return "";
  const double need = std::ceil(t / 60 * 1.1 + 1);  // 10 % margin on the model
  char lim[64], nd[64];
  std::snprintf(lim, sizeof lim, "%g", max_minutes);
  std::snprintf(nd, sizeof nd, "%.0f", need);
  return program + ": refused: predicted " + human_time(t) + " (" + f.describe() + ") is more than --max-minutes " + lim +
         "; pass --max-minutes " + nd + " to run it";
}

// The line of a prediction that fits, printed once the GPU checks have passed (Session), so
// that a refusal of the GPU itself stays one line.
inline std::string& pending_prediction() {
  static std::string line;
  return line;
}
inline std::string prediction_line(const std::string& program, const Forecast& f, double max_minutes) {
  char lim[64];
  std::snprintf(lim, sizeof lim, "%g", max_minutes);
  return program + ": predicted " + human_time(f.total()) + " (" + f.describe() + "), within --max-minutes " + lim;
}

// The policy: refuse (one line on stderr, exit 2) or keep the prediction's line for Session
// to print and return; with --predict-only print it and exit 0.
inline void refuse_or_go(const std::string& program, const Forecast& f, const RunOptions& run) {
  const std::string r = refusal(program, f, run.max_minutes);
  if (!r.empty()) {
    std::fprintf(stderr, "%s\n", r.c_str());
    std::exit(2);
  }
  pending_prediction() = prediction_line(program, f, run.max_minutes);
  if (run.predict_only) {
    std::fprintf(stderr, "%s\n", pending_prediction().c_str());
    std::exit(0);
  }
}

// Seconds of the warm-up and timed launches of a sweep under the Budget policy
// (budget.hpp), where round_s[i] is one round (every variant once) of point i: warm-up
// rounds, then reps rounds, cut to the budget but never below min_reps.
inline double sweep_seconds(const std::vector<double>& round_s, const RunOptions& r) {
  double warm = 0, want = 0, floor = 0;
  for (double t : round_s) {
    warm += t * r.warmup;
    want += t * r.reps;
    floor += t * r.min_reps;
  }
  return warm + (r.budget_s > 0 ? std::min(want, std::max(r.budget_s, floor)) : want);
}

// Seconds per unit of work measured by running `f(n)` on this host for a small n (the
// calibration of a CPU reference whose cost grows as n^power): returns seconds / n^power,
// at least `floor_s_per_unit` (timer noise).
template <class F>
double calibrate(F&& f, double n, double power, double floor_s_per_unit = 0) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return std::max(floor_s_per_unit, s / std::pow(n, power));
}

// Stated GPU models (work per second), the rates measured on the lent H100 (the committed
// results, experiments/results/h100/): a slower GPU takes longer than predicted, so a run
// near the limit on another GPU may still run past it; the limit is about hours, not percent.
// (Halving them as a margin refused runs that fit: multi_hist's 9-minute check of
// run_multigpu.sh.)
namespace model {
// 2D dummy / square-root kernels: BB over n^2 blocks of rho^2 threads, 1.15 ms at N = 30720
// (dummy.csv): 8.2e11 cells/s.
constexpr double gpu_cells2d_per_s = 8e11;
// EDM: 3.0e12 bytes/s written (edm.csv, ltm-e-fast); collision (BB, direct) 5.3e11 pairs/s.
constexpr double gpu_bytes_per_s = 3e12;
constexpr double gpu_pairs2d_per_s = 5e11;
// 3D: BB3 over N^3 cells, 645 ms at N = 4096 (tet_dummy.csv, tet_threebody.csv): 1.07e11 cells/s.
constexpr double gpu_cells3d_per_s = 1e11;
// SDH, pair distances per second at N = 1e6 (sdh.csv): fast-lane 1.81e12, band-lane 1.75e12,
// tiled 7.4e11, v2-v4 5.6e11-7.2e11, v1 about 1e10.
constexpr double gpu_sdh_fast_pairs_per_s = 1.7e12;
constexpr double gpu_sdh_tiled_pairs_per_s = 7e11;
constexpr double gpu_sdh_ladder_pairs_per_s = 5e11;
constexpr double gpu_sdh_v1_pairs_per_s = 1e10;
// Three-body histogram: 1.06e11 triplets/s over the tetrahedral domain (tet_threebody.csv).
constexpr double gpu_triplets_per_s = 1e11;
// Fused distance histogram of the tensor-core Gram kernels (src/support/gram), useful flops (2 d a pair)
// per second at N = 1e6, d = 128, TF32 (gram.csv, H200, bench_gram --hist-N): tdmaps-ltm-e-sm90-ws
// 1198 ms = 1.07e14; classic 2170 ms = 5.9e13, sm80-8w 6.1e13. A pair rate: this / (2 d).
constexpr double gpu_gram_hist_flops_per_s = 1e14;          // sm90-ws
constexpr double gpu_gram_hist_classic_flops_per_s = 5.5e13;  // classic, sm80-8w
}  // namespace model

}  // namespace tdmaps::bench
