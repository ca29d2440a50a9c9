// experiments/maps2d/gpu_exact_range_rows.hpp — gpu_exact_range's CSV row (exact_range_gpu.csv), by
// column name (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <results/row.hpp>

#include <cstdint>
#include <string>

namespace tdmaps::rows {

// One swept map of exact_range_gpu.csv, its cells by name.
struct ExactRangeGpuRow {
  std::string variant;                      // the map's name (tdmaps::<Map>::name)
  std::string kind;                         // results::exact_kind (thread, block, block3, block32)
  std::string first_wrong;                  // the first wrong block index / N, or "none"
  std::uint64_t exact_N[3] = {0, 0, 0};     // the largest exact N at rho 8, 16, 32
  unsigned long long searched_up_to = 0;
  std::string rounding;                     // tdmaps::Pinned::name / tdmaps::Fused::name
};

inline results::RowOf<results::layout::exact_range_gpu> exact_range_gpu_row(const ExactRangeGpuRow& e) {
  results::RowOf<results::layout::exact_range_gpu> r;
  r.set(TD_COL("variant"), e.variant).set(TD_COL("kind"), e.kind).set(TD_COL("first_wrong"), e.first_wrong);
  r.set(TD_COL("largest_exact_N_rho8"), e.exact_N[0]).set(TD_COL("largest_exact_N_rho16"), e.exact_N[1]);
  r.set(TD_COL("largest_exact_N_rho32"), e.exact_N[2]).set(TD_COL("searched_up_to"), e.searched_up_to);
  r.set(TD_COL("rounding"), e.rounding);
  return r;
}

}  // namespace tdmaps::rows
