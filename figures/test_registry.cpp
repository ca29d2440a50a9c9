// figures/test_registry.cpp — every map of the registry (src/lib/tdmaps/registry.hpp) reaches the
// figures and README: it has its own style (its trait, registry/traits.hpp) and a place in the
// drawing order (src/support/results/model.cpp, the registry's order), and so does the "-fast" EDM
// variant of every map in maps2d_fast; README's generated map table (src/support/results/readme.cpp)
// has its row. The throwaway-map test (verify/test_throwaway_map.sh) runs this on a tree with
// one map added. Its oracle cases, dummy kernels and EDM/collision kernels follow from the
// registry lists themselves.
//   test_registry README_TEMPLATE   (src/support/results/readme.template.md: the map table's form and words)
#include "looks.hpp"
#include "readme.hpp"
#include "readme_template.hpp"

#include <tdmaps/registry.hpp>
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  using namespace tdmaps;
  using figs::has_map_style;
  int bad = 0, n = 0;
  results::Ctx ctx;
  std::string err;
  if (argc != 2 || !results::load_readme_template(argv[1], &ctx.readme, &err)) {
    std::fprintf(stderr, "usage: test_registry README_TEMPLATE (src/support/results/readme.template.md)%s%s\n",
                 err.empty() ? "" : ": ", err.c_str());
    return 2;
  }
  const std::string table = results::readme_maps_block(ctx);
  const auto check = [&](const std::string& name, bool row) {
    ++n;
    if (!has_map_style(name)) {
      std::printf("FAIL  %s has no style or no place in the drawing order (its map_traits; src/support/results/model.cpp)\n",
                  name.c_str());
      ++bad;
    } else if (row && table.find("| `" + name + "` |") == std::string::npos) {
      std::printf("FAIL  %s has no row in README's map table (src/support/results/readme.cpp)\n", name.c_str());
      ++bad;
    } else {
      std::printf("ok    %s\n", name.c_str());
    }
  };
  for_each_map(maps2d{}, [&](auto m) { check(decltype(m)::name, true); });
  for_each_map(maps3d{}, [&](auto m) { check(decltype(m)::name, true); });
  for_each_map(maps2d_fast{}, [&](auto m) { check(std::string(decltype(m)::name) + "-fast", false); });
  std::printf("%d passed, %d failed\n", n - bad, bad);
  return bad ? 1 : 0;
}
