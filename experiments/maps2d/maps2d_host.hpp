// experiments/maps2d/maps2d_host.hpp — host-side helpers of the map-only GPU
// programs (bench_maps, gpu_verify_maps, gpu_exact_range): the map lists and the
// exact-range arithmetic (the command line and the timing are src/support/bench/). No CUDA here, so the host
// unit test (test_maps2d_host.cu) checks all of it without a GPU.
#pragma once
#include <tdmaps/registry.hpp>

#include <bench/args.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace tdmaps::exp2d {

using bench::bad_input;
using bench::join_args;
using bench::split_list;

inline std::string map2_names() {
  std::string s;
  for_each_map(maps2d{}, [&](auto m) { s += (s.empty() ? "" : ", ") + std::string(decltype(m)::name); });
  return s;
}

// Map names from a --maps option: known 2D maps, no repeats, order kept.
inline std::vector<std::string> map2_list() {
  std::vector<std::string> v;
  for_each_map(maps2d{}, [&](auto m) { v.push_back(decltype(m)::name); });
  return v;
}
inline std::vector<std::string> parse_maps(const std::vector<std::string>& args) {
  std::vector<std::string> d3;  // known to tdmaps, run by bench_maps3d: told apart from an unknown name
  for_each_map(maps3d{}, [&](auto m) { d3.push_back(decltype(m)::name); });
  return bench::parse_available(args, "--maps", map2_list(), d3, "this 2D experiment (a 3D map: bench_maps3d runs it)");
}

// Block sides from --rho: 1..32 (rho x rho threads per block, at most 1024).
inline std::vector<int> parse_rhos(const std::vector<std::string>& args) {
  return bench::parse_small_ints(args, "--rho", 1, 32);
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

}  // namespace tdmaps::exp2d
