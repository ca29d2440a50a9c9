// experiments/maps3d/maps3d_host.hpp — host-side helpers of the tetrahedral GPU
// programs (bench_maps3d, gpu_verify_3d): command-line lists, the default sweeps,
// the paper's predicted factors. No CUDA here.
#pragma once
#include <tdmaps/layout3d.hpp>  // also map_3d.hpp, tet_fast.hpp

#include <gpu/cli_lists.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace tdmaps::exp3d {

using cli::bad_input;
using cli::split_list;

inline long long parse_int(const std::string& s, const char* what) {
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size()) throw bad_input(std::string(what) + ": '" + s + "' is not an integer");
  return v;
}

// --N: items "A" or ranges "A:B:STEP" (A, A+STEP, ..., <= B), 1 <= N <= 2^21.
inline std::vector<i64> parse_Ns(const std::vector<std::string>& args) {
  std::vector<i64> out;
  const auto add = [&](long long v, const std::string& item) {
    if (v < 1 || v > (1ll << 21)) throw bad_input("--N: " + item + " is out of range 1..2097152");
    if (std::find(out.begin(), out.end(), i64(v)) == out.end()) out.push_back(i64(v));
  };
  for (const std::string& item : split_list(args, "--N")) {
    const size_t c1 = item.find(':');
    if (c1 == std::string::npos) {
      add(parse_int(item, "--N"), item);
      continue;
    }
    const size_t c2 = item.find(':', c1 + 1);
    if (c2 == std::string::npos) throw bad_input("--N: range '" + item + "' must be A:B:STEP");
    const long long a = parse_int(item.substr(0, c1), "--N"), b = parse_int(item.substr(c1 + 1, c2 - c1 - 1), "--N"),
                    st = parse_int(item.substr(c2 + 1), "--N");
    if (st < 1 || a > b) throw bad_input("--N: range '" + item + "' needs A <= B and STEP >= 1");
    if ((b - a) / st > 100000) throw bad_input("--N: range '" + item + "' has too many values");
    for (long long v = a; v <= b; v += st) add(v, item);
  }
  if (out.empty()) throw bad_input("--N: no value given");
  return out;
}

// --rho: 1..10 (rho^3 <= 1024 threads per block).
inline std::vector<int> parse_rhos(const std::vector<std::string>& args) {
  std::vector<int> out;
  for (const std::string& r : split_list(args, "--rho")) {
    const long long v = parse_int(r, "--rho");
    if (v < 1 || v > 10) throw bad_input("--rho: must be in 1..10 (rho^3 <= 1024 threads per block); got " + r);
    if (std::find(out.begin(), out.end(), int(v)) == out.end()) out.push_back(int(v));
  }
  if (out.empty()) throw bad_input("--rho: no value given");
  return out;
}

// The 3D maps these programs know; bb3 is the baseline of every comparison.
inline const std::vector<std::string>& map3_names() {
  static const std::vector<std::string> v{"bb3", "tet-f", "tet-e", "tet-fast"};
  return v;
}
inline std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}
inline std::vector<std::string> parse_maps3(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& m : split_list(args, "--maps")) {
    const auto& k = map3_names();
    if (std::find(k.begin(), k.end(), m) == k.end())
      throw bad_input("--maps: unknown map '" + m + "' (3D maps: " + joined(k) + ")");
    if (m != "bb3" && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  if (out.empty()) throw bad_input("--maps: no map besides the bb3 baseline given");
  return out;
}
// Modes: "thread" (every thread evaluates the map) and "block" (once per block, shared).
inline std::vector<int> parse_modes(const std::vector<std::string>& args) {
  std::vector<int> out;
  for (const std::string& m : split_list(args, "--modes")) {
    int v = -1;
    if (m == "thread") v = 0;
    else if (m == "block") v = 1;
    else throw bad_input("--modes: unknown mode '" + m + "' (modes: thread, block)");
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  if (out.empty()) throw bad_input("--modes: no mode given");
  return out;
}

// Default sweeps (full / --quick).
inline std::vector<i64> default_Ns(const std::string& test, bool quick) {
  if (test == "dummy") return quick ? std::vector<i64>{256, 512, 1024, 2048} : std::vector<i64>{256, 512, 768, 1024, 1536, 2048, 3072, 4096};
  if (test == "threebody")
    return quick ? std::vector<i64>{256, 1024, 2048, 4096} : std::vector<i64>{256, 512, 1024, 1536, 2048, 3072, 4096};
  return quick ? std::vector<i64>{256, 512, 1024, 1536} : std::vector<i64>{256, 512, 768, 1024, 1536, 2048, 2560, 2944};
}

// eq. (17) with beta = tau: the bounding box's blocks over g(lambda)'s, n^3 / tet(n);
// its limit is 6 (eq. (18)).
inline double eq17_bound(i64 n) { return double(n) * double(n) * double(n) / double(tet(u64(n))); }

}  // namespace tdmaps::exp3d
