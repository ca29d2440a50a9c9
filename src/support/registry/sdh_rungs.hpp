// src/support/registry/sdh_rungs.hpp — THE LIST OF SDH RUNGS (issue #39): every GPU implementation of
// the SDH ladder, one line each of one constexpr table (sdh_rung_table), in the order every table, log
// and default list shows them. A rung's facts stand in its line: its kernel family (which kernel
// template runs it), its configuration (threads T, points per thread R, histogram mode HM, columns per
// group J), its rule (pinned, fused or Gram: derived from the family and Fused), whether it is a
// bracket kernel (family gram2: it replays ambiguous pairs), its dynamic schedule (Dyn) and whether
// `bench_sdh --quick` times it by default (quick). Everything else is derived from this table: the
// rung types (Rung<K>, the table's entry K, and their list sdh_rungs, in the table's order), the names
// (`impl_list`, `--impl` and its --help line, multi_hist's --impl choices and help: multi_hist_impls,
// multi_hist_impl_help; its default is multi_hist_default_rung, beside the table), the defaults of bench_sdh
// (all; --quick) and gpu_verify_sdh (every rung; the flush cases of every bracket rung), and in
// sdh_host.cuh the dispatch (`with_rung`: the rung type of an Impl), the kernels whose shared memory
// is raised (`prepare_kernels`), the launch parameters, the layouts uploaded and the launches, each by
// the rung's family. Adding a rung of an existing family is one line of the table (CONTRIBUTING.md
// "Add an SDH rung"; proven by verify/test_throwaway_family.sh, the test throwaway_family).
// Also the names of the CPU loops bench_sdh times beside the rungs (cpu_impls), and the lookups by an impl
// name that the results layer reads sdh.csv with (rule_of_name, seed_slot). Host-only: no CUDA here (the CPU
// program experiments/sdh/sdh_rungs.cpp prints the lists); in registry/, below the results layer, so that the
// results layer takes these facts from here (src/README.md's include order).
#pragma once
#include <registry/sdh_rule.hpp>

#include <cstddef>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
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

// ---- the families: a rung's family and configuration, as its entry below writes them -------------
struct RungConfig {
  Family family = Family::ladder;
  Ladder ladder = Ladder::none;
  int T = 0, R = 0, HM = hm_lane, J = 0;  // T threads a block (0: --threads-per-block), R points a thread
  bool Fused = false, Dyn = false;
};
constexpr RungConfig ladder_rung(Ladder l) { return {Family::ladder, l}; }
constexpr RungConfig fast_rung(int T, int R, int HM, bool Fused = false) {
  return {Family::fast, Ladder::none, T, R, HM, 0, Fused};
}
constexpr RungConfig gram_rung(int T, int R, int J) { return {Family::gram, Ladder::none, T, R, hm_lane, J}; }
constexpr RungConfig gram2_rung(int T, int R, int J, bool Dyn = false) {
  return {Family::gram2, Ladder::none, T, R, hm_lane, J, false, Dyn};
}
constexpr RungConfig band_rung(int T, int R) { return {Family::band, Ladder::none, T, R}; }

// One rung: its name (sdh.csv's impl, the --impl word), whether bench_sdh --quick times it, its family and
// configuration.
struct RungEntry {
  const char* name;
  bool quick;
  RungConfig config;
};

// ---- THE RUNGS: one line each, in display order (name, in the --quick default, family and configuration) ----
inline constexpr RungEntry sdh_rung_table[] = {
    {"v1-plain", false, ladder_rung(Ladder::v1)},
    {"v2-shared", false, ladder_rung(Ladder::v2)},
    {"v3-balanced", false, ladder_rung(Ladder::v3)},
    {"v4-soa", false, ladder_rung(Ladder::v4)},
    {"v5-tiled", false, ladder_rung(Ladder::v5)},
    {"tiled-bb", false, ladder_rung(Ladder::tiled_bb)},
    {"tiled-ltm-e", true, ladder_rung(Ladder::tiled_ltm_e)},
    {"fast-lane", true, fast_rung(256, 4, hm_lane)},
    {"fast-lane-r8", true, fast_rung(128, 8, hm_lane)},
    {"fast-thread", true, fast_rung(128, 8, hm_thread)},
    {"fast-block", false, fast_rung(256, 4, hm_block)},
    {"band-lane", true, band_rung(256, 4)},
    {"band-lane-r8", true, band_rung(128, 8)},
    // fast-fma*: the fused rule (apps/sdh_cpu.hpp dist2_fma)
    {"fast-fma", true, fast_rung(256, 4, hm_lane, true)},
    {"fast-fma-r8", true, fast_rung(128, 8, hm_lane, true)},
    // fast-gram (sdh_gram.cuh, k_gram): fast-lane's layout and walk, the Gram rule; J columns per loop iteration
    {"fast-gram", true, gram_rung(256, 4, 8)},
    // fast-gram2 (sdh_gram2.cuh, k_gram2): fast-gram with the bracket (6 instructions for the bucket instead of 7)
    {"fast-gram2", true, gram2_rung(256, 4, 8)},
    // fast-gram2-r2: the same kernel with 512 threads x 2 points (32 registers: 4 blocks, 64 warps an SM,
    // against 48) and groups of J = 16 columns (issue #26, experiments/sdh/README.md)
    {"fast-gram2-r2", true, gram2_rung(512, 2, 16)},
    // fast-gram2-dyn: fast-gram2-r2 with tile pairs handed out on demand (k_gram2's Dyn: a counter in
    // DeviceSet::work, zeroed before each launch), so that an SM keeps all its blocks to the end
    {"fast-gram2-dyn", true, gram2_rung(512, 2, 16, true)},
};
// multi_hist's --impl default (a tile-pair rung: tile_pair_family below): the fastest measured, H200 and H100
// (experiments/sdh/README.md, issue #26).
inline constexpr const char* multi_hist_default_rung = "fast-gram2-dyn";

