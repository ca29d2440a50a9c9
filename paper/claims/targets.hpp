// paper/claims/targets.hpp — our own targets (issue #39 item 3): what an issue of this package set for its own
// kernels, typed once in paper/targets.csv (beside reported.csv) and judged here by the same judge() as the papers'
// claims (a target is a claim whose "paper value" is the issue's: holds = met, differs = missed). The report lists
// them apart, as ours ("Issue targets (ours; no paper claim)"), never in the papers' tally.
#pragma once
#include "claims.hpp"
#include "readme.hpp"

#include <string>
#include <vector>

namespace claims {
using namespace results;  // the results layer (src/support/results/), which the claims build on

struct Target {
  std::string id, issue, table, target, value, unit, csv, how;  // the columns of paper/targets.csv (table: the
                                                               // report's table of the row; empty: its issue's)
  PaperValue pv;                                         // value, parsed as a claim's paper value
};
// paper/targets.csv (the file beside ctx.reported); empty with *why when it cannot be read.
std::vector<Target> load_targets(const std::string& path, std::string* why);
std::string targets_path(const Ctx& ctx);

// A target's verdict words, declared once (issue #39): judge()'s kHolds is kMet, its kDiffers kMissed; a target over
// sizes met at some of them only is kMetAtSome; kNotMeasured as a claim's. README reads them from TargetVerdict.
inline constexpr const char* kMet = "met";
inline constexpr const char* kMissed = "missed";
inline constexpr const char* kMetAtSome = "met at some sizes";

struct TargetResult {
  const Target* target;
  const GpuData* gpu;
  std::string kernel;    // what gave our value
  std::string measured;  // our value, in words
  std::string verdict;   // kMet | kMissed | kMetAtSome | kNotMeasured
  std::string where;     // for a target over sizes: the sizes met; within 1 % of the target; not measured
  std::string binds;     // a target not met: what binds our kernel, from the GPU folder's ncu_gram.csv (binds_rule)
  double value = NAN;    // our value, where one number gives the verdict
  Outcome outcome;       // judge()'s outcome (holds / differs; over sizes: the first size missed, else the last)
};
// What binds a kernel, in words, from a row of ncu_gram.csv (experiments/gram/ncu_binds): a unit at >= 80 % of its
// peak binds (the busiest named); with none there, latency binds, and the largest stall reasons say on what.
std::string binds_rule(const TableRow& ncu_row);
// Whether target `id` has a rule here (test_claims: every row of paper/targets.csv has one).
bool has_target_rule(const std::string& id);
// The verdict of each target of `targets` that has a rule here, on every GPU folder with its CSV: GPU folder by
// GPU folder, each in the order of `targets`.
std::vector<TargetResult> evaluate_targets(const std::vector<Target>& targets, const Ctx& ctx);
// The same verdicts, of paper/targets.csv, as README prints them (tdmaps_figures passes them to readme.cpp and
// readme_gram.cpp); empty with *why when paper/targets.csv cannot be read.
std::vector<TargetVerdict> target_verdicts(const Ctx& ctx, std::string* why = nullptr);

}  // namespace claims
