// experiments/maps3d/maps3d_lists.cpp — the lists of 3D maps the GPU programs derive from the registry
// (tdmaps/registry.hpp maps3d and the maps' traits, experiments/maps3d/maps3d_host.hpp), printed without
// CUDA: bench_maps3d's --maps choices, default and help line, gpu_verify_3d's maps (checked at every size,
// or only where plan() accepts the size) and its exact-range sweeps (tet_exact_jobs: every TET<R> of maps3d,
// both parts, both paths where its plan is always exact; maps3d_gpu.cu's dispatch by name). Its test (maps3d_lists, make verify) runs it;
// verify/test_throwaway_family.sh adds a 3D map and finds it in each list.
#include "maps3d_host.hpp"

#include <algorithm>
#include <cstdio>

using namespace tdmaps;
using namespace tdmaps::exp3d;

namespace {
std::string csv(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}
}  // namespace

int main(int argc, char**) {
  if (argc > 1) {
    std::fprintf(stderr, "maps3d_lists: no options (prints the 3D lists derived from the registry)\n");
    return 2;
  }
  // gpu_verify_3d's exact-range sweeps at its full limits (2^34, the 32-bit path 2^31): their roots, then one
  // line each (root, part, path, searched range, whether it must be exact)
  const std::vector<TetExactJob> jobs = tet_exact_jobs(1ull << 34, 1ull << 31);
  std::vector<std::string> roots;
  for (const TetExactJob& j : jobs)
    if (std::find(roots.begin(), roots.end(), j.root) == roots.end()) roots.push_back(j.root);
  std::printf("bench_maps3d --maps choices: %s\n", csv(map3_names()).c_str());
  std::printf("bench_maps3d --maps default: %s\n", csv(map3_default_names()).c_str());
  std::printf("bench_maps3d --help: %s\n", maps3_help().c_str());
  std::printf("gpu_verify_3d every size: %s\n", csv(map3_exact_names()).c_str());
  std::printf("gpu_verify_3d where planned: %s\n", csv(map3_inexact_names()).c_str());
  std::printf("gpu_verify_3d exact-range roots: %s\n", csv(roots).c_str());
  for (const TetExactJob& j : jobs)
    std::printf("gpu_verify_3d exact-range: %s %s path=%d lambda<%llu %s\n", j.root.c_str(), j.layer ? "layer" : "row",
                j.narrow ? 32 : 64, (unsigned long long)j.end, j.must_be_exact ? "must-be-exact" : "searched");
  return 0;
}
