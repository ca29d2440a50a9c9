// tdmaps/suggest.hpp — refusals that help: when a map's plan() refuses a size, which
// map (or which block side) does serve it. Host only; used by the CLI and the
// experiment programs after a tdmaps::unsupported.
#pragma once
#include "registry.hpp"

#include <string>
#include <vector>

namespace tdmaps {

// The block sides tried, in order, when no map serves N at the asked rho.
inline const std::vector<int>& suggest_rhos(bool is3d) {
  static const std::vector<int> r2{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}, r3{1, 2, 4, 6, 8, 10};
  return is3d ? r3 : r2;
}

// "ltm-e, ltm-d serve N=... at rho=16" / "ltm-e serves N=... with --rho 64" / "no map of
// tdmaps serves N=... (... at any rho)". `refused` is left out of the first list.
template <class... Ms>
std::string serving_hint(map_list<Ms...> list, const std::string& refused, i64 N, int rho, bool is3d) {
  const auto accepts = [&](auto m, int r) {
    using M = decltype(m);
    try {
      (void)M::plan(N, r);
      return true;
    } catch (const unsupported&) {
      return false;
    }
  };
  std::vector<std::string> here;
  for_each_map(list, [&](auto m) {
    if (decltype(m)::name != refused && accepts(m, rho)) here.push_back(decltype(m)::name);
  });
  const std::string at = "N=" + std::to_string(N);
  if (!here.empty()) {
    std::string s;
    for (const std::string& n : here) s += (s.empty() ? "" : ", ") + n;
    return "use " + s + " (" + (here.size() == 1 ? "serves " : "serve ") + at + " at rho=" + std::to_string(rho) + ")";
  }
  for (int r : suggest_rhos(is3d)) {
    if (r == rho) continue;
    std::string found;
    for_each_map(list, [&](auto m) {
      if (found.empty() && accepts(m, r)) found = decltype(m)::name;
    });
    if (!found.empty()) return "use " + found + " --rho " + std::to_string(r) + " (no map serves " + at + " at rho=" + std::to_string(rho) + ")";
  }
  return std::string("no ") + (is3d ? "3D" : "2D") + " map of tdmaps serves " + at + " at any block side";
}

}  // namespace tdmaps
