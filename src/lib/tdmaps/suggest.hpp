// tdmaps/suggest.hpp — refusals that help: when a map's plan() refuses a size, which
// map (or which block side) does serve it; the block sides a GPU launches; the largest
// size a map's plan() accepts. Host only; used by the CLI and the experiment programs.
#pragma once
#include "registry.hpp"

#include <string>
#include <type_traits>
#include <vector>

namespace tdmaps {

// A CUDA block holds at most 1024 threads: rho^2 in 2D (rho <= 32), rho^3 in 3D (rho <= 10).
constexpr int max_threads_per_block = 1024;
inline int max_block_side(bool is3d) { return is3d ? 10 : 32; }
// "" when rho is a block side a GPU launches, else one line naming the limit.
inline std::string block_side_error(long long rho, bool is3d) {
  const int hi = max_block_side(is3d);
  if (rho >= 1 && rho <= hi) return "";
  std::string s = "rho must be in 1.." + std::to_string(hi) + " in " + (is3d ? "3D" : "2D") + " (got " + std::to_string(rho);
  if (rho > hi && rho <= 1'000'000)
    s += is3d ? ": rho^3 = " + std::to_string(rho * rho * rho) : ": rho*rho = " + std::to_string(rho * rho);
  if (rho > hi) s += std::string(" threads per block; a CUDA block holds at most ") + std::to_string(max_threads_per_block);
  return s + ")";
}

// The block sides tried, in order, when no map serves N at the asked rho: only sides a
// GPU launches (block_side_error is empty for each).
inline const std::vector<int>& suggest_rhos(bool is3d) {
  static const std::vector<int> r2{1, 2, 4, 8, 16, 32}, r3{1, 2, 4, 6, 8, 10};
  return is3d ? r3 : r2;
}

// Whether M::plan(N, rho) accepts (an exact plan). ltm-lut's plan() builds its table of
// n(n+1)/2 entries (up to 1 GiB); its size test alone is asked here (map_ltm_lut.hpp).
template <class M>
bool plan_accepts(i64 N, int rho) {
  if constexpr (std::is_same_v<M, LTM_LUT>) {
    return N >= 1 && rho >= 1 && rho <= 1024 && ceil_div(N, rho) <= i64(limits::ltm_lut_max_n);
  } else {
    try {
      (void)M::plan(N, rho);
      return true;
    } catch (const unsupported&) {
      return false;
    }
  }
}

// Largest N that M::plan accepts at rho (every N from 1 to it is accepted; 0 if N = 1 is
// refused). REC accepts only N = rho*n with n even (N = m*2^k): there it is the largest
// such N, and the CLI says which N between are refused.
constexpr i64 largest_N_searched = i64(1) << 40;
template <class M>
i64 largest_accepted(int rho) {
  if constexpr (std::is_same_v<M, REC>) {
    for (i64 n = 65535; n >= 2; --n)
      if (plan_accepts<M>(n * rho, rho)) return n * rho;
    return 0;
  } else {
    if (!plan_accepts<M>(1, rho)) return 0;
    i64 lo = 1, hi = largest_N_searched;  // accepted(lo), and hi is past every grid
    if (plan_accepts<M>(hi, rho)) return hi;
    while (hi - lo > 1) {
      const i64 mid = lo + (hi - lo) / 2;
      (plan_accepts<M>(mid, rho) ? lo : hi) = mid;
    }
    return lo;
  }
}

// "ltm-e, ltm-d serve N=... at rho=16" / "ltm-e serves N=... with --rho 32" / "no map of
// tdmaps serves N=... (... at any rho)". `refused` is left out of the first list.
template <class... Ms>
std::string serving_hint(map_list<Ms...> list, const std::string& refused, i64 N, int rho, bool is3d) {
  const auto accepts = [&](auto m, int r) { return plan_accepts<decltype(m)>(N, r); };
  std::vector<std::string> here;
  for_each_map(list, [&](auto m) {
    if (decltype(m)::name != refused && accepts(m, rho)) here.push_back(decltype(m)::name);
  });
  const std::string at = "N=" + std::to_string(N);
  if (!here.empty()) {
    std::string s;
    for (const std::string& n : here) s += (s.empty() ? "" : ", ") + n;
    return "use " + s + " (" + (here.size() == 1 ? "serves " : "serve ") + at + " at rho=" + std::to_string(rho) + ")";
  }
  for (int r : suggest_rhos(is3d)) {
    if (r == rho) continue;
    std::string found;
    for_each_map(list, [&](auto m) {
      if (found.empty() && accepts(m, r)) found = decltype(m)::name;
    });
    if (!found.empty()) return "use " + found + " --rho " + std::to_string(r) + " (no map serves " + at + " at rho=" + std::to_string(rho) + ")";
  }
  return std::string("no ") + (is3d ? "3D" : "2D") + " map of tdmaps serves " + at + " at any block side a GPU launches (rho <= " +
         std::to_string(max_block_side(is3d)) + ")";
}

}  // namespace tdmaps
