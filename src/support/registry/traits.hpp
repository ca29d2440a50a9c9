// registry/traits.hpp — what the experiments, the figures and the checks know of a map besides
// its arithmetic (not installed: the installed library, src/lib/tdmaps/, holds the maps alone).
// Each map has one entry, a map_traits<M> specialization, in the experiments table
// (registry/experiments.hpp), which derives the experiments' lists of maps from them; a new map
// is its header, its line in tdmaps/registry.hpp and its entry there (CONTRIBUTING.md).
// Host-only constants: no kernel reads them.
#pragma once

namespace tdmaps {

// The experiments a map joins by default (a bit set). A 2D map uses all of these bits; a 3D map only
// `dummy`, which puts it in bench_maps3d's --maps default (registry/experiments.hpp maps3d_default; the bb3
// baseline is always timed); any 3D map of the registry can still be named in every bench_maps3d --test.
namespace experiment {
enum : unsigned {
  none = 0,
  dummy = 1u << 0,         // bench_maps --test dummy (a 3D map: bench_maps3d) times it by default
  sqrt = 1u << 1,          // bench_maps --test sqrt (the square-root study) times it by default
  apps = 1u << 2,          // EDM and collision kernels are compiled for it (experiments/apps2d)
  apps_default = 1u << 3,  // ... and bench_apps times it by default
  fast = 1u << 4,          // a tiled fast EDM kernel "<name>-fast" is compiled for it (blockwise)
  fast_default = 1u << 5,  // ... and bench_apps times that one by default
};
}  // namespace experiment

// How the figures draw a map: a colour, a gnuplot point type and dash type (its "-fast" EDM
// variant: the same colour, dashed, open points).
struct look {
  const char* color;
  int point;
  int dash = 1;
};

// A map whose index arithmetic takes a root (a float square or cube root, or an estimate and its
// integer correction) declares how its exact range is found and checked. The limits themselves
// stay beside the policy, one truth each: M::exact_blocks (block maps) or M::max_N (UTM), and
// the fma limits of namespace limits (the installed map headers); these facts say which searches prove
// them. From them the registry derives the CPU oracle's exact-range table
// (verify/exact_table.cpp), its checks of every constant (verify/test_exact.cpp), the GPU sweep
// (experiments/maps2d/gpu_exact_range.cu) and the synthetic exact_range_gpu.csv
// (figures/synth_results.cpp).
enum class root_kind {
  row,     // a 2D block map's g(lambda): M::sqrt_policy::row<U, R>(lambda) -> block row (LTM)
  layer,   // a 3D block map's layer: M::root_policy::layer<U, R>(lambda) -> z (TET)
  thread,  // a thread map's row of thread k: M::map_thread<Index, R>(N, k) (UTM); its limit is M::max_N
};
// Named fields, set by name: root_facts{root_kind::row}.with_monotone(true).with_fma(true)...
// (each with_<field>(v) returns a copy with that field set; a field not named keeps its default).
struct root_facts {
  root_kind kind;
  // An estimate within one and an integer correction (ltm-e, tet-e): exact over its whole range
  // (M::exact_blocks, proven by verify/test_index_paths.cpp), the reference the GPU sweeps
  // compare the float maps with; no float limit to search for.
  bool corrected = false;
  // The host reproduces the device's root bit for bit (false: the device's approximate rsqrtf or
  // cbrtf; the CPU table names its host emulation "<name>-host").
  bool host_repro = true;
  // The CPU oracle proves the map's constant both ways (exact below, wrong at it); false: the GPU
  // sweep is its source (ltm-r).
  bool cpu_limit = true;
  // The root is non-decreasing in its index: a row is proven from its two ends
  // (verify/range_proofs.hpp); false: searched exhaustively (every index up to the first wrong).
  bool monotone = false;
  // Products nvcc's default -fmad=true contracts (numbers.hpp Fused: the papers' binaries): the
  // tables and checks add a rounding-fma row; its limit (a limits:: constant, -1: measured on
  // the GPU only).
  bool fma = false;
  long long fma_limit = -1;
  // The CPU table's note, pinned and fma (verify/results/exact_ranges_cpu.csv).
  const char* note = "";
  const char* fma_note = "";

