// figures/synth_results.cpp — SYNTHETIC results for testing the figure program
// without a GPU: every CSV the experiments write, with their columns and metadata
// line, filled with made-up values of plausible shape (the counts columns come
// from the map library). Never use its output as data.
//
// Every table is written as the experiments write theirs: results::CsvFile under its layout's header
// (src/support/results/layouts.hpp), each row by column name (results::RowOf); the gram tables' names
// (write_gram) are the Gram vocabulary's (results/gram_names.hpp), as bench_gram writes them.
//
//   synth_results DIR [GPUS]     writes DIR/<slug>/*.csv for GPUS (1 or 2) fake GPUs
//                                (the second with the multi-GPU tables sdh_multigpu.csv and
//                                threebody_multigpu.csv, and peers_python.csv) and DIR/cpu/wasted3d.csv
#include "csv_file.hpp"
#include "gram_names.hpp"
#include "layouts.hpp"
#include "row.hpp"
#include "select.hpp"  // the papers' grid's map names (pick_rows::on_papers_grid)
#include "python_names.hpp"  // peers_python.csv's names, peers_edm.csv's and peers_sdh.csv's impls
#include <tdmaps/counts.hpp>
#include <tdmaps/layout3d.hpp>  // the data layouts' names (tet_layout.csv's layout column)
#include <tdmaps/registry.hpp>
#include "registry/sdh_rungs.hpp"    // the SDH rungs bench_sdh times (host-only: no CUDA)
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)
#include "registry/map_names.hpp"    // a map by the name a CSV spells (its "-fast" kernel)

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace tdmaps;
using results::RowOf;
using results::sig;
using results::fixed;
namespace layout = results::layout;

