// src/support/bench/stats.hpp — median and spread of repeated timings (host only).
#pragma once
#include <algorithm>
#include <vector>

namespace tdmaps::bench {

struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0, p25_ms = 0, p75_ms = 0;
  int reps = 0;  // how many timings the statistics are over
};
// Quartiles by nearest rank on the sorted samples.
inline Stats summarize(std::vector<float> t) {
  std::sort(t.begin(), t.end());
  Stats s;
  s.reps = int(t.size());
  if (t.empty()) return s;
  const auto q = [&](double f) { return double(t[size_t(f * double(t.size() - 1) + 0.5)]); };
  s.median_ms = q(0.5);
  s.min_ms = t.front();
  s.max_ms = t.back();
  s.p25_ms = q(0.25);
  s.p75_ms = q(0.75);
  return s;
}

}  // namespace tdmaps::bench
