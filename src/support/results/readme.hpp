// src/support/results/readme.hpp — README.md's generated blocks, from the committed CSVs through the
// selections of select.hpp (the same ones the claim rules and the report use):
//   <!-- results:begin --> ... <!-- results:end -->   the results table of every GPU folder
//   <!-- targets:begin --> ... <!-- targets:end -->   the lean-map paragraph under "The maps"
// `tdmaps_figures --readme README.md` rewrites them (with the gallery); the drift test
// (paper/drift_test.sh) regenerates them and requires the committed README to be the same.
#pragma once
#include "model.hpp"

#include <string>

namespace figs {

std::string readme_results_block(const Ctx& ctx);
std::string readme_targets_block(const Ctx& ctx);
// <!-- maps:begin/end -->: the map table (ranges from verify/results/exact_ranges_cpu.csv and each
// GPU's exact-range sweep, instruction counts from experiments/results/cpu/map_instructions.csv).
std::string readme_maps_block(const Ctx& ctx);
// <!-- rounding:begin/end -->: the float maps' exact ranges in both rounding modes.
std::string readme_rounding_block(const Ctx& ctx);
// <!-- gram:begin/end -->: the tensor-core pairwise distances of issue #27, from each GPU's gram.csv
// (src/support/results/readme_gram.cpp).
std::string readme_gram_block(const Ctx& ctx);
// Issue #27's targets against one GPU folder's gram.csv (and peers_gram.csv for torch.cdist): one row
// a target, our best LTM-E kernel at each size of the issue. README's gram block and the report's
// "Issue targets" rows (paper/claims/report.cpp) print the same rows. Empty without gram.csv.
struct GramTarget {
  std::string id;        // 27-write, 27-gemm, 27-gemm-epilogue, 27-syrk, 27-cdist, 27-hist
  std::string target;    // the target, in words
  std::string kernel;    // our kernel(s) that gave the values
  std::string measured;  // the measured values (per size)
  std::string verdict;   // met | missed | met at some sizes | not measured
  std::string where;     // for "met at some sizes": the sizes met; sizes within 1 % of the target; not measured
};
std::vector<GramTarget> gram_targets(const GpuData& g);

// Replaces the text between "<!-- <name>:begin -->\n" and "<!-- <name>:end -->" of `text`;
// false (text unchanged) when a marker is missing.
bool replace_block(std::string& text, const std::string& name, const std::string& body);

}  // namespace figs
