// experiments/maps2d/gpu_exact_range_rows.hpp — gpu_exact_range's CSV row (exact_range_gpu.csv), by
// column name (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <results/row.hpp>

#include <cstdint>
#include <string>

namespace tdmaps::rows {

// first_wrong: the number or "none"; exact_N: the largest exact N at rho 8, 16, 32.
inline results::RowOf<results::layout::exact_range_gpu> exact_range_gpu_row(
    const std::string& variant, const std::string& kind, const std::string& first_wrong, const std::uint64_t (&exact_N)[3],
    unsigned long long searched_up_to, const std::string& rounding) {
  results::RowOf<results::layout::exact_range_gpu> r;
  r.set(TD_COL("variant"), variant).set(TD_COL("kind"), kind).set(TD_COL("first_wrong"), first_wrong);
  r.set(TD_COL("largest_exact_N_rho8"), exact_N[0]).set(TD_COL("largest_exact_N_rho16"), exact_N[1]);
  r.set(TD_COL("largest_exact_N_rho32"), exact_N[2]).set(TD_COL("searched_up_to"), searched_up_to);
  r.set(TD_COL("rounding"), rounding);
  return r;
}

}  // namespace tdmaps::rows
