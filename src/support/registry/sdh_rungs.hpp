// src/support/registry/sdh_rungs.hpp — THE LIST OF SDH RUNGS (issue #39): every GPU implementation of
// the SDH ladder, one entry each, in the order every table, log and default list shows them. A
// rung's facts stand in its entry: its kernel family (which kernel template runs it), its
// configuration (threads T, points per thread R, histogram mode HM, columns per group J), its
// rule (pinned, fused or Gram: derived from the family and Fused), whether it is a bracket
// kernel (family gram2: it replays ambiguous pairs), its dynamic schedule (Dyn) and whether
// `bench_sdh --quick` times it by default (quick). Everything else is derived from this list:
// the names (`impl_list`, `--impl` and its --help line, multi_hist's --impl choices), the
// defaults of bench_sdh (all; --quick) and gpu_verify_sdh (every rung; the flush cases of every
// bracket rung), and in sdh_host.cuh the dispatch (`with_rung`: the rung type of an Impl), the
// kernels whose shared memory is raised (`prepare_kernels`), the launch parameters, the layouts
// uploaded and the launches, each by the rung's family. Adding a rung of an existing family is
// one entry here (CONTRIBUTING.md "Add an SDH rung"; proven by verify/test_throwaway_family.sh, the test throwaway_family).
// Also the names of the CPU loops bench_sdh times beside the rungs (cpu_impls), and the lookups by an impl
// name that the results layer reads sdh.csv with (rule_of_name, seed_slot). Host-only: no CUDA here (the CPU
// program experiments/sdh/sdh_rungs.cpp prints the lists); in registry/, below the results layer, so that the
// results layer takes these facts from here (src/README.md's include order).
#pragma once
#include <registry/sdh_rule.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tdmaps::gpu::sdh {

// The fast kernels' histogram modes (sdh_fast.cuh FastLayout, k_fast).
enum HistMode : int { hm_lane = 0, hm_thread = 1, hm_block = 2 };

// Which kernel template a rung runs.
enum class Family : int {
  ladder,  // one of the seed report's kernels (sdh_ladder.cuh, sdh_tiled.cuh): its own launch, `ladder` below
  fast,    // k_fast<T, R, HM, Clamp, Fused> (sdh_fast.cuh)
  gram,    // k_gram<T, R, Clamp, J> (sdh_gram.cuh): the Gram rule
  gram2,   // k_gram2<T, R, Clamp, J, Dyn> (sdh_gram2.cuh): the Gram rule with the bracket (replays)
  band,    // k_band<T, R, Clamp> (sdh_band.cuh)
};
// The ladder rungs' kernels (Family::ladder), each launched by its own case of sdh_host.cuh launch().
enum class Ladder : int { none, v1, v2, v3, v4, v5, tiled_bb, tiled_ltm_e };

// ---- the families' entries: a rung derives from one and adds its name and quick flag -------------
template <Ladder L>
struct LadderRung {
  static constexpr Family family = Family::ladder;
  static constexpr Ladder ladder = L;
  static constexpr int T = 0, R = 0, HM = hm_lane, J = 0;  // T = 0: --threads-per-block
  static constexpr bool Fused = false, Dyn = false;
};
template <Family F, int T_, int R_, int HM_ = hm_lane, bool Fused_ = false, int J_ = 0, bool Dyn_ = false>
struct TileRung {
  static constexpr Family family = F;
  static constexpr Ladder ladder = Ladder::none;
  static constexpr int T = T_, R = R_, HM = HM_, J = J_;  // T threads a block (fixed), R points a thread
  static constexpr bool Fused = Fused_, Dyn = Dyn_;
};
template <int T, int R, int HM, bool Fused = false> using FastRung = TileRung<Family::fast, T, R, HM, Fused>;
template <int T, int R, int J> using GramRung = TileRung<Family::gram, T, R, hm_lane, false, J>;
template <int T, int R, int J, bool Dyn = false> using Gram2Rung = TileRung<Family::gram2, T, R, hm_lane, false, J, Dyn>;
template <int T, int R> using BandRung = TileRung<Family::band, T, R>;

