// src/gpu/timing.cuh — event timing of GPU work with median and spread (Stats,
// summarize, time_events). Part of the umbrella src/gpu/common.cuh.
#pragma once
#include "cuda_check.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace tdmaps::gpu {

// ---- timing -------------------------------------------------------------------------
struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0, p25_ms = 0, p75_ms = 0;
  int reps = 0;
};
inline Stats summarize(std::vector<float> t) {
  std::sort(t.begin(), t.end());
  Stats s;
  s.reps = int(t.size());
  if (t.empty()) return s;
  const auto q = [&](double f) { return double(t[size_t(f * double(t.size() - 1) + 0.5)]); };
  s.median_ms = q(0.5); s.min_ms = t.front(); s.max_ms = t.back(); s.p25_ms = q(0.25); s.p75_ms = q(0.75);
  return s;
}
// Times fn() (which launches work on the default stream) with CUDA events:
// `warmup` untimed calls, then `reps` timed calls, one event pair each.
template <class F>
Stats time_events(F&& fn, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) fn();
  TD_CUDA(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  TD_CUDA(cudaEventCreate(&a));
  TD_CUDA(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    TD_CUDA(cudaEventRecord(a));
    fn();
    TD_CUDA(cudaEventRecord(b));
    TD_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    TD_CUDA(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  TD_CUDA(cudaEventDestroy(a));
  TD_CUDA(cudaEventDestroy(b));
  return summarize(t);
}

}  // namespace tdmaps::gpu
