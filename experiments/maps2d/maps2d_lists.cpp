// experiments/maps2d/maps2d_lists.cpp — the experiments each 2D map of the registry joins, from its traits
// (src/support/registry/experiments.hpp: map_traits<M>::joins), and the lists the GPU programs derive from them,
// printed without CUDA. Not installed: the installed `tdmap` CLI knows the maps alone (issue #39 item 5).
// Its test (maps2d_lists, make verify) runs it; verify/test_throwaway_map.sh adds a map and finds it here.
#include "registry/experiments.hpp"

#include <cstdio>
#include <string>

using namespace tdmaps;

namespace {
// The benchmark defaults a map joins and the kernels compiled for it (registry/traits.hpp, namespace experiment):
// dummy, sqrt = bench_maps --test; apps = bench_apps; apps-kernels / fast-kernel = compiled there, not timed by default.
template <class M>
std::string experiments_of() {
  const unsigned j = map_traits<M>::joins;
  std::string s;
  const auto add = [&](unsigned bit, const char* w) {
    if (j & bit) s += (s.empty() ? "" : ",") + std::string(w);
  };
  add(experiment::dummy, "dummy");
  add(experiment::sqrt, "sqrt");
  add(experiment::apps_default, "apps");
  if ((j & experiment::apps) && !(j & experiment::apps_default)) add(experiment::apps, "apps-kernels");
  add(experiment::fast_default, "fast");
  if ((j & experiment::fast) && !(j & experiment::fast_default)) add(experiment::fast, "fast-kernel");
  return s.empty() ? "-" : s;
}
}  // namespace

int main(int argc, char**) {
  if (argc > 1) {
    std::fprintf(stderr, "maps2d_lists: no options (prints the experiments each 2D map joins, from its traits)\n");
    return 2;
  }
  std::printf("map experiments\n");
  for_each_map(maps2d{}, [](auto m) {
    using M = decltype(m);
    std::printf("%s %s\n", M::name, experiments_of<M>().c_str());
  });
  std::printf("(dummy, sqrt = bench_maps --test, its --maps default; apps = bench_apps' default; apps-kernels /\n"
              " fast-kernel = compiled there, not timed by default; fast = '<map>-fast' in bench_apps' default)\n");
  // each trait's list, in the registry's order (registry/experiments.hpp joining_t)
  std::printf("joining dummy: %s\n", map_names_csv(joining_t<experiment::dummy>{}).c_str());
  std::printf("joining sqrt: %s\n", map_names_csv(joining_t<experiment::sqrt>{}).c_str());
  std::printf("joining apps: %s\n", map_names_csv(joining_t<experiment::apps>{}).c_str());
  std::printf("joining apps_default: %s\n", map_names_csv(joining_t<experiment::apps_default>{}).c_str());
  std::printf("joining fast: %s\n", map_names_csv(joining_t<experiment::fast>{}, "-fast").c_str());
  std::printf("joining fast_default: %s\n", map_names_csv(joining_t<experiment::fast_default>{}, "-fast").c_str());
  return 0;
}
