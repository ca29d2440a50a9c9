// paper/claims/gram_measures.hpp — what the Gram targets (27-*, 36-*, 37-*: paper/targets.csv) measure in one GPU
// folder: gram.csv, gram_exact.csv and peers_gram.csv (torch.cdist). Beside the papers' claims: the verdicts are
// judged from these in targets.cpp (issue #39 item 3: the issue-target verdicts in the claims' room).
#pragma once
#include "model.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace claims {
using results::GpuData;

// The Gram targets' measures against one GPU folder's gram.csv (and peers_gram.csv for torch.cdist): for each of the
// issue's targets, our value at each of its sizes, from our best LTM-E kernel at that size. The verdicts are the
// rows 27-* of paper/targets.csv, judged in paper/claims/targets.cpp. Empty without gram.csv.
struct GramPoint {
  std::string N, d;
  double value = NAN;  // the peer's median over ours (27-hist: our time in s); NaN: not measured at this size
  std::string kernel;  // our kernel that gave it
};
struct GramMeasure {
  std::string id;                 // 27-write, 27-gemm, 27-gemm-epilogue, 27-syrk, 27-cdist, 27-hist
  std::vector<GramPoint> points;  // the sizes, N-major (gram_target_N × gram_target_d); 27-hist: one
  std::string none;               // why nothing could be measured ("" when `points` has them)
  std::string others;             // 27-hist: the other kernels' times at the same size, in words
};
std::vector<GramMeasure> gram_measures(const GpuData& g);

}  // namespace claims
