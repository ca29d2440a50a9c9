// paper/claims/report_data.hpp — the analyses of the report's own sections (not claims: the setup, the method,
// "Dummy kernel on Hopper vs Kepler"), computed here, beside the claim rules, from the CSVs and the logs beside them
// (issue #39: the report keeps no analysis of its own; it moved here from the results layer), so that
// paper/claims/report.cpp only formats them into the slots of paper/report.template.md.
#pragma once
#include "model.hpp"

#include <string>
#include <utility>
#include <vector>

namespace claims {
using namespace results;  // the results layer (src/support/results/), which the claims build on

// The repetitions per row over every GPU CSV (write_bw rows aside): (min, max), NaN when no row has `reps`.
std::pair<double, double> reps_range(const Ctx& ctx);

// compute-sanitizer: the summary lines of each log in <gpu dir>/logs/sanitizer/*.log (by name).
struct SanitizerLog {
  std::string file;  // the log's name
  int clean = 0;     // summaries with 0 errors / 0 hazards
  int runs = 0;      // ERROR SUMMARY / RACECHECK SUMMARY lines
};
std::string sanitizer_dir(const GpuData& g);
std::vector<SanitizerLog> sanitizer_logs(const GpuData& g);  // empty without the folder

// "Dummy kernel on Hopper vs Kepler": each GPU's dummy.csv at kRho.
struct DummyHopper {
  struct Unusable {
    std::string slug, missing, reason;  // missing: the columns dummy.csv lacks ("" when it is absent: reason)
  };
  struct ImprovementRow {  // the median over N ≥ kLargeN of I of each map (NaN: no exact rows there)
    const GpuData* g;
    std::string form;
    std::vector<double> improvement;  // I of each map of `maps`
  };
  struct RateRow {  // BB and ltm-r at the largest N with a BB row of the form
    const GpuData* g;
    std::string form;
    double n = NAN;
    double ms[2] = {NAN, NAN}, blocks[2] = {NAN, NAN};  // bb, ltm-r: median time, median launched blocks
  };
  struct BlockRate {  // the block-rate reading: launch rates of BB and ltm-r in both forms, and BB's block ratio
    const GpuData* g;
    double rate_min = NAN, rate_max = NAN;  // 10⁹ blocks/s
    double n = NAN;                         // the largest N with a BB row (over the forms)
    double ratio = NAN;                     // BB's launched blocks / ltm-r's at that N (the last form)
  };
  std::vector<std::string> forms;  // store, cond
  std::vector<Unusable> unusable;
  std::vector<const GpuData*> usable;
  std::vector<std::string> maps;  // ltm-r first, then the other maps of any GPU (not BB)
  std::vector<ImprovementRow> improvement;
  std::vector<RateRow> rates;
  std::vector<BlockRate> reading;
  std::vector<std::pair<std::string, std::string>> sass;  // (map, instructions) of map_instructions.csv, 2D, 32-bit, cond
  std::vector<const Claim*> kepler;                       // the papers' numeric dummy-kernel claims (papers_dummy)
};
DummyHopper dummy_hopper(const Ctx& ctx);

}  // namespace claims
