// experiments/maps3d/maps3d_lists.cpp — the lists of 3D maps the GPU programs derive from the registry
// (tdmaps/registry.hpp maps3d and the maps' traits, experiments/maps3d/maps3d_host.hpp), printed without
// CUDA: bench_maps3d's --maps choices, default and help line, gpu_verify_3d's maps (checked at every size,
// or only where plan() accepts the size) and the roots of its exact-range sweeps (every TET<R> of maps3d,
// maps3d_gpu.cu's dispatch by name). Its test (maps3d_lists, make verify) runs it;
// verify/test_throwaway_family.sh adds a 3D map and finds it in each list.
#include "maps3d_host.hpp"

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
  std::vector<std::string> roots;
  for_each_map(maps3d{}, [&](auto m) {
    if constexpr (is_tet<decltype(m)>::value) roots.push_back(decltype(m)::name);
  });
  std::printf("bench_maps3d --maps choices: %s\n", csv(map3_names()).c_str());
  std::printf("bench_maps3d --maps default: %s\n", csv(map3_default_names()).c_str());
  std::printf("bench_maps3d --help: %s\n", maps3_help().c_str());
  std::printf("gpu_verify_3d every size: %s\n", csv(map3_exact_names()).c_str());
  std::printf("gpu_verify_3d where planned: %s\n", csv(map3_inexact_names()).c_str());
  std::printf("gpu_verify_3d exact-range roots: %s\n", csv(roots).c_str());
  return 0;
}
