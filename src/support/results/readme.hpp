// src/support/results/readme.hpp — README.md's generated blocks, from the committed CSVs through the
// selections of select.hpp (the same ones the claim rules and the report use):
//   <!-- results:begin --> ... <!-- results:end -->   the results table of every GPU folder
//   <!-- targets:begin --> ... <!-- targets:end -->   the lean-map paragraph under "The maps"
//   <!-- python:begin --> ... <!-- python:end -->     the Python package: install, example, speed-ups
// `tdmaps_figures --readme README.md` rewrites them (with the gallery); the drift test
// (paper/drift_test.sh) regenerates them and requires the committed README to be the same.
#pragma once
#include "model.hpp"

#include <string>

namespace results {

// One verdict of our own targets (paper/targets.csv) on one GPU folder, as README prints it. Judged in
// paper/claims/targets.cpp (target_verdicts()) and passed in by tdmaps_figures, so that this layer does not include
// paper/; the report prints the same rows.
struct TargetVerdict {
  std::string id;        // the row of paper/targets.csv: 26-sdh, 27-write, ...
  std::string slug;      // the GPU folder
  std::string target;    // the issue's target, in words
  std::string kernel;    // our kernel(s) that gave the values
  std::string measured;  // the measured values (per size)
  std::string verdict;   // met | missed | met at some sizes | not measured
  std::string where;     // for "met at some sizes": the sizes met; sizes within 1 % of the target; not measured
  std::string binds;     // a target not met: what binds our kernel (ncu_gram.csv; paper/claims/targets.cpp), or empty
  double value = NAN;    // our value, where one number gives the verdict (NaN: several, or none)
  double goal = NAN;     // the target's number
  std::string issue;     // the issue it is of (column issue of paper/targets.csv: 26, 27, ...)
  std::string table;     // the report's table of its row (column table: sdh, gram, ...; empty: its issue's)
};
// The verdict of target `id` on GPU folder `slug` (nullptr: none).
const TargetVerdict* find_verdict(const std::vector<TargetVerdict>& v, const std::string& id, const std::string& slug);

// The SDH sentence of each GPU folder takes issue #26's verdict (26-sdh) from `verdicts`.
std::string readme_results_block(const Ctx& ctx, const std::vector<TargetVerdict>& verdicts);
std::string readme_targets_block(const Ctx& ctx);
// <!-- maps:begin/end -->: the map table (ranges from verify/results/exact_ranges_cpu.csv and each
// GPU's exact-range sweep, instruction counts from experiments/results/cpu/map_instructions.csv); its header, rows
// and words: section `maps` of readme.template.md (ctx.readme).
std::string readme_maps_block(const Ctx& ctx);
// <!-- rounding:begin/end -->: the float maps' exact ranges in both rounding modes (section `rounding`).
std::string readme_rounding_block(const Ctx& ctx);
// <!-- gram:begin/end -->: the tensor-core pairwise distances of issue #27, from each GPU's gram.csv
// (src/support/results/readme_gram.cpp), with issue #27's targets (the 27-* verdicts of `verdicts`).
std::string readme_gram_block(const Ctx& ctx, const std::vector<TargetVerdict>& verdicts);
// <!-- python:begin/end -->: the Python package (issue #38): the install line, a five-line example and each GPU
// folder's speed-ups from its peers_python.csv (src/support/results/readme_python.cpp); "not measured" without it.
std::string readme_python_block(const Ctx& ctx, const std::vector<TargetVerdict>& verdicts);  // 38-* verdicts

// Replaces the text between "<!-- <name>:begin -->\n" and "<!-- <name>:end -->" of `text`;
// false (text unchanged) when a marker is missing.
bool replace_block(std::string& text, const std::string& name, const std::string& body);

}  // namespace results
