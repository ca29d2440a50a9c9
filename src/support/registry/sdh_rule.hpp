// registry/sdh_rule.hpp — which evaluation of s = |p_i - p_j|^2 an SDH histogram uses (its rule), and the
// rule's name. Here, below the results layer, so that the list of implementations (registry/sdh_rungs.hpp) and
// the results layer name a rule with it; the rules themselves are written in apps/sdh_cpu.hpp.
#pragma once

namespace tdmaps::sdh {

// The pinned rule (every version but fast-fma* and fast-gram*), the fused one, or the Gram rule
// (apps/sdh_cpu.hpp: dist2, dist2_fma, gram_s). A histogram is compared bucket for bucket only with one
// of the same rule.
enum class Rule : int { pinned = 0, fused = 1, gram = 2 };
inline const char* rule_name(Rule r) { return r == Rule::gram ? "gram" : r == Rule::fused ? "fused" : "pinned"; }

}  // namespace tdmaps::sdh
