// experiments/maps2d/gpu_skip.cuh — meson's "skipped" for GPU tests on a machine
// without a GPU: checks cudaGetDeviceCount before anything else and exits 77.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace tdmaps::exp2d {

inline void exit_77_without_gpu(const char* program) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::printf("%s: SKIPPED, no CUDA GPU (%s)\n", program, e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
    std::fflush(stdout);
    std::exit(77);
  }
}

}  // namespace tdmaps::exp2d
