// experiments/maps2d/maps2d_host.hpp — host-side helpers of the map-only GPU
// programs (bench_maps, gpu_verify_maps, gpu_exact_range): argument lists, the N
// sweep, exact-range arithmetic and the time budget. No CUDA here, so the host
// unit test (test_maps2d_host.cu) checks all of it without a GPU.
#pragma once
#include <tdmaps/registry.hpp>

#include <gpu/cli_lists.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace tdmaps::exp2d {

using cli::bad_input;
using cli::split_list;

// Whether `name` is a 2D map of the registry.
inline bool is_map2(const std::string& name) {
  return with_map(maps2d{}, name.c_str(), [](auto) {});
}
inline std::string map2_names() {
  std::string s;
  for_each_map(maps2d{}, [&](auto m) { s += (s.empty() ? "" : ", ") + std::string(decltype(m)::name); });
  return s;
}

// Map names from a --maps option: known 2D maps, no repeats, order kept.
inline std::vector<std::string> parse_maps(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& m : split_list(args, "--maps")) {
    if (!is_map2(m)) throw bad_input("--maps: unknown map '" + m + "' (2D maps: " + map2_names() + ")");
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  if (out.empty()) throw bad_input("--maps: no map given");
  return out;
}

// Block sides from --rho: 1..32 (rho x rho threads per block, at most 1024).
inline std::vector<int> parse_rhos(const std::vector<std::string>& args) {
  std::vector<int> out;
  for (const std::string& r : split_list(args, "--rho")) {
    size_t used = 0;
    long v = 0;
    try {
      v = std::stol(r, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != r.size()) throw bad_input("--rho: '" + r + "' is not an integer");
    if (v < 1 || v > 32) throw bad_input("--rho: must be in 1..32 (rho x rho <= 1024 threads per block); got " + r);
    if (std::find(out.begin(), out.end(), int(v)) == out.end()) out.push_back(int(v));
  }
  if (out.empty()) throw bad_input("--rho: no value given");
  return out;
}

// N = from, from + step, ..., <= to.
inline std::vector<i64> sweep_ns(i64 from, i64 to, i64 step) {
  if (from <= 0) throw bad_input("--N-from must be >= 1 (got " + std::to_string(from) + ")");
  if (to < from) throw bad_input("--N-to must be >= --N-from (got " + std::to_string(to) + " < " + std::to_string(from) + ")");
  if (step <= 0) throw bad_input("--N-step must be >= 1 (got " + std::to_string(step) + ")");
  if (to > (i64(1) << 31)) throw bad_input("--N-to must be <= 2^31 (got " + std::to_string(to) + ")");
  std::vector<i64> out;
  for (i64 N = from; N <= to; N += step) out.push_back(N);
  return out;
}

// Largest n whose n(n+1)/2 blocks all lie below `blocks` (block indices 0 .. blocks-1),
// i.e. the largest n with tri(n) <= blocks; the largest exact N of a block map at
// block side rho is rho times it (a grid of n = ceil(N/rho) rows uses tri(n) indices).
inline u64 largest_n_tri(u64 blocks) { return tri_root(blocks); }  // exact (numbers.hpp)
// Same for the tetrahedral grid: largest n with tet(n) <= blocks.
inline u64 largest_n_tet(u64 blocks) { return tet_root(blocks); }

// Position of cell (i, j), 0 <= j <= i < N, in the column-major enumeration of the
// lower triangle that UTM produces (k runs over j = 0..N-1, i = j..N-1): columns
// 0..j-1 hold N, N-1, ..., N-j+1 cells.
TD_HD i64 colmajor_index(i64 N, i64 i, i64 j) { return j * N - j * (j - 1) / 2 + (i - j); }

// ---- time budget --------------------------------------------------------------------
// Timed launches per map for the next N of a sweep under a time budget of budget_s
// seconds, budget_left_s of which remain. est_ms is one launch of every map and
// configuration at this N (measured during warm-up); the rest of the sweep is
// projected as est_ms * (N'/N)^2 for each N' still to run (launched threads grow as
// N^2; an overestimate while launch overhead dominates, so an N whose timing costs at
// most 1% of the budget is never cut). When the projection overruns what is left,
// reps shrink by the same factor, never below min_reps and never above reps.
inline int budget_reps(int reps, int min_reps, double est_ms, double budget_s, double budget_left_s, i64 N,
                       const std::vector<i64>& ns_left_including_N) {
  if (reps <= min_reps || est_ms <= 0 || N <= 0) return reps;
  if (est_ms * reps / 1000.0 <= 0.01 * budget_s) return reps;
  if (budget_left_s <= 0) return min_reps;
  double projected_s = 0;
  for (i64 m : ns_left_including_N) projected_s += est_ms * (double(m) / double(N)) * (double(m) / double(N)) * reps / 1000.0;
  if (projected_s <= budget_left_s) return reps;
  const int r = int(std::floor(double(reps) * budget_left_s / projected_s));
  return std::max(min_reps, std::min(reps, r));
}

// Timed launches of round `round` out of `rounds` when `reps` are split evenly.
inline int reps_in_round(int reps, int rounds, int round) {
  return reps / rounds + (round < reps % rounds ? 1 : 0);
}

// "--a 1 --b x" from argv, for the metadata line.
inline std::string join_args(int argc, char** argv) {
  std::string s;
  for (int i = 1; i < argc; ++i) {
    if (i > 1) s += ' ';
    s += argv[i];
  }
  return s;
}

// %.6g-free fixed formatting for CSV cells.
inline std::string fmt(double v, int digits = 6) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

}  // namespace tdmaps::exp2d