#define TD_SDH_RUNG(Type, Name, Quick, ...)           \
  struct Type : __VA_ARGS__ {                         \
    static constexpr const char* name = Name;         \
    static constexpr bool quick = Quick;              \
  }

// ---- THE RUNGS: one entry each (type, name, in the --quick default, family and configuration) --------
TD_SDH_RUNG(V1Plain, "v1-plain", false, LadderRung<Ladder::v1>);
TD_SDH_RUNG(V2Shared, "v2-shared", false, LadderRung<Ladder::v2>);
TD_SDH_RUNG(V3Balanced, "v3-balanced", false, LadderRung<Ladder::v3>);
TD_SDH_RUNG(V4Soa, "v4-soa", false, LadderRung<Ladder::v4>);
TD_SDH_RUNG(V5Tiled, "v5-tiled", false, LadderRung<Ladder::v5>);
TD_SDH_RUNG(TiledBB, "tiled-bb", false, LadderRung<Ladder::tiled_bb>);
TD_SDH_RUNG(TiledLtmE, "tiled-ltm-e", true, LadderRung<Ladder::tiled_ltm_e>);
TD_SDH_RUNG(FastLane, "fast-lane", true, FastRung<256, 4, hm_lane>);
TD_SDH_RUNG(FastLaneR8, "fast-lane-r8", true, FastRung<128, 8, hm_lane>);
TD_SDH_RUNG(FastThread, "fast-thread", true, FastRung<128, 8, hm_thread>);
TD_SDH_RUNG(FastBlock, "fast-block", false, FastRung<256, 4, hm_block>);
TD_SDH_RUNG(BandLane, "band-lane", true, BandRung<256, 4>);
TD_SDH_RUNG(BandLaneR8, "band-lane-r8", true, BandRung<128, 8>);
// fast-fma*: the fused rule (apps/sdh_cpu.hpp dist2_fma)
TD_SDH_RUNG(FastFma, "fast-fma", true, FastRung<256, 4, hm_lane, true>);
TD_SDH_RUNG(FastFmaR8, "fast-fma-r8", true, FastRung<128, 8, hm_lane, true>);
// fast-gram (sdh_gram.cuh, k_gram): fast-lane's layout and walk, the Gram rule; J columns per loop iteration
TD_SDH_RUNG(FastGram, "fast-gram", true, GramRung<256, 4, 8>);
// fast-gram2 (sdh_gram2.cuh, k_gram2): fast-gram with the bracket (6 instructions for the bucket instead of 7)
TD_SDH_RUNG(FastGram2, "fast-gram2", true, Gram2Rung<256, 4, 8>);
// fast-gram2-r2: the same kernel with 512 threads x 2 points (32 registers: 4 blocks, 64 warps an SM,
// against 48) and groups of J = 16 columns (issue #26, experiments/sdh/README.md)
TD_SDH_RUNG(FastGram2R2, "fast-gram2-r2", true, Gram2Rung<512, 2, 16>);
// fast-gram2-dyn: fast-gram2-r2 with tile pairs handed out on demand (k_gram2's Dyn: a counter in
// DeviceSet::work, zeroed before each launch), so that an SM keeps all its blocks to the end
TD_SDH_RUNG(FastGram2Dyn, "fast-gram2-dyn", true, Gram2Rung<512, 2, 16, true>);
#undef TD_SDH_RUNG

template <class... Rs> struct rung_list {};
using sdh_rungs = rung_list<
    V1Plain,
    V2Shared,
    V3Balanced,
    V4Soa,
    V5Tiled,
    TiledBB,
    TiledLtmE,
    FastLane,
    FastLaneR8,
    FastThread,
    FastBlock,
    BandLane,
    BandLaneR8,
    FastFma,
    FastFmaR8,
    FastGram,
    FastGram2,
    FastGram2R2,
    FastGram2Dyn>;

