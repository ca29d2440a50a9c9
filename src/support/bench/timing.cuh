// src/support/bench/timing.cuh — event timing of GPU work with median and spread (Stats,
// summarize, time_events), for the harness (bench/gpu.cuh includes it). In the harness, not
// in src/support/gpu/: the kernels' layer does not reach up to bench/ (names stay tdmaps::gpu::).
#pragma once
#include "stats.hpp"

#include <gpu/cuda_check.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace tdmaps::gpu {

// ---- timing -------------------------------------------------------------------------
using bench::Stats;      // src/support/bench/stats.hpp
using bench::summarize;
// One CUDA event pair: time(fn) records an event, calls fn() (which launches work on
// the default stream), records the second event, waits for it and returns the
// milliseconds between the two.
class EventPair {
 public:
  EventPair() {
    TD_CUDA(cudaEventCreate(&a_));
    TD_CUDA(cudaEventCreate(&b_));
  }
  ~EventPair() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  template <class F>
  float time(F&& fn) {
    TD_CUDA(cudaEventRecord(a_));
    fn();
    TD_CUDA(cudaEventRecord(b_));
    TD_CUDA(cudaEventSynchronize(b_));
    float ms = 0;
    TD_CUDA(cudaEventElapsedTime(&ms, a_, b_));
    return ms;
  }

 private:
  cudaEvent_t a_{}, b_{};
};

// Times fn() with CUDA events: `warmup` untimed calls, then `reps` timed calls, one
// event pair each.
template <class F>
Stats time_events(F&& fn, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) fn();
  TD_CUDA(cudaDeviceSynchronize());
  EventPair ev;
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) t.push_back(ev.time(fn));
  return summarize(t);
}

}  // namespace tdmaps::gpu
