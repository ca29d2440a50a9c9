// figures/claims.hpp — one rule per claim of paper/reported.csv: how our value is
// computed from the results (or from the map library), and the verdict rule.
#pragma once
#include "model.hpp"

#include <string>

namespace figs {

struct Outcome {
  std::string ours;     // our value, with what it was taken from
  std::string verdict;  // holds | differs | not measured | context
  std::string reason;   // why, in words
};

// Whether claim `id` has a rule; the rule in words.
bool has_rule(const std::string& id);
std::string rule_text(const std::string& id);
// Evaluates claim c on one GPU's results (gpu may be null: no GPU data at all).
Outcome evaluate(const Claim& c, const GpuData* gpu, const Ctx& ctx);
// Whether the rule of `id` reads GPU results (false: map library / CPU oracle only).
bool needs_gpu(const std::string& id);

// The verdict rule shared by the numeric claims (exposed for the report's method section).
std::string verdict_rule_text();

}  // namespace figs
