// paper/claims/claims.hpp — the verdict of every claim of paper/reported.csv.
//
// The rule of each claim id is one entry of the rule table in rules.cpp (claim id →
// rule kind + parameters: which CSV, which selection, which statistic, which
// direction); the kinds are written once in kinds.cpp, the few one-off computations
// (map-library counts, printed formulas, exact ranges, SDH) in custom*.cpp.
#pragma once
#include "model.hpp"

#include <string>
#include <vector>

namespace claims {
using namespace results;  // the results layer (src/support/results/), which the claims build on

// The verdict words, declared once (issue #39): the rules write them into Outcome::verdict, README's claims block, the
// report and the targets compare them. A sentence of prose that names a verdict spells it there.
inline constexpr const char* kHolds = "holds";
inline constexpr const char* kDiffers = "differs";
inline constexpr const char* kNotMeasured = "not measured";
inline constexpr const char* kContext = "context";  // a claim shown beside ours, with no vote
inline constexpr const char* kDepends = "depends on the reading";  // its readings' verdicts disagree (Outcome::split)

struct Outcome {
  std::string ours;     // our value, with what it was taken from
  std::string verdict;  // kHolds | kDiffers | kNotMeasured | kContext | kDepends
  std::string reason;   // why, in words (a "differs" names the data it comes from)
  bool noise = false;   // the verdict is within the run-to-run spread (p25/p75)
  std::string split{};  // "depends on the reading": each reading's verdict ("ρ = 16 differs; ρ = 32 holds")
  bool why = false;     // the reason gives the verdict's cause (notes.hpp add_why), measured or "reason not measured"
};

// Whether claim `id` has a rule; the rule in words.
bool has_rule(const std::string& id);
std::string rule_text(const std::string& id);
// The rule of `id` as built for block side rho (a claim whose ρ the paper does not fix is
// evaluated at each reading of paper/conditions.csv).
std::string rule_text_at(const std::string& id, double rho);
// The ρ readings of a claim (empty: ρ fixed, evaluated at kRho).
std::vector<double> rho_readings(const Claim& c);
// Every claim id of the rule table, in table order.
std::vector<std::string> rule_ids();
// Evaluates claim c on one GPU's results (gpu may be null: no GPU data at all).
Outcome evaluate(const Claim& c, const GpuData* gpu, const Ctx& ctx);
// Every claim of ctx.claims on every GPU folder (one null column where there is none): README's claims block and the
// report's §5 read the same grid.
struct ClaimGrid {
  std::vector<const GpuData*> cols;
  std::vector<std::vector<Outcome>> out;  // out[claim][column]
};
ClaimGrid evaluate_all(const Ctx& ctx);
// Whether the rule of `id` reads GPU results (false: map library / CPU oracle only).
bool needs_gpu(const std::string& id);
// Whether the rule table marks `id` as a claim of the papers' dummy-kernel comparison of the maps (000 §V, 001 §IV,
// Fig. 5; rules.hpp Rule::papers_dummy): the report's "Dummy kernel on Hopper vs Kepler" lists their values.
bool papers_dummy(const std::string& id);

}  // namespace claims
