// experiments/maps3d/gpu_verify_3d_rows.hpp — gpu_verify_3d's CSV row (tet_exact_range_gpu.csv), by
// column name (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <results/row.hpp>

#include <string>

namespace tdmaps::rows {

// first_wrong: the number or "none"; exact_N: the largest exact N at rho 4, 8, 10 (empty for a row
// root); the note is free text, quoted.
inline results::RowOf<results::layout::tet_exact_range_gpu> tet_exact_range_gpu_row(
    const std::string& root, const std::string& part, const std::string& first_wrong, unsigned long long searched_to,
    const std::string (&exact_N)[3], const std::string& note, bool narrow) {
  results::RowOf<results::layout::tet_exact_range_gpu> r;
  r.set(TD_COL("root"), root).set(TD_COL("part"), part).set(TD_COL("first_wrong"), first_wrong);
  r.set(TD_COL("searched_to"), searched_to).set(TD_COL("largest_exact_N_rho4"), exact_N[0]);
  r.set(TD_COL("largest_exact_N_rho8"), exact_N[1]).set(TD_COL("largest_exact_N_rho10"), exact_N[2]);
  r.set(TD_COL("note"), results::quoted(note)).set(TD_COL("index_bits"), narrow ? "32" : "64");
  return r;
}

}  // namespace tdmaps::rows