  constexpr root_facts with_corrected(bool v) const { root_facts r = *this; r.corrected = v; return r; }
  constexpr root_facts with_host_repro(bool v) const { root_facts r = *this; r.host_repro = v; return r; }
  constexpr root_facts with_cpu_limit(bool v) const { root_facts r = *this; r.cpu_limit = v; return r; }
  constexpr root_facts with_monotone(bool v) const { root_facts r = *this; r.monotone = v; return r; }
  constexpr root_facts with_fma(bool v) const { root_facts r = *this; r.fma = v; return r; }
  constexpr root_facts with_fma_limit(long long v) const { root_facts r = *this; r.fma_limit = v; return r; }
  constexpr root_facts with_note(const char* v) const { root_facts r = *this; r.note = v; return r; }
  constexpr root_facts with_fma_note(const char* v) const { root_facts r = *this; r.fma_note = v; return r; }
};

// A 3D block map's notes in gpu_verify_3d's exact-range table (tet_exact_range_gpu.csv), per part (layer,
// row) and path (64-bit, 32-bit): free text, optional (a note left empty, or no sweep_notes at all, is
// written from the map's `about`); which sweeps run is derived (experiments/maps3d/maps3d_host.hpp
// tet_exact_jobs), not listed here.
struct sweep_notes {
  const char* layer64 = "";
  const char* row64 = "";
  const char* layer32 = "";
  const char* row32 = "";
};

// A map without a root whose exact range is not simply every N (README's map table, its CPU-oracle column): a table
// of so many entries (ltm-lut), a block count (λ below it: tet-fast), or the N it admits (rec: N = m·2^k); `constant`
// names the limits:: constant. Optional: a map that declares none has every N, by integer arithmetic.
enum class range_kind { every_N, valid_N, table_entries, blocks };
struct range_limit {
  range_kind kind = range_kind::every_N;
  double limit = 0;           // table_entries, blocks: the count
  const char* constant = "";  // its name, `limits::...`
};

// The papers' strategy a map is of: the bounding box or cube (bb: the reference every I is taken against, and its
// variants), LTM, UTM, RB, REC or the tetrahedral maps; `other` for a map of none. The readers of the results ask a
// name's family (registry/map_names.hpp map_named) instead of testing its prefix. Optional: a map that declares
// none is `other`.
enum class map_family { other, bb, ltm, utm, rb, rec, tet };
// A family's word, the one place it is spelled (the claim rules' texts name a family by it: paper/claims/rules.hpp Which).
constexpr const char* family_name(map_family f) {
  switch (f) {
    case map_family::bb: return "bb";
    case map_family::ltm: return "ltm";
    case map_family::utm: return "utm";
    case map_family::rb: return "rb";
    case map_family::rec: return "rec";
    case map_family::tet: return "tet";
    case map_family::other: break;
  }
  return "other";
}

// Specialized for every map in the experiments table (registry/experiments.hpp):
//   static constexpr unsigned joins;     the experiments it joins (experiment::...)
//   static constexpr look style;         its figure style
//   static constexpr const char* about;  one line: what it is (README's map table)
//   static constexpr root_facts root;    only a map with a root (above)
//   static constexpr sweep_notes sweep;  optional, a 3D block map: its notes in gpu_verify_3d's table (above)
//   static constexpr range_limit range;  optional, a map without a root: its exact range (above)
//   static constexpr map_family family;  optional: the papers' strategy it is of (above; default other)
template <class M>
struct map_traits;

// Whether M's traits declare a root.
template <class M, class = void> struct has_root_facts { static constexpr bool value = false; };
template <class M> struct has_root_facts<M, decltype(void(map_traits<M>::root))> { static constexpr bool value = true; };
template <class M> constexpr bool has_root = has_root_facts<M>::value;

// M's traits' sweep_notes (static constexpr sweep_notes sweep), else none (every note from `about`).
template <class M, class = void> struct sweep_notes_for { static constexpr sweep_notes value{}; };
template <class M> struct sweep_notes_for<M, decltype(void(map_traits<M>::sweep))> {
  static constexpr sweep_notes value = map_traits<M>::sweep;
};
template <class M> constexpr sweep_notes sweep_notes_of() { return sweep_notes_for<M>::value; }

// M's traits' range_limit (static constexpr range_limit range), else every N.
template <class M, class = void> struct range_limit_for { static constexpr range_limit value{}; };
template <class M> struct range_limit_for<M, decltype(void(map_traits<M>::range))> {
  static constexpr range_limit value = map_traits<M>::range;
};
template <class M> constexpr range_limit range_limit_of() { return range_limit_for<M>::value; }

// M's traits' family (static constexpr map_family family), else other.
template <class M, class = void> struct map_family_for { static constexpr map_family value = map_family::other; };
template <class M> struct map_family_for<M, decltype(void(map_traits<M>::family))> {
  static constexpr map_family value = map_traits<M>::family;
};
template <class M> constexpr map_family family_of() { return map_family_for<M>::value; }

}  // namespace tdmaps
