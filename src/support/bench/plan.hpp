// src/support/bench/plan.hpp — a map's plan for one point of a sweep: exact where the map is,
// else (with --allow-inexact) past its proven range, else why not. Host only.
#pragma once
#include <tdmaps/plan.hpp>

#include <optional>
#include <string>

namespace tdmaps::bench {

// plan(allow_inexact) returns the plan or throws tdmaps::unsupported. Returns the exact
// plan (exact = true), else with allow_inexact the inexact one (exact = false), else
// nothing, with the map's reason in `why`.
template <class PlanFn>
auto try_plan(PlanFn&& plan, bool allow_inexact, bool& exact, std::string& why) -> std::optional<decltype(plan(false))> {
  try {
    exact = true;
    return plan(false);
  } catch (const unsupported& e) {
    why = e.what();
  }
  if (!allow_inexact) return std::nullopt;
  try {
    exact = false;
    return plan(true);
  } catch (const unsupported& e) {
    why = e.what();
  }
  return std::nullopt;
}

}  // namespace tdmaps::bench