// ---- the CPU loops bench_sdh times beside the rungs (apps/sdh_cpu.hpp cpu_st, cpu_mt; the pinned rule) --------
// name: sdh.csv's impl column and bench_sdh's --impl word; slot: the seed report's version (seed_slot below).
struct CpuImpl {
  const char* name;
  const char* slot;
};
inline constexpr CpuImpl cpu_st_impl{"cpu-st", "cpu"};     // one thread (the seed report's CPU)
inline constexpr CpuImpl cpu_mt_impl{"cpu-mt", "cpu-mt"};  // every core
inline constexpr CpuImpl cpu_impls[] = {cpu_st_impl, cpu_mt_impl};

// The seed report's version of a ladder rung (004: V1..V5; paper/reported.csv's marks sdh_ladder:v1..v5, the
// figures' series); "" for the ladder's rungs it has not (tiled-*) and for every other family.
constexpr const char* seed_version(Ladder l) {
  switch (l) {
    case Ladder::v1: return "v1";
    case Ladder::v2: return "v2";
    case Ladder::v3: return "v3";
    case Ladder::v4: return "v4";
    case Ladder::v5: return "v5";
    default: return "";
  }
}

// ---- derived facts of a rung type ----------------------------------------------------------------
template <class C> constexpr tdmaps::sdh::Rule rule_v = C::family == Family::gram || C::family == Family::gram2
                                                            ? tdmaps::sdh::Rule::gram
                                                            : C::Fused ? tdmaps::sdh::Rule::fused : tdmaps::sdh::Rule::pinned;
template <class C> constexpr bool is_bracket_v = C::family == Family::gram2;
// fast-*: the tile-pair kernels of the fast walk (k_fast, k_gram, k_gram2); band-* are tile-pair kernels too
template <class C> constexpr bool is_fast_v = C::family == Family::fast || C::family == Family::gram || C::family == Family::gram2;
template <class C> constexpr bool is_band_v = C::family == Family::band;

// ---- an implementation chosen at run time: its index in sdh_rungs ---------------------------------
enum class Impl : int {};

template <class F, class... Rs>
bool with_rung_in(rung_list<Rs...>, Impl i, F&& f) {
  int k = 0;
  bool found = false;
  auto one = [&](auto r) {
    if (!found && k++ == int(i)) { found = true; f(r); }
  };
  (one(Rs{}), ...);
  return found;
}
// Calls f(R{}) for the rung type R of implementation i (every rung is one instantiation of f).
template <class F>
void with_rung(Impl i, F&& f) {
  if (!with_rung_in(sdh_rungs{}, i, f)) throw std::logic_error("with_rung: no SDH rung " + std::to_string(int(i)));
}
template <class F, class... Rs>
void for_each_rung(rung_list<Rs...>, F&& f) { (f(Rs{}), ...); }
template <class F>
void for_each_rung(F&& f) { for_each_rung(sdh_rungs{}, f); }

struct ImplInfo {
  Impl id;
  const char* name;
  int fixed_threads;  // 0: uses the --threads-per-block value
  Family family;
  Ladder ladder;
  tdmaps::sdh::Rule rule;
  bool bracket, dyn, quick;
};
inline const std::vector<ImplInfo>& impl_list() {
  static const std::vector<ImplInfo> v = [] {
    std::vector<ImplInfo> r;
    for_each_rung([&](auto c) {
      using C = decltype(c);
      r.push_back({Impl(int(r.size())), C::name, C::T, C::family, C::ladder, rule_v<C>, is_bracket_v<C>, C::Dyn, C::quick});
    });
    return r;
  }();
  return v;
}
inline const ImplInfo& info_of(Impl i) { return impl_list().at(size_t(int(i))); }
inline const char* impl_name(Impl id) { return int(id) >= 0 && size_t(int(id)) < impl_list().size() ? info_of(id).name : "?"; }
inline const ImplInfo* find_impl(const std::string& name) {
  for (const auto& i : impl_list())
    if (name == i.name) return &i;
  return nullptr;
}
inline bool is_fast(Impl i) {
  const Family f = info_of(i).family;
  return f == Family::fast || f == Family::gram || f == Family::gram2;
}
inline bool is_band(Impl i) { return info_of(i).family == Family::band; }
// The bracket kernels (k_gram2), which replay ambiguous pairs (DeviceSet::ambig).
inline bool is_bracket(Impl i) { return info_of(i).bracket; }
// The rule whose histogram implementation i computes (a histogram is checked only against one of its rule).
inline tdmaps::sdh::Rule rule_of(Impl i) { return info_of(i).rule; }
inline int threads_of(Impl i, int tpb) { return info_of(i).fixed_threads ? info_of(i).fixed_threads : tpb; }

