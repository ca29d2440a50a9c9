// experiments/maps2d/gpu_skip.cuh — transitional: the harness's skip (src/bench/gpu.cuh).
#pragma once
#include <bench/gpu.cuh>

namespace tdmaps::exp2d {
inline void exit_77_without_gpu(const char* program) { bench::skip_without_gpu(program); }
}  // namespace tdmaps::exp2d
