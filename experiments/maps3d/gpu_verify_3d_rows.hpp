// experiments/maps3d/gpu_verify_3d_rows.hpp — gpu_verify_3d's CSV row (tet_exact_range_gpu.csv), by
// column name (results/row.hpp TD_COL: a name the layout does not declare fails to compile).
// Host only, no CUDA: verify/test_experiment_rows builds it on a CPU-only machine and checks its text.
#pragma once
#include <results/row.hpp>

#include <string>

namespace tdmaps::rows {

// One searched root of tet_exact_range_gpu.csv, its cells by name.
struct TetExactRangeGpuRow {
  std::string root;         // the map's name (its TET<R>)
  std::string part;         // results::tet_part::layer / row
  std::string first_wrong;  // the first wrong lambda, or "none"
  unsigned long long searched_to = 0;
  // the largest exact N at rho 4, 8, 10 (empty for a row root)
  std::string largest_exact_N_rho4, largest_exact_N_rho8, largest_exact_N_rho10;
  std::string note;         // free text (commas too): written quoted
  int index_bits = 64;      // 32 / 64: the root's index path
};
inline results::RowOf<results::layout::tet_exact_range_gpu> tet_exact_range_gpu_row(const TetExactRangeGpuRow& e) {
  results::RowOf<results::layout::tet_exact_range_gpu> r;
  r.set(TD_COL("root"), e.root).set(TD_COL("part"), e.part).set(TD_COL("first_wrong"), e.first_wrong);
  r.set(TD_COL("searched_to"), e.searched_to).set(TD_COL("largest_exact_N_rho4"), e.largest_exact_N_rho4);
  r.set(TD_COL("largest_exact_N_rho8"), e.largest_exact_N_rho8);
  r.set(TD_COL("largest_exact_N_rho10"), e.largest_exact_N_rho10);
  r.set(TD_COL("note"), results::quoted(e.note)).set(TD_COL("index_bits"), e.index_bits);
  return r;
}

}  // namespace tdmaps::rows