// ---- the lists the programs take (derived) ----------------------------------------------------------
// Every rung of a kind, in the list's order.
inline std::vector<Impl> bracket_impls() {
  std::vector<Impl> v;
  for (const auto& i : impl_list())
    if (i.bracket) v.push_back(i.id);
  return v;
}
// bench_sdh --quick's --impl default: the CPU loops and every rung marked quick.
inline std::string quick_impls_csv() {
  std::string s;
  for (const CpuImpl& c : cpu_impls) s += (s.empty() ? "" : ",") + std::string(c.name);
  for (const auto& i : impl_list())
    if (i.quick) s += std::string(",") + i.name;
  return s;
}
// The names of the rungs for which keep(ImplInfo) holds, comma-separated, in the list's order (bench_sdh's
// metadata and help: the rungs of a rule, those that take --threads-per-block).
template <class P>
std::string rung_names(P keep) {
  std::string s;
  for (const auto& i : impl_list())
    if (keep(i)) s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}
// bench_sdh's --impl help: every name, each run of rungs of a rule other than pinned followed by its rule.
inline std::string impl_help() {
  std::string s = "implementations, comma list: " + std::string(cpu_st_impl.name) + ", " + cpu_mt_impl.name;
  const auto& v = impl_list();
  for (size_t k = 0; k < v.size(); ++k) {
    s += std::string(", ") + v[k].name;
    if (v[k].rule != tdmaps::sdh::Rule::pinned && (k + 1 == v.size() || v[k + 1].rule != v[k].rule))
      s += v[k].rule == tdmaps::sdh::Rule::gram ? " (the Gram rule)" : " (the fused rule)";
  }
  return s + "; or all (default)";
}
// ---- by an impl name of sdh.csv (the results layer's lookups) -----------------------------------------------
// The rule of implementation `impl`: a rung's, the CPU loops' pinned one; none for another name.
inline std::optional<tdmaps::sdh::Rule> rule_of_name(const std::string& impl) {
  for (const CpuImpl& c : cpu_impls)
    if (impl == c.name) return tdmaps::sdh::Rule::pinned;
  if (const ImplInfo* i = find_impl(impl)) return i->rule;
  return std::nullopt;
}
// The seed report's slot of implementation `impl`: "cpu" (cpu-st), "cpu-mt", "v1".."v5" (the ladder rungs
// v1-plain..v5-tiled); "" for every other name (tiled-*, fast-*, band-*, the peers).
inline const char* seed_slot(const std::string& impl) {
  for (const CpuImpl& c : cpu_impls)
    if (impl == c.name) return c.slot;
  const ImplInfo* i = find_impl(impl);
  return i ? seed_version(i->ladder) : "";
}
// Whether implementation `impl` is one of the seed report's GPU versions (V1..V5: a ladder rung of seed_version).
inline bool is_seed_version(const std::string& impl) {
  const ImplInfo* i = find_impl(impl);
  return i && *seed_version(i->ladder) != '\0';
}
// The seed report's slots in its order: the CPU loops' (cpu, cpu-mt), then V1..V5 in the rungs' order.
inline std::vector<std::string> seed_slots() {
  std::vector<std::string> v;
  for (const CpuImpl& c : cpu_impls) v.push_back(c.slot);
  for (const ImplInfo& i : impl_list())
    if (*seed_version(i.ladder) != '\0') v.push_back(seed_version(i.ladder));
  return v;
}

inline const char* family_name(Family f) {
  switch (f) {
    case Family::ladder: return "ladder";
    case Family::fast: return "fast";
    case Family::gram: return "gram";
    case Family::gram2: return "gram2";
    case Family::band: return "band";
  }
  return "?";
}

}  // namespace tdmaps::gpu::sdh
