// figures/looks.hpp — the look of each map on a figure (colour, point type, dash) and the
// papers' marks; drawing only (the data model is src/support/results/model.hpp).
#pragma once
#include "model.hpp"
#include "plot.hpp"

#include <string>
#include <vector>

namespace figs {
using namespace results;  // the results layer (src/support/results/), which figs builds on

// ---- looks ----------------------------------------------------------------------------
struct Style {
  std::string color;
  int pt;
  int dt;
};
Style map_style(const std::string& map);
// Whether `map` has its own style and a place in the drawing order (not the fallback):
// figures/test_registry.cpp requires it for every map of the registry.
bool has_map_style(const std::string& map);
Series map_series(const std::string& map, const Pts& p, const std::string& label = "");

// The paper marks of figure `fig` on an I axis: points (or bars for ranges) at the
// claim's x or in a column right of `xright`; returns the new right end of the x axis.
double add_marks(Panel& panel, const Ctx& ctx, const std::string& fig, double xright,
                 std::vector<std::string>* ids = nullptr);

}  // namespace figs
