// src/gpu/timing.cuh — event timing of GPU work with median and spread (Stats,
// summarize, time_events). Part of the umbrella src/gpu/common.cuh.
#pragma once
#include "cuda_check.cuh"

#include <bench/stats.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace tdmaps::gpu {

// ---- timing -------------------------------------------------------------------------
using bench::Stats;      // src/bench/stats.hpp
using bench::summarize;
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