// ---- the rung types, derived from the table: Rung<K> is entry K, its facts as constants (the kernels'
// template arguments); sdh_rungs lists them in the table's order ------------------------------------
template <std::size_t K>
struct Rung {
  static constexpr const char* name = sdh_rung_table[K].name;
  static constexpr bool quick = sdh_rung_table[K].quick;
  static constexpr Family family = sdh_rung_table[K].config.family;
  static constexpr Ladder ladder = sdh_rung_table[K].config.ladder;
  static constexpr int T = sdh_rung_table[K].config.T, R = sdh_rung_table[K].config.R;
  static constexpr int HM = sdh_rung_table[K].config.HM, J = sdh_rung_table[K].config.J;
  static constexpr bool Fused = sdh_rung_table[K].config.Fused, Dyn = sdh_rung_table[K].config.Dyn;
};
template <class... Rs> struct rung_list {};
template <std::size_t... K>
rung_list<Rung<K>...> rung_types(std::index_sequence<K...>);
using sdh_rungs = decltype(rung_types(std::make_index_sequence<std::size(sdh_rung_table)>{}));

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
// fast-*: the tile-pair kernels of the fast walk (k_fast, k_gram, k_gram2); band-* are tile-pair kernels too
constexpr bool fast_family(Family f) { return f == Family::fast || f == Family::gram || f == Family::gram2; }
// The rungs multi_hist runs (its --impl choices): the tile-pair kernels, fast-* and band-*.
constexpr bool tile_pair_family(Family f) { return fast_family(f) || f == Family::band; }
// multi_hist_default_rung names a tile-pair rung of the table (checked at compile time).
constexpr bool names_tile_pair_rung(const char* name) {
  for (const RungEntry& e : sdh_rung_table) {
    const char *a = e.name, *b = name;
    while (*a && *a == *b) ++a, ++b;
    if (*a == *b) return tile_pair_family(e.config.family);
  }
  return false;
}
static_assert(names_tile_pair_rung(multi_hist_default_rung), "multi_hist_default_rung: not a tile-pair rung of sdh_rung_table");
template <class C> constexpr tdmaps::sdh::Rule rule_v = C::family == Family::gram || C::family == Family::gram2
                                                            ? tdmaps::sdh::Rule::gram
                                                            : C::Fused ? tdmaps::sdh::Rule::fused : tdmaps::sdh::Rule::pinned;
template <class C> constexpr bool is_bracket_v = C::family == Family::gram2;
template <class C> constexpr bool is_fast_v = fast_family(C::family);
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
inline bool is_fast(Impl i) { return fast_family(info_of(i).family); }
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
// multi_hist's --impl choices: the tile-pair rungs (tile_pair_family), in the list's order.
inline std::vector<std::string> multi_hist_impls() {
  std::vector<std::string> v;
  for (const auto& i : impl_list())
    if (tile_pair_family(i.family)) v.push_back(i.name);
  return v;
}
// multi_hist's --impl help: those rungs, each run of one rule followed by its rule, and the default.
inline std::string multi_hist_impl_help() {
  std::string s = "sdh: the kernel, a tile-pair rung: ";
  std::vector<const ImplInfo*> v;
  for (const auto& i : impl_list())
    if (tile_pair_family(i.family)) v.push_back(&i);
  for (size_t k = 0; k < v.size(); ++k) {
    s += v[k]->name;
    if (k + 1 == v.size() || v[k + 1]->rule != v[k]->rule)
      s += std::string(" (") + (v[k]->rule == tdmaps::sdh::Rule::gram ? "Gram" : tdmaps::sdh::rule_name(v[k]->rule)) +
           " rule)" + (k + 1 == v.size() ? "" : "; ");
    else
      s += ", ";
  }
  return s + "; default " + multi_hist_default_rung + " (the fastest measured, H200 and H100)";
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
