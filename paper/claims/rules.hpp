// paper/claims/rules.hpp — the rule kinds of the claim table (internal to paper/claims).
//
// A Rule says in words how "ours" is computed (`how`) and computes it (`fn`). The
// table in rules.cpp gives every claim id one Rule, built by one of the kinds below
// from its parameters; kinds.cpp writes the kinds once, custom*.cpp the one-off rules.
#pragma once
#include "claims.hpp"
#include "notes.hpp"
#include "registry/traits.hpp"  // tdmaps::map_family, family_name

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace claims {
using namespace results;  // the results layer (src/support/results/), which the claims build on
namespace rules {

using Fn = std::function<Outcome(const Claim&, const GpuData*, const Ctx&)>;
struct Rule {
  std::string how;
  Fn fn;
  bool gpu = true;  // reads GPU results (one row per GPU in the report)
  // a claim of the papers' dummy-kernel comparison of the maps (000 §V, 001 §IV, Fig. 5): the report's section
  // "Dummy kernel on Hopper vs Kepler" lists its paper value
  bool papers_dummy = false;
};

const double kInf = std::numeric_limits<double>::infinity();

// The statistic of a curve (I against N).
enum class St { MedLarge, Max, Last, MeanAll, MedAll, First };

// Tolerance of a comparison: absolute, or relative to the paper's value.
struct Tol {
  double t;
  bool rel;
};

// What a comparison means beyond the paper value's own sign.
struct Judge {
  std::string cmp;             // overrides the paper value's comparison ("" = its own)
  std::optional<Tol> tol;      // overrides the unit's tolerance
  bool gain = false;           // a bound (<, <=) on a gain: holds only for 1 < ours (a slowdown is no gain)
  double noise = NAN;          // run-to-run spread of ours (same unit), from the p25/p75 quartiles
};

// The verdict of a numeric claim (the verdict rule: kinds.cpp's head; the report states it, paper/report.template.md).
Outcome judge(const Claim& c, double ours, const std::string& ours_text, const Judge& j = {});
Outcome not_measured(const std::string& why);
// The verdict of several readings of one claim: their common verdict when every measured one
// agrees, else "depends on the reading"; unmeasured readings are named and do not vote.
Outcome combine_readings(const std::vector<std::pair<std::string, Outcome>>& outs);
// "not measured yet (needs <file>: <rows>)"
Outcome needs(const std::string& file, const std::string& rows);
std::string vfmt(const std::string& unit, double v);

Sel sel_eq(std::map<std::string, std::string> eq, bool exact_only = true, double rho = current_rho());
std::string sel_text(const std::string& file, const Sel& s);

// The strategies of the papers' comparisons, one variant each (first with rows).
extern const std::vector<std::string> kLTM;  // ltm-r, ltm-e, ltm-x, ltm-n, ltm-d
extern const std::vector<std::string> kUTM;  // utm-n, utm-x

// ---- kinds -------------------------------------------------------------------------------
// A statistic of I (as % when the claim's unit is %) of the first candidate map with rows.
struct StatOpt {
  double xmax = kInf;  // only N ≤ xmax
  bool gain = false;   // the paper's bound is on a gain (Judge::gain)
  std::string cmp;     // overrides the comparison
};
Rule stat_I(const results::Layout& layout, Sel sel, std::vector<std::string> cands, St st, StatOpt opt = {});
// The same statistic for several labelled selections; holds if each holds.
Rule stat_each(const results::Layout& layout, std::vector<std::pair<std::string, Sel>> sels, std::vector<std::string> cands,
               St st);
// "slower than BB over the whole range": the median over N of I of each strategy is < 1
// (spread over N and run-to-run spread shown; one noisy maximum does not flip it).
Rule below_one(const results::Layout& layout, Sel sel, std::vector<std::vector<std::string>> strategies);
// stat(I of a) / stat(I of b), each from its own file and selection.
struct Side {
  results::Layout layout;
  Sel sel;
  std::vector<std::string> cands;
};
Rule ratio_I(Side a, Side b, St st);
// What rank_of and only_above_one look for: a family of maps (any of its maps; the text names it by its word,
// tdmaps::family_name) or one map by name.
struct Which {
  Which(tdmaps::map_family f) : word(tdmaps::family_name(f)), family(f) {}
  Which(std::string map) : word(std::move(map)) {}
  std::string word;
  std::optional<tdmaps::map_family> family;
};
// Rank of `which` among the strategies by the median I over N ≥ kLargeN (common = over the N all have).
Rule rank_of(const results::Layout& layout, Sel sel, const Which& which, std::vector<std::vector<std::string>> strategies,
             bool common = false);
// Of the strategies, those with median I over N ≥ kLargeN above 1; holds if that set is {which}.
Rule only_above_one(const results::Layout& layout, Sel sel, const Which& which,
                    std::vector<std::vector<std::string>> strategies);
// Hardware of a paper or absolute numbers of other hardware: ours beside, verdict "context".
Rule context(const std::string& what, Fn ours = nullptr);
Rule out_of_scope(const std::string& why);
Rule custom(const std::string& how, Fn fn, bool gpu);

// Data helpers shared with custom*.cpp.
const Table* need_table(const GpuData* g, const results::Layout& layout, std::string* why);
double stat(const Pts& all, St s, double xmax = kInf);
std::string stat_text(St s, double xmax = kInf);
std::string pick(const Table& t, const Sel& s, const std::vector<std::string>& cands, St st, double xmax = kInf);
// Run-to-run spread of I at each N: half the interquartile range, relative, of the map's
// row plus that of BB's row at the same N (p25_ms, p75_ms, median_ms).
Pts rel_spread(const Table& t, const Sel& s, const std::string& map);
// The spread of a statistic of I (absolute, in I): the value times the median relative spread
// over the N the statistic used (at its one N for Max / First / Last).
double stat_spread(const Table& t, const Sel& s, const std::string& map, St st, double xmax = kInf);
// The paper's I (unit I, or 1 + % / 100) of the claim being evaluated, NaN when it has none: set by evaluate() for
// the reasons bound_note() gives (the value a quantity would need on the paper's GPU).
struct PaperScope {
  explicit PaperScope(const Claim& c);
  ~PaperScope();
  PaperScope(const PaperScope&) = delete;
  PaperScope& operator=(const PaperScope&) = delete;

 private:
  double prev_;
};
double paper_I();
// One line from the data on what bounds the kernel of `file` on this GPU ("" if unknown).
// xmax: only rows with N ≤ xmax (a claim on a bounded range of N is explained at its own largest N).
std::string bound_note(const GpuData* g, const results::Layout& layout, const Sel& s, const std::string& map = "",
                       double xmax = kInf);
// "N = a…b (k sizes)" of a map's rows in a selection.
std::string n_range(const Table& t, const Sel& s, const std::string& map);

}  // namespace rules
}  // namespace claims
