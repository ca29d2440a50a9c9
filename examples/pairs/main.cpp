// examples/pairs — a tiny consumer of the installed tdmaps package: the pairs (i, j),
// 0 <= j <= i < N, visited through the LTM_E map, on the CPU (always) and on the GPU
// (pairs_gpu.cu, when built with CUDA and a GPU is present).
//   pairs [N [rho]]        defaults: N = 1000, rho = 16
// Exit status 0 when every part that ran is right; a missing GPU is not an error.
#include "pairs.hpp"

#include <tdmaps/map_ltm.hpp>

#include <cstdio>
#include <cstdlib>

#if defined(PAIRS_CUDA)
int gpu_pairs(const tdmaps::LTM_E::Params& p, const PairSums& want);  // pairs_gpu.cu
#endif

int main(int argc, char** argv) {
  const long long N = argc > 1 ? std::atoll(argv[1]) : 1000;
  const int rho = argc > 2 ? std::atoi(argv[2]) : 16;
  tdmaps::LTM_E::Params p;  // the map's own plan (plan.hpp)
  try {
    p = tdmaps::LTM_E::plan(N, rho);  // throws tdmaps::unsupported on a bad N or rho
  } catch (const tdmaps::unsupported& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  std::printf("ltm-e N=%lld rho=%d: %llu blocks of %dx%d threads\n", N, rho,
              static_cast<unsigned long long>(p.total), rho, rho);
  const PairSums want = closed_form(N);
  bool ok = report("cpu", cpu_pairs<tdmaps::LTM_E>(p), want);
#if defined(PAIRS_CUDA)
  ok = gpu_pairs(p, want) == 0 && ok;
#else
  std::printf("gpu: not built (no CUDA compiler): skipped\n");
#endif
  return ok ? 0 : 1;
}
