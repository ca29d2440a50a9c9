// src/lib/cli/facts.hpp — the closed-form facts `tdmap info` and `tdmap range` print, as values: the
// CLI prints them (tdmap.cpp) and the Python package returns them (python/tdmaps/_core.cpp,
// tdmaps.maps.info / range), one computation for both. Host-only, header-only, no Boost.
#pragma once
#include <tdmaps/counts.hpp>
#include <tdmaps/suggest.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace tdmaps::facts {

// 1234567 -> "1,234,567"
inline std::string grouped(u64 v) {
  std::string s = std::to_string(v), o;
  for (size_t k = 0; k < s.size(); ++k) {
    if (k && (s.size() - k) % 3 == 0) o += ',';
    o += s[k];
  }
  return o;
}

template <class M> const char* kind_of() { return M::blockwise ? "block" : "thread"; }

// What makes M's results exact, and where that range comes from (the range plan() enforces).
template <class M>
std::string exactness2() {
  if constexpr (std::is_same_v<M, LTM_LUT>) {
    return "exact (table lookup); the table holds " + grouped(limits::ltm_lut_max_entries) + " entries";
  } else if constexpr (is_ltm<M>::value) {
    const u64 b = M::exact_blocks;
    if (b >= limits::no_limit) return "exact integer correction at every block index";
    return "exact for block index < " + grouped(b) +
           (M::sqrt_policy::host_exact_repro ? " (proven by the CPU oracle)"
                                             : " (device rounding: measured by the GPU sweep on sm_90)");
  } else if constexpr (is_utm<M>::value) {
    return "exact for N <= " + grouped(M::max_N) + " (proven by the CPU oracle, any rho)";
  } else {
    return "integer map (exact)";
  }
}
template <class M>
std::string exactness3() {
  if constexpr (std::is_same_v<M, BB3>) {
    return "integer map (exact)";
  } else {
    const u64 b = M::exact_blocks;
    if (b >= (1ull << 60)) return "exact integer correction at every block index";
    return "exact for block index < " + grouped(b) + " (proven by the CPU oracle)";
  }
}
// A map whose device results are wrong where the host's are right: flagged wherever it is shown.
template <class M>
const char* device_warning() {
  if constexpr (std::is_same_v<M, TET_F>)
    return "WRONG ON THE GPU from block index 0 (the device's float cube root; GPU sweep, "
           "experiments/results/<gpu>/tet_exact_range_gpu.csv): host results only";
  return "";
}

// The sizes plan() accepts at rho, as one phrase, and the refusal just past them.
template <class M>
std::string accepted_sizes(int rho, std::string* refusal = nullptr) {
  const i64 top = largest_accepted<M>(rho);
  if (refusal) {
    *refusal = "";
    if (top < largest_N_searched) {
      try {
        (void)M::plan(top + (std::is_same_v<M, REC> ? 2 * rho : 1), rho);
      } catch (const unsupported& e) {
        *refusal = e.what();
      }
    }
  }
  if (top == 0) return "no N at rho=" + std::to_string(rho);
  if constexpr (std::is_same_v<M, REC>)
    return "N = rho*n with n = N/rho even (N = m*2^k, k >= 1), N <= " + grouped(u64(top)) + " at rho=" + std::to_string(rho);
  return "N <= " + grouped(u64(top)) + " at rho=" + std::to_string(rho);
}

// `tdmap info MAP -N N --rho R` (closed forms).
struct Info {
  std::string map;
  int dim = 2;
  std::string kind;  // "block" or "thread" (what the map maps)
  i64 N = 0, n = 0;
  int rho = 0, passes = 1;
  std::vector<Dim3> grids, blocks;  // per pass (3D: one)
  Counts counts;
  std::string accepts, exact, device;  // device: a warning, or empty
};
// Throws tdmaps::unsupported where plan() refuses (N, rho).
template <class M>
Info info2(i64 N, int rho) {
  const typename M::Params p = M::plan(N, rho);
  Info f;
  f.map = M::name;
  f.dim = 2;
  f.kind = kind_of<M>();
  f.N = N;
  f.rho = rho;
  f.n = p.n;
  f.passes = p.passes;
  for (int pass = 0; pass < p.passes; ++pass) {
    f.grids.push_back(M::grid(p, pass));
    f.blocks.push_back(M::block(p));
  }
  f.counts = counts2_closed<M>(p);
  f.accepts = accepted_sizes<M>(rho);
  f.exact = exactness2<M>();
  return f;
}
template <class M>
Info info3(i64 N, int rho) {
  const Plan3 p = M::plan(N, rho);
  Info f;
  f.map = M::name;
  f.dim = 3;
  f.kind = "block";
  f.N = N;
  f.rho = rho;
  f.n = p.n;
  f.passes = 1;
  f.grids.push_back(M::grid(p));
  f.blocks.push_back(M::block(p));
  f.counts = counts3_closed<M>(p);
  f.accepts = accepted_sizes<M>(rho);
  f.exact = exactness3<M>();
  f.device = device_warning<M>();
  return f;
}

// `tdmap range MAP --rho R`.
struct Range {
  std::string map;
  i64 largest_N = 0;    // the largest N plan() accepts at rho (0: none)
  std::string accepts;  // that, as a phrase
  std::string past;     // plan()'s refusal just past it (empty: none found)
  std::string between;  // REC: a refused size below the largest (empty for the others)
  std::string exact, device;
};
template <class M, bool is3d>
Range range_of(int rho) {
  Range r;
  r.map = M::name;
  r.largest_N = largest_accepted<M>(rho);
  r.accepts = accepted_sizes<M>(rho, &r.past);
  if constexpr (std::is_same_v<M, REC>) {
    try {
      (void)M::plan(3 * i64(rho), rho);
    } catch (const unsupported& e) {
      r.between = "e.g. N = " + std::to_string(3 * i64(rho)) + ": " + e.what();
    }
  }
  if constexpr (is3d) r.exact = exactness3<M>();
  else r.exact = exactness2<M>();
  r.device = device_warning<M>();
  return r;
}

}  // namespace tdmaps::facts
