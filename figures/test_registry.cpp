// figures/test_registry.cpp — every map of the registry (src/tdmaps/registry.hpp) can be
// drawn: it has its own style and a place in the drawing order (figures/looks.cpp; the order: src/results/model.cpp), and
// so does the "-fast" EDM variant of every map in maps2d_fast. A new map that misses
// them fails here (the recipe in CONTRIBUTING.md). Its oracle cases, dummy kernels and
// EDM/collision kernels follow from the registry lists themselves.
#include "looks.hpp"

#include <tdmaps/registry.hpp>

#include <cstdio>
#include <string>

int main() {
  using namespace tdmaps;
  using figs::has_map_style;
  int bad = 0, n = 0;
  const auto check = [&](const std::string& name) {
    ++n;
    if (!has_map_style(name)) {
      std::printf("FAIL  %s has no style or no place in kOrder (figures/looks.cpp; the order: src/results/model.cpp)\n", name.c_str());
      ++bad;
    }
  };
  for_each_map(maps2d{}, [&](auto m) { check(decltype(m)::name); });
  for_each_map(maps3d{}, [&](auto m) { check(decltype(m)::name); });
  for_each_map(maps2d_fast{}, [&](auto m) { check(std::string(decltype(m)::name) + "-fast"); });
  std::printf("%d passed, %d failed\n", n - bad, bad);
  return bad ? 1 : 0;
}