namespace {

std::mt19937 rng(12345);
double noise(double s) { return std::normal_distribution<double>(0.0, s)(rng); }

// The metadata object of a table (CsvFile writes it as the first line, after "# ").
std::string metadata(const std::string& gpu, const std::string& slug, const std::string& program, const std::string& args) {
  return "{\"program\":\"" + program + "\",\"args\":\"" + args +
         "\",\"date_utc\":\"2025-01-01T00:00:00Z\",\"commit\":\"synthetic\",\"gpu\":\"" + gpu + "\",\"gpu_slug\":\"" +
         slug + "\",\"cc\":\"9.0\",\"sm_count\":132,\"sm_clock_max_mhz\":1980,\"mem_clock_max_mhz\":2619,"
         "\"mem_bus_bits\":5120,\"global_mem_mib\":81008,\"l2_bytes\":52428800,\"driver\":12040,\"runtime\":12040,"
         "\"nvcc\":\"12.4\",\"nvcc_flags\":\"sm_90 -O3 -lineinfo\",\"synthetic\":\"yes: made-up values for tests\"}";
}
// A table of layout l in dir.
results::CsvFile csv(const fs::path& dir, const results::Layout& l, const std::string& metadata) {
  return results::CsvFile((dir / l.file).string(), metadata, l);
}

// The timing columns every benchmark writes: reps, the median and its spread (p25, p75, min, max)
// at fixed fractions of it.
template <const results::Layout& L>
RowOf<L>& timing(RowOf<L>& r, int reps, double t, double max_factor, bool min_max = true) {
  r.set("reps", reps).set("median_ms", sig(t)).set("p25_ms", sig(t * .99)).set("p75_ms", sig(t * 1.01));
  if (min_max) r.set("min_ms", sig(t * .98)).set("max_ms", sig(t * max_factor));
  return r;
}

// The name of the SDH rung that runs ladder kernel l (its line of the registry, registry/sdh_rungs.hpp sdh_rung_table).
const char* rung_of_ladder(gpu::sdh::Ladder l) {
  for (const gpu::sdh::RungEntry& e : gpu::sdh::sdh_rung_table)
    if (e.config.family == gpu::sdh::Family::ladder && e.config.ladder == l) return e.name;
  throw std::logic_error("synth_results: no SDH rung runs that ladder kernel");
}

// A made-up improvement curve: ramps from `lo` at small N to `hi` at large N.
double improvement_of(double lo, double hi, double N, double s = 0.01) { return lo + (hi - lo) * (1 - std::exp(-N / 6000.0)) + noise(s); }

// Whether a map's plan serves N at rho within its proven exact range (a map with a float root:
// its plan() refuses past the limit its traits and tdmaps::limits state; every other map: yes).
// The synthetic rows of a float map stop where a real run's would. `name` may carry "-fast".
bool exact_at(std::string name, i64 N, int rho) {
  if (const auto n = map_named(name); n && n->fast) name = n->map;
  bool exact = true;
  with_map(maps2d{}, name.c_str(), [&](auto m) {
    using M = decltype(m);
    if constexpr (has_root<M> || is_ltm<M>::value) {  // a root, or LTM's square grid (its base's range)
      try {
        (void)M::plan(N, rho);
      } catch (const unsupported&) {
        exact = false;
      }
    }
  });
  return exact;
}

// LTM on the papers' square grid (every -sq map launches the same n' x n' grid): closed form
Counts square_counts(i64 N, int rho) {
  try {
    return counts2_closed<LTM_E_SQ>(LTM_E_SQ::plan(N, rho, true));
  } catch (const std::exception&) {
    return Counts{};
  }
}

// The walk (counts2) of M's allow_inexact plan at (N, rho), once (the same (map, N, rho) recurs for both forms and
// both files, sqrt.csv and dummy.csv): for a map past its exact range, where counts_of has no closed form.
template <class M>
Counts counts_or_zero(i64 N, int rho) {
  static std::map<std::pair<i64, int>, Counts> memo;
  const auto key = std::make_pair(N, rho);
  if (const auto it = memo.find(key); it != memo.end()) return it->second;
  Counts c;
  try {
    c = counts2<M>(M::plan(N, rho, true));
  } catch (const std::exception&) {
    c = Counts{};
  }
  memo.emplace(key, c);
  return c;
}

// The counts of the map named `name` at (N, rho) (the registry's name -> type dispatch, with_map): its closed form
// where its plan is exact (constant time), else the walk of its allow_inexact plan (counts_or_zero: what it maps
// past its range); a papers'-grid name (-sq) the square grid's. Every map of the registry gets its own counts (a
// map it gains included); a name outside it is an error.
Counts counts_of(const std::string& name, i64 N, int rho) {
  if (results::pick_rows::on_papers_grid(name)) return square_counts(N, rho);
  Counts c;
  const bool found = with_map(maps2d{}, name, [&](auto m) {
    using M = decltype(m);
    try {
      c = counts2_closed<M>(M::plan(N, rho));
    } catch (const std::exception&) {
      c = counts_or_zero<M>(N, rho);
    }
  });
  if (!found) throw std::runtime_error("synth_results: no map named '" + name + "' in the registry");
  return c;
}

// A map's made-up improvement curve (from lo at small N to hi at large N).
struct M2 { std::string name; double lo, hi; };
// The maps a list of the registry holds (tdmaps/registry.hpp: what the benchmark runs by default),
// in its order, each with its curve in `known`, else `other`'s (a map the registry gains gets rows).
template <class L>
std::vector<M2> curves(L list, const std::vector<M2>& known, M2 other, const char* suffix = "") {
  std::vector<M2> v;
  for_each_map(list, [&](auto m) {
    M2 c = other;
    c.name = std::string(decltype(m)::name) + suffix;
    for (const M2& k : known)
      if (k.name == c.name) c = k;
    v.push_back(c);
  });
  return v;
}

void write_gpu(const fs::path& dir, const std::string& gpu, const std::string& slug, double speed) {
  fs::create_directories(dir);
  std::vector<i64> Ns;
  for (i64 N = 1024; N <= 30720; N += 1024) Ns.push_back(N);
  // ---- sqrt.csv and dummy.csv ----
  // (sqrt.csv has dummy.csv's columns: its rows are RowOf<layout::dummy>)
  const auto maps_file = [&](const results::Layout& l, const std::string& test, const std::vector<M2>& maps) {
    results::CsvFile o = csv(dir, l, metadata(gpu, slug, "bench_maps", "--test " + test));
    for (const results::pick_rows::Form form_of : {results::pick_rows::Form::Store, results::pick_rows::Form::Cond})
      for (int rho : {16, 32})
        for (i64 N : Ns) {
          const char* form = results::pick_rows::form_name(form_of);
          const double n = double((N + rho - 1) / rho);
          const double bb = speed * 1e-6 * n * n * rho * rho * (form_of == results::pick_rows::Form::Store ? 1.0 : 0.7);
          for (const M2& m : maps) {
            const bool exact = exact_at(m.name, N, rho);
            if (!exact && !(m.name == UTM_N::name && N <= 12288)) continue;
            const double improvement = m.name == BB::name ? 1.0 : improvement_of(m.lo, m.hi, double(N)) * (rho == 32 ? 0.98 : 1.0);
            const double t = bb / improvement;
            const Counts c = counts_of(m.name, N, rho);
            RowOf<layout::dummy> r;
            r.set("test", test).set("form", form).set("N", N).set("rho", rho).set("map", m.name).set("exact", exact)
                .set("passes", m.name == REC::name ? 12 : 1).set("launched_blocks", c.launched_blocks)
                .set("useful_blocks", c.useful_blocks).set("wasted_blocks", c.wasted_blocks())
                .set("launched_threads", c.launched_threads).set("useful_threads", c.useful_threads);
            o.row(timing(r, 30, t, 1.05).set("bb_median_ms", sig(bb)).set("I", sig(bb / t))
                      .set("index_bits", N <= 65535 * rho ? 32 : 64));
          }
        }
  };
  // the maps bench_maps times by default (maps2d_sqrt, maps2d_dummy: the maps' traits)
  maps_file(results::layout::sqrt_, "sqrt", curves(maps2d_sqrt{},
                           {{BB::name, 1, 1}, {LTM_X::name, 0.9, 0.97}, {LTM_N::name, 0.95, 1.01},
                            {LTM_R::name, 1.0, 1.07}, {LTM_D::name, 0.7, 0.8}, {LTM_E::name, 0.98, 1.04},
                            {LTM_R_SQ::name, 0.95, 1.0}, {LTM_E_SQ::name, 0.93, 0.98}, {LTM_X_SQ::name, 0.86, 0.92},
                            {LTM_N_SQ::name, 0.9, 0.95}, {LTM_D_SQ::name, 0.66, 0.76}},
                           {"", 0.95, 1.0}));
  maps_file(results::layout::dummy, "dummy", curves(maps2d_dummy{},
                            {{BB::name, 1, 1}, {BB_T::name, 0.95, 0.99}, {LTM_R::name, 1.0, 1.09}, {LTM_E::name, 0.98, 1.06},
                             {LTM_R_SQ::name, 0.97, 1.04}, {LTM_E_SQ::name, 0.96, 1.03}, {LTM_LUT::name, 0.9, 1.0},
                             {RB::name, 1.05, 1.2}, {RB_B::name, 1.04, 1.18}, {REC::name, 0.7, 0.9}, {UTM_N::name, 0.6, 0.5}},
                            {"", 0.95, 1.02}));
  // ---- edm.csv / collision.csv ----
  const double wbw = 2900 * speed;
  // (collision.csv has edm.csv's columns: its rows are RowOf<layout::edm>)
  const auto apps = [&](const results::Layout& l, const std::string& test) {
    results::CsvFile o = csv(dir, l, metadata(gpu, slug, "bench_apps", "--test " + test));
    o.row(RowOf<layout::edm>()
              .set("test", test).set("variant", "-").set("features", 0).set("N", 0).set("rho", 0).set("map", results::kWriteBwMap)
              .set("exact", 1).set("bytes_written", 4294967296LL).set("reps", 30)
              .set("median_ms", sig(4294967296.0 / (wbw * 1e6))).set("p25_ms", sig(NAN)).set("p75_ms", sig(NAN))
              .set("min_ms", sig(NAN)).set("max_ms", sig(NAN)).set("bb_median_ms", sig(NAN)).set("I", sig(NAN))
              .set("GBps", sig(wbw)));
    namespace at = results::apps_test;
    namespace cd = results::collision_dim;
    const std::string bb_fast = std::string(BB::name) + fast_suffix;  // BB's fast EDM kernel (registry/map_names.hpp)
    const std::vector<std::string> variants = test == at::edm ? std::vector<std::string>{results::edm_variant::full, results::edm_variant::packed}
                                                              : std::vector<std::string>{cd::d3, cd::d1};
    // collision.csv holds both kernel styles (select.hpp Kernel): the shared-memory one and the direct one
    const std::vector<std::string> styles = test == at::collision ? std::vector<std::string>{at::collision, at::collision_direct}
                                                                  : std::vector<std::string>{test};
    for (const std::string& style : styles)
    for (const std::string& v : variants)
      for (int feat : test == at::edm ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{v == cd::d3 ? 3 : 1})
        for (int rho : {16, 32})
          for (i64 N : Ns) {
            const bool packed = v == results::edm_variant::packed;
            const double bytes = test == at::edm ? 4.0 * (packed ? double(N) * (N + 1) / 2 : double(N) * N) : 0;
            const double bbt = test == at::edm ? bytes / (wbw * 1e6) / (packed ? 0.55 : 0.8) * (1 + 0.02 * feat)
                                               : speed * 1e-5 * double(N) * N / 1000;
            // the maps bench_apps times by default (the traits apps_default, and fast_default's
            // "-fast" EDM kernels), in the registry's order
            const bool coll = test != at::edm;
            std::vector<M2> maps = curves(joining_t<experiment::apps_default>{},
                                          {{BB::name, 1, 1},
                                           {LTM_R::name, 1.0, coll ? (v == cd::d3 ? 1.06 : 1.01) : 1.12},
                                           {LTM_E::name, 1.0, 1.1},
                                           {LTM_R_SQ::name, 0.97, 1.08},  // LTM on the papers' n'x n' grid (000 §III-A)
                                           {LTM_E_SQ::name, 0.97, 1.07},
                                           {RB::name, coll ? 0.9 : 1.05, coll ? 0.93 : 1.15},
                                           {RB_B::name, coll ? 0.95 : 1.03, coll ? 1.0 : 1.12},
                                           {REC::name, 0.85, 1.04},
                                           {UTM_N::name, coll ? 1.9 : 0.9 + 0.02 * feat, coll ? 0.4 : 0.6}},
                                          {"", 0.95, 1.02});
            if (!coll)
              for (const M2& m : curves(joining_t<experiment::fast_default>{}, {{bb_fast, 1, 1}, {std::string(LTM_E::name) + fast_suffix, 1.05, 1.2}},
                                        {"", 1.0, 1.1}, fast_suffix))
                maps.push_back(m);
            const double bbfast = bbt * 0.8;
            for (const M2& a : maps) {
              const bool exact = exact_at(a.name, N, rho);
              if (!exact) continue;
              const auto named = map_named(a.name);
              const bool fast = named && named->fast;
              const double ref = fast ? bbfast : bbt;
              const double improvement = (a.name == BB::name || a.name == bb_fast) ? 1.0 : improvement_of(a.lo, a.hi, double(N));
              const double t = ref / improvement;
              RowOf<layout::edm> r;
              r.set("test", style).set("variant", v).set("features", feat).set("N", N).set("rho", rho).set("map", a.name)
                  .set("exact", 1).set("bytes_written", sig(bytes));
              o.row(timing(r, 30, t, 1.04).set("bb_median_ms", sig(ref)).set("I", sig(improvement))
                        .set("GBps", sig(test == at::edm ? bytes / (t * 1e6) : NAN)));
            }
          }
  };
  apps(results::layout::edm, results::apps_test::edm);
  apps(results::layout::collision, results::apps_test::collision);
  {
    results::CsvFile o = csv(dir, layout::peers_edm, metadata(gpu, slug, "peers_edm.py", ""));
    for (i64 N : Ns) {
      const double bf = 4.0 * N * N, bp = 4.0 * N * (N - 1) / 2;
      const double tc = bf / (wbw * 0.7 * 1e6), tp = bp / (wbw * 0.35 * 1e6);
      const auto row = [&](const char* lay, const char* impl, double t, double bytes) {
        o.row(RowOf<layout::peers_edm>().set("test", results::apps_test::edm).set("layout", lay).set("features", 4).set("N", N)
                  .set("impl", impl).set("median_ms", sig(t)).set("GBps", sig(bytes / (t * 1e6))));
      };
      namespace ep = results::edm_peers;  // torch_peers.py's names (python_names.hpp)
      row(ep::cdist.layout, ep::cdist.impl, tc, bf);
      row(ep::pdist.layout, ep::pdist.impl, tp, bp);
    }
  }
  {
    // the rows gpu_exact_range writes (the registry's maps with a root, registry/traits.hpp root_facts,
    // in its order), each at the map's own constant; a fma limit the GPU measures (-1) a little past it
    results::CsvFile o = csv(dir, layout::exact_range_gpu, metadata(gpu, slug, "gpu_exact_range", ""));
    const u64 lim2 = u64(1) << 32, lim3 = u64(1) << 34;
    const auto block = [&](const char* name, const char* kind, u64 fw, u64 lim, bool tet3, const char* r) {
      const u64 good = std::min(fw, lim);
      u64 n = tet3 ? tet_root(good) : tri_root(good);
      while (n > 0 && (tet3 ? tet(n) : tri(n)) > good) --n;
      o.row(RowOf<layout::exact_range_gpu>()
                .set("variant", name).set("kind", kind).set("first_wrong", fw >= lim ? std::string("none") : std::to_string(fw))
                .set("largest_exact_N_rho8", 8 * n).set("largest_exact_N_rho16", 16 * n).set("largest_exact_N_rho32", 32 * n)
                .set("searched_up_to", lim).set("rounding", r));
    };
    const auto thread = [&](const char* name, i64 max_N, const char* r) {
      o.row(RowOf<layout::exact_range_gpu>()
                .set("variant", name).set("kind", results::exact_kind::thread).set("first_wrong", max_N + 1).set("largest_exact_N_rho8", max_N)
                .set("largest_exact_N_rho16", max_N).set("largest_exact_N_rho32", max_N).set("searched_up_to", max_N + 1)
                .set("rounding", r));
    };
    const auto fma_of = [](long long fma_limit, u64 pinned) { return fma_limit >= 0 ? u64(fma_limit) : pinned + 1; };
    for (const bool fma : {false, true}) {
      const char* r = fma ? tdmaps::Fused::name : tdmaps::Pinned::name;
      for_each_root<root_kind::row>(maps2d{}, [&](auto m) {
        using M = decltype(m);
        constexpr root_facts f = map_traits<M>::root;
        if (!f.corrected && (!fma || f.fma)) block(M::name, results::exact_kind::block, fma ? fma_of(f.fma_limit, M::exact_blocks) : M::exact_blocks, lim2, false, r);
      });
      for_each_root<root_kind::layer>(maps3d{}, [&](auto m) {
        using M = decltype(m);
        constexpr root_facts f = map_traits<M>::root;
        if (!f.corrected && (!fma || f.fma)) block(M::name, results::exact_kind::block3, fma ? fma_of(f.fma_limit, M::exact_blocks) : M::exact_blocks, lim3, true, r);
      });
      for_each_root<root_kind::thread>(maps2d{}, [&](auto m) {
        using M = decltype(m);
        constexpr root_facts f = map_traits<M>::root;
        if (!fma || f.fma) thread(M::name, fma ? i64(f.fma_limit) : M::max_N, r);
      });
    }
    for_each_root<root_kind::row>(maps2d{}, [&](auto m) {
      using M = decltype(m);
      block(M::name, results::exact_kind::block32, M::exact_blocks, lim2, false, tdmaps::Pinned::name);
    });
  }
  // ---- 3D (columns as experiments/maps3d/README.md) ----
  const auto eq17 = [](double n) { return 6 * n * n * n / (n * n * n + 3 * n * n + 2 * n); };
  // the maps bench_maps3d times by default: the bb3 baseline and the registry's maps3d_default, in its order (a 3D
  // map the registry gains gets rows, with tet-fast's made-up curve)
  std::vector<const char*> maps3{BB3::name};  // the maps' static names
  for_each_map(maps3d_default{}, [&](auto m) {
    if (std::string(decltype(m)::name) != BB3::name) maps3.push_back(decltype(m)::name);
  });
  {
    results::CsvFile o = csv(dir, layout::tet_dummy, metadata(gpu, slug, "bench_maps3d", "--test dummy"));
    for (int rho : {8, 4})
      for (const char* form : {results::pick_rows::form_name(results::pick_rows::Form::Cond), results::pick_rows::form_name(results::pick_rows::Form::Store)})
        for (i64 N : {256, 512, 768, 1024, 1536, 2048, 3072, 4096}) {
          const double n = double((N + rho - 1) / rho), bb = speed * 1e-7 * n * n * n * rho * rho * rho;
          for (const char* m : maps3)
            for (const char* mode : {results::kThreadMode, results::kBlockMode}) {
              const std::string ms = m;
              const double improvement = ms == tdmaps::BB3::name ? 1.0
                                           : eq17(n) * (ms == tdmaps::TET_E::name ? 0.55 : 0.75) * (std::string(mode) == results::kBlockMode ? 1.1 : 1.0) + noise(0.03);
              RowOf<layout::tet_dummy> r;
              r.set("N", N).set("rho", rho).set("n", sig(n)).set("form", form).set("map", m).set("mode", mode)
                  .set("exact", 1).set("verified", 1).set("launched_blocks", 0).set("useful_blocks", 0)
                  .set("launched_threads", 0).set("useful_threads", 0);
              o.row(timing(r, 20, bb / improvement, 1.03).set("bb3_median_ms", sig(bb)).set("I", sig(improvement))
                        .set("I_eq17", sig(eq17(n))));
            }
        }
  }
  {
    results::CsvFile o = csv(dir, layout::tet_threebody, metadata(gpu, slug, "bench_maps3d", "--test threebody"));
    for (int rho : {8, 4})
      for (i64 N : {256, 1024, 2048, 4096}) {
        const double n = double((N + rho - 1) / rho), bb = speed * 1e-6 * n * n * n * rho * rho * rho;
        for (const char* m : maps3)
          for (const char* mode : {results::kThreadMode, results::kBlockMode}) {
            const std::string ms = m;
            const double improvement = ms == tdmaps::BB3::name ? 1.0 : 1 + (eq17(n) - 1) * (ms == tdmaps::TET_E::name ? 0.3 : 0.4) + noise(0.02);
            RowOf<layout::tet_threebody> r;
            r.set("N", N).set("rho", rho).set("n", sig(n)).set("map", m).set("mode", mode).set("verified", 1)
                .set("launched_blocks", 0).set("useful_blocks", 0).set("triplets", 0).set("r", sig(0.25))
                .set("bin0", 0).set("bin1", 0).set("bin2", 0).set("bin3", 0);
            o.row(timing(r, 20, bb / improvement, 1.03).set("gtriplets_per_s", 1).set("bb3_median_ms", sig(bb))
                      .set("I", sig(improvement)).set("I_eq17", sig(eq17(n))));
          }
      }
  }
  {
    results::CsvFile o = csv(dir, layout::tet_layout, metadata(gpu, slug, "bench_maps3d", "--test layout"));
    for (int rho : {8, 4})
      for (i64 N : {256, 512, 768, 1024, 1536, 2048}) {
        const double n = double((N + rho - 1) / rho), base = speed * 1e-7 * double(N) * N * N / 6;
        for (const char* m : maps3)
          for (const char* mode : {results::kThreadMode, results::kBlockMode}) {
            const double lin = base * (1.3 + 0.4 * (1 - std::exp(-double(N) / 600))) * (std::string(m) == tdmaps::BB3::name ? 1.6 : 1.0);
            const double blk = base * (std::string(m) == tdmaps::BB3::name ? 1.6 : 1.0);
            for (const bool bl : {false, true}) {
              const char* layout = bl ? BlockedLayout3::name : LinearLayout3::name;  // the layouts' names
              RowOf<layout::tet_layout> r;
              r.set("N", N).set("rho", rho).set("n", sig(n)).set("layout", layout).set("map", m).set("mode", mode)
                  .set("verified", 1).set("slots", 0).set("padding", 0).set("padding_over_n2rho3", sig(0.44));
              o.row(timing(r, 20, bl ? blk : lin, 1.03).set("eff_gbs", 100).set("bb3_median_ms", 0).set("I", 1)
                        .set("linear_median_ms", sig(lin)).set("linear_over_blocked", sig(bl ? lin / blk : 1.0)));
            }
          }
      }
  }
  {
    results::CsvFile o = csv(dir, layout::tet_exact_range_gpu, metadata(gpu, slug, "gpu_verify_3d", ""));
    const auto row = [&](const char* root, const char* part, const std::string& first_wrong, long long searched_to,
                         int rho4, int rho8, int rho10, const char* note, int index_bits) {
      o.row(RowOf<layout::tet_exact_range_gpu>()
                .set("root", root).set("part", part).set("first_wrong", first_wrong).set("searched_to", searched_to)
                .set("largest_exact_N_rho4", rho4).set("largest_exact_N_rho8", rho8).set("largest_exact_N_rho10", rho10)
                .set("note", note).set("index_bits", index_bits));
    };
    row(TET_F::name, results::tet_part::layer, "0", 17179869184LL, 0, 0, 0, "eq. (14) in float", 64);
    row(TET_F::name, results::tet_part::row, "10619135", 17179869184LL, 50000, 100000, 125000, "sqrtf row", 64);
    row(TET_E::name, results::tet_part::layer, "none", 17179869184LL, 18000, 36000, 45000, "exact", 32);
    row(TET_E::name, results::tet_part::row, "none", 17179869184LL, 18000, 36000, 45000, "exact", 32);
    row(TET_FAST::name, results::tet_part::layer, "none", 17179869184LL, 18000, 36000, 45000, "exact", 64);
    row(TET_FAST::name, results::tet_part::row, "none", 536870912LL, 3000, 6000, 7500, "row range 2^29", 64);
  }
  // ---- SDH ----
  {
    results::CsvFile o = csv(dir, layout::sdh, metadata(gpu, slug, "bench_sdh", ""));
    // what bench_sdh times by default: the CPU loops and every rung of the SDH registry
    // (src/support/registry/sdh_rungs.hpp, in its order), each with its made-up ms at N = 10^4 in `known` (the
    // ladder's rungs, by their kernel), else 0.1 (fast-lane's; a rung the registry gains gets rows); threads: the
    // rung's own, else 256
    using gpu::sdh::Ladder;
    const std::vector<std::pair<std::string, double>> known = {
        {rung_of_ladder(Ladder::v1), 3.0}, {rung_of_ladder(Ladder::v2), 1.2}, {rung_of_ladder(Ladder::v3), 1.25},
        {rung_of_ladder(Ladder::v4), 1.0}, {rung_of_ladder(Ladder::v5), 0.5}, {rung_of_ladder(Ladder::tiled_bb), 0.55},
        {rung_of_ladder(Ladder::tiled_ltm_e), 0.45}};
    struct Impl { std::string name; double t10k; int tpb; };
    std::vector<Impl> impls = {{gpu::sdh::cpu_st_impl.name, 818, 0}, {gpu::sdh::cpu_mt_impl.name, 70, 0}};
    for (const gpu::sdh::ImplInfo& i : gpu::sdh::impl_list()) {
      double t10k = 0.1;
      for (const auto& [name, t] : known)
        if (name == i.name) t10k = t;
      impls.push_back({i.name, t10k, gpu::sdh::threads_of(i.id, 256)});
    }
    for (double N : {10000.0, 20000.0, 50000.0, 100000.0, 200000.0})
      for (const auto& [impl, t10k, tpb0] : impls) {
        const double s = (N / 10000) * (N / 10000);
        const bool cpu = tpb0 == 0;
        const double t = t10k * s * (cpu ? 1.0 : speed);
        const auto row = [&](int tpb, double tt) {
          const double with = cpu ? NAN : tt + 0.3;  // the GPU's time with the transfers
          RowOf<layout::sdh> r;
          r.set("impl", impl).set("N", sig(N)).set("bucket_width", 500).set("buckets", 35).set("threads_per_block", tpb);
          o.row(timing(r, 20, tt, 1.03).set("with_transfers_ms", sig(with))
                    .set("pairs_per_s", sig(N * (N - 1) / 2 / (tt * 1e-3))).set("speedup_vs_cpu_mt", sig(70 * s / (cpu ? tt : with))));
        };
        row(tpb0, t);
        if (impl == rung_of_ladder(Ladder::v5) && N == 10000)
          for (int tpb : {128, 512, 1024}) row(tpb, t * (tpb == 1024 ? 1.3 : tpb == 512 ? 1.1 : 1.05));
      }
  }
  {
    // torch_sdh.py's impls and exact_at_verify_n's words (results/python_names.hpp sdh_peers): the direct rule exact,
    // torch.cdist's form not (as measured)
    namespace sp = results::sdh_peers;
    results::CsvFile o = csv(dir, layout::peers_sdh, metadata(gpu, slug, "torch_sdh.py", ""));
    for (double N : {10000.0, 20000.0, 50000.0, 100000.0})
      for (const char* impl : sp::impls) {
        const bool direct = std::string(impl) == sp::direct;
        const double t = (direct ? 2.0 : 1.4) * (N / 10000) * (N / 10000);
        RowOf<layout::peers_sdh> r;
        r.set("impl", impl).set("N", sig(N)).set("bucket_width", 500).set("buckets", 35);
        o.row(timing(r, 5, t, 1.03).set("pairs_per_s", sig(N * (N - 1) / 2 / (t * 1e-3)))
                  .set("exact_at_verify_n", direct ? sp::exact_yes : sp::exact_no));
      }
  }
}

// ---- tensor-core pairwise distances (experiments/gram/bench_gram, issue #27) ----
void write_gram(const fs::path& dir, const std::string& gpu, const std::string& slug, double speed) {
  results::CsvFile o = csv(dir, layout::gram, metadata(gpu, slug, "bench_gram", ""));
  // the names gram.csv spells (results/gram_names.hpp, bench_gram's)
  const std::string tf32 = gram::name(gram::Prec::tf32), tf32x3 = gram::name(gram::Prec::tf32x3),
                    bf16 = gram::name(gram::Prec::bf16);
  const std::string bb_grid = gram::impl_name(gram::Sched::bb, gram::Kernel::classic),
                    ltm_e = gram::impl_name(gram::Sched::ltm_e, gram::Kernel::classic);
  using gram::Output;
  namespace peer = gram::peer;
  struct V {
    std::string prec;
    Output output;
    std::string impl;
    double ms_at_1e9;  // made-up ms per 10^9 pairs at d = 128
    bool ours;
  };
  const V vs[] = {{tf32, Output::lower, bb_grid, 3.7, true},          {tf32, Output::lower, ltm_e, 3.65, true},
                  {tf32x3, Output::lower, bb_grid, 6.4, true},        {tf32x3, Output::lower, ltm_e, 6.35, true},
                  {bf16, Output::lower, bb_grid, 3.1, true},          {bf16, Output::lower, ltm_e, 3.05, true},
                  {tf32, Output::full_gram, peer::cublas_gemm, 4.1, false},
                  {tf32, Output::full, peer::cublas_gemm_epilogue, 10.0, false},
                  {peer::fp32, Output::lower, peer::cublas_syrk_epilogue, 12.5, false},
                  {peer::none, Output::lower, peer::write, 1.2, false},
                  {tf32, Output::count, ltm_e, 2.0, true},            {bf16, Output::mirror_gram, ltm_e, 4.0, true},
                  {bf16, Output::full_gram, peer::cublas_gemm, 3.4, false},
                  {peer::none, Output::none, peer::empty_blocks, 0.15, false}};
  for (double N : {32768.0, 65536.0})
    for (double d : {64.0, 128.0, 256.0}) {
      const double c = std::ceil(N / 128), pairs = N * (N + 1) / 2 / 1e9;
      double bb = NAN;
      for (const V& v : vs) {
        const bool flat = v.impl == peer::write || v.impl == peer::empty_blocks;  // no d in their time
        const double t = v.ms_at_1e9 * pairs * (flat ? 1.0 : std::sqrt(d / 128)) * speed;
        if (v.impl == bb_grid) bb = t;
        const double launched = v.impl == bb_grid ? c * c : v.impl == peer::empty_blocks ? c * (c - 1) / 2 : c * (c + 1) / 2;
        const bool map = v.impl == ltm_e;
        RowOf<layout::gram> r;
        r.set("N", sig(N)).set("d", sig(d)).set("precision", v.prec).set("output", gram::name(v.output)).set("impl", v.impl)
            .set("tile", v.ours ? "128x128" : "cublas").set("launched_tiles", sig(launched))
            .set("useful_tiles", sig(c * (c + 1) / 2));
        o.row(timing(r, 10, t, 1.03).set("TFLOPs", sig(2 * d * pairs * 1e9 / (t * 1e-3) / 1e12))
                  .set("GBps", sig(N * (N + 1) / 2 * 4 / (t * 1e-3) / 1e9)).set("bytes_written", sig(N * (N + 1) / 2 * 4))
                  .set("err_vs_f64", sig(v.ours ? 3e-05 : NAN)).set("err_bound", sig(v.ours ? 0.0015 : NAN))
                  .set("bb_median_ms", sig(map ? bb : NAN)).set("I", sig(map ? bb / t : NAN))
                  .set("blocks_per_s", sig(launched / (t * 1e-3))).set("verified", v.ours ? 1 : -1));
      }
    }
  // experiments/peers/gram_peers.py: torch.cdist (TF32 and FP32) and torch.mm on the same sizes
  results::CsvFile p = csv(dir, layout::peers_gram, metadata(gpu, slug, "gram_peers.py", ""));
  const V ps[] = {{tf32, Output::full, peer::torch_cdist, 9.3, false}, {peer::fp32, Output::full, peer::torch_cdist, 30.0, false},
                  {tf32, Output::full_gram, peer::torch_mm, 2.1, false}};
  for (double N : {32768.0, 65536.0})
    for (double d : {64.0, 128.0, 256.0})
      for (const V& v : ps) {
        const double t = v.ms_at_1e9 * N * N / 1e9 * std::sqrt(d / 128) * speed, bytes = N * N * 4;
        RowOf<layout::peers_gram> r;
        r.set("N", sig(N)).set("d", sig(d)).set("precision", v.prec).set("output", gram::name(v.output)).set("impl", v.impl);
        p.row(timing(r, 10, t, 1.03).set("GBps", sig(bytes / (t * 1e6))).set("bytes_written", sig(bytes))
                  .set("err_vs_f64", sig(v.impl == peer::torch_mm ? NAN : 2e-05)));
      }
  // bench_gram --exact-N: the bracketed exact mode (issue #37), 3xTF32 and TF32 on the classic kernel
  results::CsvFile x = csv(dir, layout::gram_exact, metadata(gpu, slug, "bench_gram", "--exact-N 65536"));
  for (gram::Prec pr : {gram::Prec::tf32x3, gram::Prec::tf32})
    for (gram::Out out : {gram::Out::count_exact, gram::Out::hist_exact}) {
      const double N = 65536, pairs = N * (N - 1) / 2, frac = (pr == gram::Prec::tf32 ? 0.1 : 0.004) * (out == gram::Out::hist_exact ? 20 : 1);
      const double t = (pr == gram::Prec::tf32 ? 4.0 : 9.0) * speed + frac * pairs * 2e-8;
      RowOf<layout::gram_exact> r;
      r.set("N", sig(N)).set("d", 128).set("precision", gram::name(pr)).set("output", gram::name(out))
          .set("impl", ltm_e).set("buckets", out == gram::Out::hist_exact ? 65 : 0)
          .set("bucket_width", sig(out == gram::Out::hist_exact ? std::sqrt(128.0) / 64 : NAN))
          .set("eps", sig(out == gram::Out::hist_exact ? NAN : std::sqrt(128.0 / 6))).set("pairs", sig(pairs)).set("replayed", sig(std::round(frac * pairs)))
          .set("replayed_pct", sig(100 * frac));
      x.row(timing(r, 5, t, 1.03).set("fp64_median_ms", sig(100.0 * speed)).set("equal_fp64", 1));
    }
}

// ---- Nsight Compute's profiles (experiments/gram/ncu_binds, issue #36): one latency-bound, one DRAM-bound ----
void write_ncu(const fs::path& dir, const std::string& gpu, const std::string& slug) {
  results::CsvFile o = csv(dir, layout::ncu_gram, metadata(gpu, slug, "ncu_binds", ""));
  const auto row = [&](const char* out, double dram, double l2, double sm, const char* stall) {
    o.row(RowOf<layout::ncu_gram>()
              .set("kernel", gram::name(gram::Kernel::sm90_evt)).set("output", out).set("precision", gram::name(gram::Prec::tf32)).set("N", 65536).set("d", 128)
              .set("ncu_ms", sig(3.5)).set("dram_pct", fixed(dram, 2)).set("l2_pct", fixed(l2, 2)).set("l1_pct", fixed(30, 2))
              .set("sm_pct", fixed(sm, 2)).set("issue_active_pct", fixed(28, 2)).set("warp_cycles_per_issue", fixed(8, 2))
              .set("stall_1", stall).set("stall_1_cycles", fixed(3, 2)).set("stall_2", "wait").set("stall_2_cycles", fixed(1.5, 2)));
  };
  row(gram::name(gram::Out::lower), 49, 57, 27, "long_scoreboard");
  row(gram::name(gram::Out::condensed), 85, 60, 20, "lg_throttle");
}

// ---- the Python package against its peers (experiments/peers/python_peers.py, issue #38) ----
// tdmaps.pdist (each output) from Python and from C++, torch.pdist, torch.cdist (TF32 / FP32), CuPy's pdist
// not running (a note row), SciPy's on the CPU up to N = 8192 (a note row past it); the install timed.
void write_python(const fs::path& dir, const std::string& gpu, const std::string& slug, double speed) {
  std::string m = metadata(gpu, slug, "python_peers.py", "--out experiments/results/local --pip-install .");
  m.insert(m.rfind('}'), ",\"tdmaps\":\"0.0-synthetic\",\"torch\":\"0.0-synthetic\",\"pip_install_s\":95.0");
  results::CsvFile o = csv(dir, layout::peers_python, m);
  const auto row = [&](double N, const char* impl, const char* out, const char* prec, const char* device,
                       const char* kernel, double t, double bytes, int verified, const char* note) {
    const bool ran = std::isfinite(t);
    RowOf<layout::peers_python> r;
    r.set("N", sig(N)).set("d", 128).set("impl", impl).set("output", out).set("precision", prec).set("device", device)
        .set("kernel", kernel);
    o.row(timing(r, ran ? 30 : 0, t, 1.05).set("bytes_written", sig(bytes)).set("verified", verified)
              .set("err_vs_f64", sig(verified == 1 ? 3e-05 : NAN)).set("note", note));
  };
  const char* const tf32 = gram::name(gram::Prec::tf32);  // the Gram vocabulary (results/gram_names.hpp)
  const char* const classic = gram::name(gram::Kernel::classic);
  namespace py = results::python_peers;  // peers_python.csv's names (results/python_names.hpp)
  for (double N : {1024.0, 8192.0, 32768.0}) {
    const double pairs = N * N / 2 / 1e9, cond = N * (N - 1) / 2 * 4, sq = N * N * 4;
    for (const char* out : py::outputs) {
      const double k = std::string(out) == "condensed" ? 1.0 : 1.6;
      const double cpp = (0.006 + 1.8 * pairs * k) * speed;  // ms: launch + the kernel
      row(N, py::pdist, out, tf32, "gpu", classic, cpp + 0.012 + 0.01 * cpp, std::string(out) == "condensed" ? cond : sq,
          1, "");
      row(N, py::cpp_impl, out, tf32, "gpu", classic, cpp, std::string(out) == "condensed" ? cond : sq, -1,
          "the same kernel from C++");
    }
    const auto peer = [&](const py::Peer& p, double t, double bytes, int verified, const char* note) {
      row(N, p.impl, p.output, p.precision, p.device, "-", t, bytes, verified, note);
    };
    peer(py::torch_pdist, (0.01 + 40 * pairs) * speed, cond, 1, "");
    peer(py::torch_cdist_tf32, (0.02 + 14 * pairs) * speed, sq, 1, "");
    peer(py::torch_cdist_fp32, (0.02 + 20 * pairs) * speed, sq, 1, "");
    peer(py::cupy_pdist, NAN, cond, -1, "does not run here: RuntimeError: pylibraft is not installed");
    if (N <= 8192)
      peer(py::scipy_pdist, 90000 * pairs, 2 * cond, 1, "CPU wall clock");
    else
      peer(py::scipy_pdist, NAN, 2 * cond, -1, "skipped: one call predicted 48 s > --scipy-max-s 10");
  }
}

// ---- multi-GPU SDH / three-body (experiments/multigpu/multi_hist): 1 and 2 GPUs x 1 and 8 chunks ----
void write_multigpu(const fs::path& dir, const std::string& gpu, const std::string& slug, double speed) {
  // threebody_multigpu.csv has sdh_multigpu.csv's columns: its rows are RowOf<layout::sdh_multigpu>
  struct App { std::string app, kernel; const results::Layout* l; std::vector<double> Ns; double rate; };
  namespace app = results::multigpu_app;
  for (const App& a : {App{app::sdh, gpu::sdh::multi_hist_default_rung, &layout::sdh_multigpu, {1e6, 1e7}, 1.8e12 / speed},
                       App{app::threebody, std::string(TET_E::name) + " rho=8", &layout::threebody_multigpu, {16384}, 2.1e11 / speed}}) {
    results::CsvFile o = csv(dir, *a.l, metadata(gpu, slug, "multi_hist", "--app " + a.app + " --gpu-counts 1,2 --chunks 1,8"));
    for (double N : a.Ns) {
      const double work = a.app == app::sdh ? N * (N - 1) / 2 : N * (N - 1) * (N - 2) / 6;
      const double t1 = work / a.rate * 1e3;  // ms of the kernels, 1 GPU x 1 chunk
      const auto red_of = [](int g) { return g == 1 ? 0.003 : 0.22; };
      double t11 = NAN;  // the first configuration's run: rate_vs_first's base
      for (int g : {1, 2})
        for (int c : {1, 8}) {
          const double red = red_of(g);
          const double t = t1 / g + 0.1 * (c - 1) + red + std::abs(noise(0.001)) * t1 / g;
          if (g == 1 && c == 1) t11 = t;
          o.row(RowOf<layout::sdh_multigpu>()
                    .set("app", a.app).set("N", static_cast<long long>(N)).set("kernel", a.kernel).set("gpus", g)
                    .set("chunks", c).set("workers", g * c).set("blocks", 1000).set("work", sig(work)).set("reps", 3)
                    .set("median_ms", sig(t)).set("p25_ms", sig(t * 0.999)).set("p75_ms", sig(t * 1.001))
                    .set("compute_ms", sig(t - red)).set("reduce_ms", sig(red)).set("wait_ms", sig(g == 1 ? 0 : 2.5))
                    .set("reduce_frac", sig(red / t)).set("work_per_s", sig(work / (t * 1e-3))).set("rate_vs_first", sig(t11 / t))
                    .set("identical", 1).set("verified", "-"));
        }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: synth_results DIR [GPUS]\n");
    return 2;
  }
  const fs::path dir = argv[1];
  const int gpus = argc > 2 ? std::atoi(argv[2]) : 1;
  write_gpu(dir / "h100", "NVIDIA H100 80GB HBM3 (synthetic)", "h100", 1.0);
  write_gram(dir / "h100", "NVIDIA H100 80GB HBM3 (synthetic)", "h100", 1.0);
  if (gpus > 1) {
    write_gpu(dir / "h200", "NVIDIA H200 (synthetic)", "h200", 0.8);
    write_gram(dir / "h200", "NVIDIA H200 (synthetic)", "h200", 0.8);
    // as in the committed results: only the second GPU's folder has the multi-GPU tables
    write_multigpu(dir / "h200", "NVIDIA H200 (synthetic)", "h200", 0.8);
    // only the second GPU's folder has peers_python.csv (README's python block: one GPU with it, one without)
    write_python(dir / "h200", "NVIDIA H200 (synthetic)", "h200", 0.8);
    write_ncu(dir / "h200", "NVIDIA H200 (synthetic)", "h200");
  }
  fs::create_directories(dir / "cpu");
  {
    results::CsvFile o = csv(dir / "cpu", layout::wasted3d, "{\"program\":\"wasted3d\",\"commit\":\"synthetic\"}");
    const auto row = [&](const char* map, int launched, int useful, int launched_threads, int useful_threads,
                         double over_n2rho3, double over_N3) {
      o.row(RowOf<layout::wasted3d>()
                .set("N", 64).set("rho", 8).set("n", 8).set("map", map).set("launched_blocks", launched)
                .set("useful_blocks", useful).set("wasted_blocks", launched - useful).set("launched_threads", launched_threads)
                .set("useful_threads", useful_threads).set("wasted_threads", launched_threads - useful_threads)
                .set("wasted_threads_over_n2rho3", sig(over_n2rho3)).set("wasted_threads_over_N3", sig(over_N3))
                .set("blocked_padding", 0).set("padding_over_n2rho3", 0));
    };
    row(tdmaps::BB3::name, 512, 120, 262144, 61440, 0.8, 0.77);
    row(results::kWasted3dTet, 120, 120, 61440, 61440, 0, 0);
  }
  std::printf("synthetic results written to %s\n", dir.c_str());
  return 0;
}
