// src/support/bench/budget.hpp — the one time-budget policy of the experiment programs.
// Host only. A run of P points (one point = one interleaved timing of BB and the
// maps) has budget_s seconds of timed launches. Each point may use an equal share of
// what is left: left / (points not yet timed), so time a cheap point leaves unused
// carries over to the expensive ones after it. A point whose one round (every
// variant once) costs round_ms gets reps = floor(share / round_ms), clamped to
// [min_reps, reps]: never below the stated minimum, never above what was asked. The
// count actually run is what each CSV row's `reps` column records.
#pragma once
#include <algorithm>
#include <cmath>

namespace tdmaps::bench {

class Budget {
 public:
  // budget_s = 0: no budget (every point gets the reps asked for).
  Budget(double budget_s, long points) : budget_s_(budget_s), points_left_(std::max(1L, points)) {}
  bool limited() const { return budget_s_ > 0; }
  // Reps for the next point, one round of which takes round_ms milliseconds.
  int reps(double round_ms, int want, int min_reps) const {
    if (!limited() || want <= min_reps || !(round_ms > 0)) return want;
    const double share_s = std::max(0.0, budget_s_ - used_s_) / double(points_left_);
    const double fit = std::floor(share_s * 1000.0 / round_ms);
    return int(std::max<double>(min_reps, std::min<double>(want, fit)));
  }
  // After a point: the seconds its timing took.
  void spend(double seconds) {
    used_s_ += seconds;
    if (points_left_ > 1) --points_left_;
  }
  double used_s() const { return used_s_; }
  double budget_s() const { return budget_s_; }

 private:
  double budget_s_ = 0, used_s_ = 0;
  long points_left_ = 1;
};

}  // namespace tdmaps::bench
