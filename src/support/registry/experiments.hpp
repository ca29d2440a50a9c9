// registry/experiments.hpp — THE EXPERIMENTS TABLE: what the experiments, the figures, README's
// generated tables and the exact-range checks know of each map of the registry
// (tdmaps/registry.hpp's maps2d and maps3d) besides its arithmetic: one map_traits<M> entry per
// map (registry/traits.hpp: the experiments it joins, its figure style, one line of what it is,
// and for a map with a root how its exact range is proven), and the lists derived from them.
// Not installed: the installed headers (src/lib/tdmaps/) hold the maps alone; their exact-range
// constants (M::exact_blocks, M::max_N, namespace limits) stay beside each policy there.
#pragma once
#include <tdmaps/registry.hpp>
#include "registry/traits.hpp"

namespace tdmaps {

// ---- the table: one entry per map of the registry (grouped by the installed header that holds
// its policy). A map of maps2d or maps3d without an entry here does not compile where its traits
// are read (the experiments, the figures, experiments/maps2d_lists).
// (map_bb.hpp)
template <>
struct map_traits<BB> {
  static constexpr unsigned joins = experiment::dummy | experiment::sqrt | experiment::apps | experiment::apps_default | experiment::fast | experiment::fast_default;
  static constexpr look style{"#000000", 7};
  static constexpr const char* about = "bounding box";
  static constexpr map_family family = map_family::bb;
};
// (map_variants.hpp)
template <>
struct map_traits<BB_T> {
  static constexpr unsigned joins = experiment::dummy;
  static constexpr look style{"#636363", 6};
  static constexpr const char* about = "BB filtering by thread (000 §IV-B: no block test, every thread tests j ≤ i)";
  static constexpr map_family family = map_family::bb;
};
template <>
struct map_traits<RB_B> {
  static constexpr unsigned joins = experiment::dummy | experiment::apps | experiment::apps_default;
  static constexpr look style{"#98df8a", 4};
  static constexpr const char* about = "RB's fold applied to whole blocks, so it runs the shared-memory kernels";
  static constexpr map_family family = map_family::rb;
};
template <>
struct map_traits<LTM_R_SQ> {
  // the dummy kernel, the square-root study (sqrt.csv), the EDM and collision kernels (edm.csv,
  // collision.csv): the grid both papers launch, where a verdict needs it (issue #35)
  static constexpr unsigned joins = experiment::dummy | experiment::sqrt | experiment::apps | experiment::apps_default;
  static constexpr look style{"#ff9896", 8};
  static constexpr const char* about = "`ltm-r` on the papers' balanced n'×n' grid (n' = ⌈√(n(n+1)/2)⌉)";
  static constexpr map_family family = map_family::ltm;
};
template <>
struct map_traits<LTM_E_SQ> {
  static constexpr unsigned joins = experiment::dummy | experiment::sqrt | experiment::apps | experiment::apps_default;
  static constexpr look style{"#ffbb78", 12};
  static constexpr const char* about = "`ltm-e` on the papers' n'×n' grid";
  static constexpr map_family family = map_family::ltm;
};
// the other roots of the square-root study (000 §IV-A, Fig. 3) on the papers' grid: sqrt.csv only
template <>
struct map_traits<LTM_X_SQ> {
  static constexpr unsigned joins = experiment::sqrt;
  static constexpr look style{"#aec7e8", 10};
  static constexpr const char* about = "`ltm-x` on the papers' n'×n' grid";
  static constexpr map_family family = map_family::ltm;
};
template <>
struct map_traits<LTM_N_SQ> {
  static constexpr unsigned joins = experiment::sqrt;
  static constexpr look style{"#9edae5", 14};
  static constexpr const char* about = "`ltm-n` on the papers' n'×n' grid";
  static constexpr map_family family = map_family::ltm;
};
template <>
struct map_traits<LTM_D_SQ> {
  static constexpr unsigned joins = experiment::sqrt;
  static constexpr look style{"#c5b0d5", 15};
  static constexpr const char* about = "`ltm-d` on the papers' n'×n' grid";
  static constexpr map_family family = map_family::ltm;
};
// (map_ltm.hpp)
template <>
struct map_traits<LTM_X> {
  static constexpr unsigned joins = experiment::sqrt;
  static constexpr look style{"#1f77b4", 5};
  static constexpr const char* about = "g(λ), `sqrtf`";
  static constexpr map_family family = map_family::ltm;
  static constexpr root_facts root = root_facts{root_kind::row}
      .with_monotone(true)
      .with_fma(true)
      .with_fma_limit((long long)limits::ltm_x_fma_blocks)
      .with_note("sqrtf correctly rounded; no eps")
      .with_fma_note("sqrtf correctly rounded; no eps; 2 lambda + 1/4 as one FMA (exact either way)");
};
template <>
struct map_traits<LTM_N> {
  static constexpr unsigned joins = experiment::sqrt;
  static constexpr look style{"#17becf", 9};
  static constexpr const char* about = "g(λ), 3 Newton steps from `0x5f3759df` + ε";
  static constexpr map_family family = map_family::ltm;
  static constexpr root_facts root = root_facts{root_kind::row}
      .with_fma(true)
      .with_fma_limit((long long)limits::ltm_n_fma_blocks)
      .with_note("3 Newton steps from 0x5f3759df + 1e-4; no FMA")
      .with_fma_note("3 Newton steps from 0x5f3759df + 1e-4; each step's 1.5 - xhalf*y*y and x*y + eps as FMAs");
};
template <>
struct map_traits<LTM_R> {
  static constexpr unsigned joins = experiment::dummy | experiment::sqrt | experiment::apps | experiment::apps_default | experiment::fast;
  static constexpr look style{"#d62728", 7};
  static constexpr const char* about = "g(λ), `x·rsqrtf(x) + ε`";
  static constexpr map_family family = map_family::ltm;
  // the device's rsqrtf: its limits (pinned and fma) come from the GPU sweep
  static constexpr root_facts root = root_facts{root_kind::row}
      .with_host_repro(false)
      .with_cpu_limit(false)
      .with_fma(true)
      .with_note("host emulation (correctly rounded 1/sqrt); the device rsqrtf differs: see the GPU table")
      .with_fma_note("host emulation (correctly rounded 1/sqrt); x*rsqrt(x) + eps as one FMA; the device rsqrtf differs: see the GPU table");
};
template <>
struct map_traits<LTM_D> {
  static constexpr unsigned joins = experiment::sqrt;
  static constexpr look style{"#9467bd", 11};
  static constexpr const char* about = "g(λ), fp64 `sqrt` (as CUTLASS / PyTorch pdist do)";
  static constexpr map_family family = map_family::ltm;
  static constexpr root_facts root = root_facts{root_kind::row}
      .with_monotone(true)
      .with_note("fp64 sqrt");
};
template <>
struct map_traits<LTM_E> {
  static constexpr unsigned joins = experiment::dummy | experiment::sqrt | experiment::apps | experiment::apps_default | experiment::fast | experiment::fast_default;
  static constexpr look style{"#ff7f0e", 13};
  static constexpr const char* about = "g(λ), estimate within one + one compare-and-step each way";
  static constexpr map_family family = map_family::ltm;
  static constexpr root_facts root = root_facts{root_kind::row}
      .with_corrected(true)
      .with_monotone(true)
      .with_note("float estimate + integer correction");
};
// (map_ltm_lut.hpp)
template <>
struct map_traits<LTM_LUT> {
  static constexpr unsigned joins = experiment::dummy;
  static constexpr look style{"#bcbd22", 10};
  static constexpr const char* about = "g(λ) from a table in device memory (001 §III-A: one packed (i, j) per λ)";
  static constexpr map_family family = map_family::ltm;
  static constexpr range_limit range{range_kind::table_entries, double(limits::ltm_lut_max_entries),
                                     "limits::ltm_lut_max_entries"};
};
// (map_rb.hpp)
template <>
struct map_traits<RB> {
  static constexpr unsigned joins = experiment::dummy | experiment::apps | experiment::apps_default;
  static constexpr look style{"#2ca02c", 5};
  static constexpr const char* about = "rectangular box";
  static constexpr map_family family = map_family::rb;
};
// (map_rec.hpp)
template <>
struct map_traits<REC> {
  static constexpr unsigned joins = experiment::dummy | experiment::apps | experiment::apps_default;
  static constexpr look style{"#8c564b", 9};
  static constexpr const char* about = "recursive partition, `N = m·2^k`";
  static constexpr map_family family = map_family::rec;
  static constexpr range_limit range{range_kind::valid_N};
};
// (map_utm.hpp)
template <>
struct map_traits<UTM_X> {
  static constexpr unsigned joins = experiment::apps;
  static constexpr look style{"#e377c2", 11};
  static constexpr const char* about = "Avril's map, `sqrtf`";
  static constexpr map_family family = map_family::utm;
  static constexpr root_facts root = root_facts{root_kind::thread}
      .with_monotone(true)
      .with_fma(true)
      .with_fma_limit(limits::utm_x_fma_max_N)
      .with_note("first_wrong is the first N; any rho")
      .with_fma_note("first_wrong is the first N; any rho; (4n)n - 4n as one FMA");
};
template <>
struct map_traits<UTM_N> {
  static constexpr unsigned joins = experiment::dummy | experiment::apps | experiment::apps_default;
  static constexpr look style{"#7f7f7f", 13};
  static constexpr const char* about = "Avril's map, fast sqrt + 2 repairs";
  static constexpr map_family family = map_family::utm;
  static constexpr root_facts root = root_facts{root_kind::thread}
      .with_fma(true)
      .with_fma_limit(limits::utm_n_fma_max_N)
      .with_note("first_wrong is the first N; any rho")
      .with_fma_note("first_wrong is the first N; any rho; (4n)n - 4n and the Newton steps and x*y - (2n+1) as FMAs");
};
// (map_3d.hpp)
template <>
struct map_traits<BB3> {
  static constexpr unsigned joins = experiment::none;
  static constexpr look style{"#000000", 7};
  static constexpr const char* about = "bounding cube";
  static constexpr map_family family = map_family::bb;
};
template <>
struct map_traits<TET_F> {
  static constexpr unsigned joins = experiment::none;
  static constexpr look style{"#1f77b4", 5};
  static constexpr const char* about = "g(λ) of eq. (16), float cube root of eq. (14)";
  static constexpr map_family family = map_family::tet;
  // the host's cbrtf gives the constant (limits::tet_f_blocks, both roundings); the device's differs
  static constexpr root_facts root = root_facts{root_kind::layer}
      .with_host_repro(false)
      .with_fma(true)
      .with_fma_limit((long long)limits::tet_f_blocks)
      .with_note("eq. (14) in float; host cbrtf; the device cbrtf differs: see the GPU table")
      .with_fma_note("eq. (14) in float; host cbrtf; 729 l*l - 3 and sqrt + 27 l as FMAs; the device cbrtf differs: see the GPU table");
  static constexpr sweep_notes sweep{"eq. (14) in float, device cbrtf/sqrtf (as published)",
                                     "eq. (16) row in float: sqrtf, no correction (= ltm-x)"};
};
template <>
struct map_traits<TET_E> {
  static constexpr unsigned joins = experiment::dummy;  // bench_maps3d's --maps default
  static constexpr look style{"#ff7f0e", 13};
  static constexpr const char* about = "g(λ) of eq. (16), exact: estimate within one + one compare-and-step each way";
  static constexpr map_family family = map_family::tet;
  static constexpr root_facts root = root_facts{root_kind::layer}
      .with_corrected(true)
      .with_note("float estimate + integer correction");
  static constexpr sweep_notes sweep{"64-bit path: double cbrt estimate + one compare-and-step each way",
                                     "64-bit path: double sqrt estimate + one compare-and-step each way",
                                     "32-bit path: lg2/ex2 approx cube root + one compare-and-step each way",
                                     "32-bit path: rsqrt.approx estimate + one compare-and-step each way"};
};
// (tet_fast.hpp)
template <>
struct map_traits<TET_FAST> {
  static constexpr unsigned joins = experiment::dummy;  // bench_maps3d's --maps default
  static constexpr look style{"#d62728", 8, 2};  // dashed, open points (as drawn before the registry held it)
  static constexpr const char* about = "g(λ), bit-trick cube root + one integer correction";
  static constexpr map_family family = map_family::tet;
  static constexpr range_limit range{range_kind::blocks, double(limits::tet_fast_blocks), "limits::tet_fast_blocks"};
  static constexpr sweep_notes sweep{"rcbrt bit trick + 3 Newton steps (pinned) + one integer check",
                                     "fsqrt_rn estimate + one integer check; its range is 2^29",
                                     "32-bit path of the same root", "32-bit path of the same root"};
};

// ---- the lists the experiments take, and the walks over the maps with a root
// The maps of a list whose traits join experiment E (experiment::..., registry/traits.hpp), in its order.
template <unsigned E, class L, class Out = map_list<>>
struct joining;
template <unsigned E, class... Out>
struct joining<E, map_list<>, map_list<Out...>> {
  using type = map_list<Out...>;
};
template <unsigned E, class M, class... Ms, class... Out>
struct joining<E, map_list<M, Ms...>, map_list<Out...>>
    : joining<E, map_list<Ms...>,
              std::conditional_t<(map_traits<M>::joins & E) != 0, map_list<Out..., M>, map_list<Out...>>> {};
template <unsigned E, class L = maps2d>
using joining_t = typename joining<E, L>::type;

// The lists the experiments take (derived: edit a map's traits, not these):
//   maps2d_dummy  bench_maps --test dummy, its --maps default (BB, the reference, is always timed)
//   maps2d_sqrt   bench_maps --test sqrt, the square-root study of g(lambda) (000 §IV-A, Fig. 3)
//   maps2d_apps   the maps the EDM and collision kernels are compiled for (experiments/apps2d)
//   maps2d_fast   the blockwise maps with a tiled fast EDM kernel (src/support/gpu/edm.cuh), "<name>-fast"
using maps2d_dummy = joining_t<experiment::dummy>;
using maps2d_sqrt = joining_t<experiment::sqrt>;
using maps2d_apps = joining_t<experiment::apps>;
using maps2d_fast = joining_t<experiment::fast>;
//   maps3d_default  bench_maps3d's --maps default (besides the bb3 baseline, always timed)
using maps3d_default = joining_t<experiment::dummy, maps3d>;

// Calls f(M{}) for every map of a list whose traits declare a root of kind K (registry/traits.hpp
// root_facts), in the list's order: the float maps of the exact-range tables and searches.
template <root_kind K, class F, class... Ms>
void for_each_root(map_list<Ms...>, F&& f) {
  auto one = [&](auto m) {
    using M = decltype(m);
    if constexpr (has_root<M>) {
      if constexpr (map_traits<M>::root.kind == K) f(m);
    }
  };
  (one(Ms{}), ...);
}

}  // namespace tdmaps
