// examples/pairs/pairs_gpu.cu — the GPU part: the same sums over the same map, twice,
// through tdmaps/launch.cuh:
//   launch<LTM_E>(plan, kernel, args...)  our own kernel, kernel(plan, pass, args...)
//   for_each_cell<LTM_E>(plan, f)         a functor called as f(i, j) for every pair
// Without a GPU it prints one line and returns 0.
#include "pairs.hpp"

#include <tdmaps/launch.cuh>
#include <tdmaps/map_ltm.hpp>

#include <cuda_runtime.h>

#include <cstdio>

using tdmaps::Cell2;
using tdmaps::LTM_E;

// A kernel written once for any 2D map M: thread -> pair (i, j) or outside. Cell2 is the
// 64-bit path, which serves every plan.
template <class M>
__global__ void pair_sums(typename M::Params p, int pass, unsigned long long* out) {
  const Cell2 c = M::cell(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (!c.inside) return;
  atomicAdd(&out[0], 1ull);
  atomicAdd(&out[1], static_cast<unsigned long long>(c.i));
  atomicAdd(&out[2], static_cast<unsigned long long>(c.j));
}

// The same body for for_each_cell: i, j are 32-bit on a narrow plan, 64-bit otherwise.
// (With nvcc --extended-lambda a __device__ lambda does as well.)
struct AddPair {
  unsigned long long* out;
  template <class Index> __device__ void operator()(Index i, Index j) const {
    atomicAdd(&out[0], 1ull);
    atomicAdd(&out[1], static_cast<unsigned long long>(i));
    atomicAdd(&out[2], static_cast<unsigned long long>(j));
  }
};

static bool cuda_ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::printf("gpu: %s failed: %s\n", what, cudaGetErrorString(e));
  return false;
}

// Runs `go(out)` on zeroed sums and reports them.
template <class Go>
static bool run(const char* what, unsigned long long* d, const PairSums& want, Go go) {
  unsigned long long h[3];
  if (!cuda_ok(cudaMemset(d, 0, sizeof h), "cudaMemset") || !cuda_ok(go(d), what) ||
      !cuda_ok(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), what))  // synchronizes
    return false;
  return report(what, PairSums{h[0], h[1], h[2]}, want);
}

int gpu_pairs(const LTM_E::Params& p, const PairSums& want) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::printf("gpu: no CUDA device (%s): skipped\n", e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
    return 0;
  }
  unsigned long long* d = nullptr;
  if (!cuda_ok(cudaMalloc(&d, 3 * sizeof(unsigned long long)), "cudaMalloc")) return 1;
  bool ok = run("gpu launch", d, want, [&](unsigned long long* out) {
    return tdmaps::launch<LTM_E>(p, pair_sums<LTM_E>, out);
  });
  ok = run("gpu for_each_cell", d, want, [&](unsigned long long* out) {
    return tdmaps::for_each_cell<LTM_E>(p, AddPair{out});
  }) && ok;
  cudaFree(d);
  return ok ? 0 : 1;
}
