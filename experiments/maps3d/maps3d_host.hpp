// experiments/maps3d/maps3d_host.hpp — host-side helpers of the tetrahedral GPU
// programs (bench_maps3d, gpu_verify_3d): command-line lists, the default sweeps,
// the paper's predicted factors. No CUDA here.
#pragma once
#include <tdmaps/layout3d.hpp>  // also map_3d.hpp, tet_fast.hpp

#include <bench/args.hpp>
#include <tdmaps/registry.hpp>
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace tdmaps::exp3d {

using bench::bad_input;
using bench::split_list;

// --N: items "A" and ranges "A:B:STEP" (the harness's grammar), 1 <= N <= 2^21.
inline std::vector<i64> parse_Ns(const std::vector<std::string>& args) {
  return bench::parse_ints(args, "--N", 1, i64(1) << 21);
}

// --rho: 1..10 (rho^3 <= 1024 threads per block).
inline std::vector<int> parse_rhos(const std::vector<std::string>& args) {
  return bench::parse_small_ints(args, "--rho", 1, 10);
}

// The 3D maps of the registry; bb3 is the baseline of every comparison.
inline std::vector<std::string> map3_names() {
  std::vector<std::string> v;
  for_each_map(maps3d{}, [&](auto m) { v.push_back(decltype(m)::name); });
  return v;
}
// Derived from the registry (maps3d and the maps' traits), never listed by hand:
// bench_maps3d's --maps default: the maps whose traits join experiment::dummy (maps3d_default).
inline std::vector<std::string> map3_default_names() {
  std::vector<std::string> v;
  for_each_map(maps3d_default{}, [&](auto m) { v.push_back(decltype(m)::name); });
  return v;
}
// A 3D map whose plan is exact wherever it plans: no root, or a corrected one (registry/traits.hpp root_facts).
template <class M> constexpr bool plan_always_exact3() {
  if constexpr (has_root<M>) return map_traits<M>::root.corrected;
  else return true;
}
// gpu_verify_3d's maps: every 3D map, those always exact checked at every size (exact_variants), the
// others (a float root without correction: tet-f) only where plan() accepts the size.
inline std::vector<std::string> map3_exact_names() {
  std::vector<std::string> v;
  for_each_map(maps3d{}, [&](auto m) { if (plan_always_exact3<decltype(m)>()) v.push_back(decltype(m)::name); });
  return v;
}
inline std::vector<std::string> map3_inexact_names() {
  std::vector<std::string> v;
  for_each_map(maps3d{}, [&](auto m) { if (!plan_always_exact3<decltype(m)>()) v.push_back(decltype(m)::name); });
  return v;
}
// gpu_verify_3d's exact-range sweeps on the device (tet_exact_range_gpu.csv), derived from the registry,
// never listed by hand: every TET<R> of maps3d (maps3d_gpu.cu's dispatch by name walks the same list),
//   the 64-bit path: its layer root over lambda < lim and its row root over lambda' < lim, or below the
//     root policy's row range (R::row_limit, where it declares one: tet-fast's 2^29);
//   the 32-bit path (lambda < lim32, the narrow plans' range; a row also below its range): the maps whose
//     plan is always exact (map3_exact_names, the same maps as the coverage checks);
// must_be_exact: the map's plan is always exact (plan_always_exact3); the others (tet-f, eq. (14) as
// published) are searched for their first wrong lambda. The notes: the map's traits' sweep_notes
// (registry/traits.hpp) where it gives one, else its `about` with the path.
struct TetExactJob {
  std::string root;
  bool layer;
  u64 end;
  bool must_be_exact;
  std::string note;
  bool narrow;
};
template <class R, class = void> struct root_row_limit { static constexpr u64 value = ~0ull; };
template <class R> struct root_row_limit<R, decltype(void(R::row_limit))> { static constexpr u64 value = R::row_limit; };
inline std::vector<TetExactJob> tet_exact_jobs(u64 lim, u64 lim32) {
  std::vector<TetExactJob> jobs;
  for (const bool narrow : {false, true})
    for_each_map(maps3d{}, [&](auto m) {
      using M = decltype(m);
      if constexpr (is_tet<M>::value) {
        constexpr bool exact = plan_always_exact3<M>();
        if (narrow && !exact) return;
        const u64 end = narrow ? lim32 : lim;
        const u64 row_end = std::min<u64>(end, root_row_limit<typename M::root_policy>::value);
        sweep_notes n = sweep_notes_of<M>();
        const std::string path = narrow ? "32-bit path: " : "64-bit path: ";
        const auto note = [&](const char* given) { return *given ? std::string(given) : path + map_traits<M>::about; };
        jobs.push_back({M::name, true, end, exact, note(narrow ? n.layer32 : n.layer64), narrow});
        jobs.push_back({M::name, false, row_end, exact, note(narrow ? n.row32 : n.row64), narrow});
      }
    });
  return jobs;
}
// bench_maps3d's --maps help: the maps besides the baseline, the defaults first.
inline std::string maps3_help() {
  std::vector<std::string> names = map3_default_names();
  for (const std::string& m : map3_names())
    if (m != "bb3" && std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
  std::string s = "maps besides the bb3 baseline: ", d;
  for (size_t k = 0; k < names.size(); ++k) s += (k ? ", " : "") + names[k];
  for (const std::string& m : map3_default_names()) d += (d.empty() ? "" : ",") + m;
  return s + " (default " + d + ")";
}
// --maps: the maps timed besides the bb3 baseline.
inline std::vector<std::string> parse_maps3(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  std::vector<std::string> d2;  // known to tdmaps, run by the 2D programs: told apart from an unknown name
  for_each_map(maps2d{}, [&](auto m) { d2.push_back(decltype(m)::name); });
  for (const std::string& m : bench::parse_available(args, "--maps", map3_names(), d2, "this 3D experiment (a 2D map: bench_maps runs it)"))
    if (m != "bb3") out.push_back(m);
  if (out.empty()) throw bad_input("--maps: no map besides the bb3 baseline given");
  return out;
}
// Modes: "thread" (every thread evaluates the map) and "block" (once per block, shared).
inline std::vector<int> parse_modes(const std::vector<std::string>& args) {
  std::vector<int> out;
  const auto add = [&](int v) {
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  for (const std::string& m : bench::parse_names(args, "--modes", {"thread", "block", "both"})) {
    if (m != "block") add(0);
    if (m != "thread") add(1);
  }
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
