// experiments/apps2d/bench_apps.cu — timing of the application kernels over the
// maps (000_dc8ca915cfc23e3c.txt §V: EDM and collision detection; 001_76513e4fc7b63a5f.txt
// §IV: EDM with 1..4 features), reported as improvement factor I = t_BB / t_map.
//
// For every (N, rho) the reference (bb; bb-fast for the fast EDM variants) and every
// selected map are timed in the same run by the harness's interleaved timer
// (src/support/bench/gpu.cuh: one CUDA-event pair per launch, --warmup untimed launches of
// each first, reps sized by its one budget policy, never below --min-reps).
// Collision runs in two kernel styles, each its own experiment with BB in it:
// test=collision is the papers' shared-memory kernel (the blockwise maps: bb, ltm-*,
// rb-b, rec), test=collision-direct the kernel without shared memory (every map).
// Every (kernel, map, rho) is verified against the CPU reference at small N before
// anything is timed; a failure stops the run. The device's write bandwidth (float4
// stores into a 4 GiB buffer, median over reps) is measured first and written as
// map=write_bw rows, so GBps can be read as a fraction of it.
//
// Output: <out>/<gpu_slug>/edm.csv and collision.csv, first line "# " + metadata
// JSON, then tidy rows (see README.md). Progress on stderr. Exit 2 on bad input.
#include "apps_check.cuh"

#include <bench/gpu.cuh>
#include <bench/predict.hpp>
#include <tdmaps/registry.hpp>
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)

#include <boost/program_options.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)
#include "bench_apps_rows.hpp"  // the CSV row by column name (host only; verify/test_experiment_rows checks it)

using namespace tdmaps;
using namespace tdmaps::apps;
namespace po = boost::program_options;

namespace {

struct Options {
  bool edm = true, collision = true;
  std::vector<int> features{1, 2, 3, 4};
  std::vector<EdmOutput> layouts{EdmOutput::full, EdmOutput::packed};
  std::vector<int> dims{3, 1};
  std::vector<CollisionStyle> styles{CollisionStyle::smem, CollisionStyle::direct};
  std::vector<i64> sizes;
  std::vector<int> rhos{16, 32};
  std::vector<std::string> maps;
  bench::RunOptions run;
};

// ---- write bandwidth -------------------------------------------------------------------------
__global__ void write_bw_kernel(float4* __restrict__ out, u64 n4, float v) {
  const u64 k = u64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n4) out[k] = make_float4(v, v, v, v);
}
struct WriteBw {
  u64 bytes = 0;
  gpu::Stats s;
  double gbps() const { return s.median_ms > 0 ? double(bytes) / (s.median_ms * 1e6) : 0; }
};
WriteBw measure_write_bw(int warmup, int reps) {
  size_t free_b = 0, total_b = 0;
  TD_CUDA(cudaMemGetInfo(&free_b, &total_b));
  u64 bytes = std::min<u64>(u64(4) << 30, (u64(free_b) / 2) & ~u64(0xfffff));
  const u64 n4 = bytes / sizeof(float4);
  DevBuf<float4> buf(size_t(n4), "write-bandwidth buffer");
  const unsigned threads = 256;
  const u64 blocks = (n4 + threads - 1) / threads;
  WriteBw w;
  w.bytes = n4 * sizeof(float4);
  w.s = gpu::time_events(
      [&] {
        write_bw_kernel<<<unsigned(blocks), threads>>>(buf.get(), n4, 1.0f);
        TD_LAUNCHED();
      },
      warmup, std::max(reps, 5));
  return w;
}

// ---- CSV ------------------------------------------------------------------------------------
// edm.csv and collision.csv: layout::edm, each row by column name (bench_apps_rows.hpp).
using rows::apps2d_row;
void write_bw_row(results::CsvFile& csv, const std::string& test, const WriteBw& w) {
  rows::Apps2dRow r;
  r.test = test;
  r.variant = "-";
  r.map = results::kWriteBwMap;
  r.exact = true;
  r.bytes = w.bytes;
  r.stats = w.s;
  r.bandwidth = true;
  csv.row(apps2d_row(r));
}

// ---- one map at one point ------------------------------------------------------------------
struct Entry {
  std::string map;
  any_plan2 plan;  // the map's own Params (tdmaps/registry.hpp)
  bool exact = true;
  std::function<void()> launch;
};
std::vector<gpu::Stats> time_entries(bench::Interleaved& timer, const std::vector<Entry>& es) {
  std::vector<std::function<void()>> fns;
  for (const auto& e : es) fns.push_back(e.launch);
  return timer.time(fns);
}

// Plans map `name` for (N, rho): exact if it can, else (with --allow-inexact) inexact.
template <class K>
bool plan_for(const K& k, i64 N, int rho, bool allow_inexact, any_plan2& p, bool& exact) {
  std::string why;
  const auto r = bench::try_plan([&](bool inexact) { return k.plan(N, rho, inexact); }, allow_inexact, exact, why);
  if (r) p = *r;
  return r.has_value();
}

// Verification at a small size: check(plan) for kernel k (described by `what`) at (N, rho), if its
// plan accepts N (false if not); a failure is one line and exit 1 (nothing is timed).
template <class K, class Check>
bool verify_at(const K& k, i64 N, int rho, bool allow_inexact, const std::string& what, Check check) {
  any_plan2 p;
  bool exact;
  if (!plan_for(k, N, rho, allow_inexact, p, exact)) return false;
  const auto r = check(p);
  if (!r.ok) {
    std::fprintf(stderr, "error: %s rho=%d fails verification at N=%lld: %s; not timing it\n", what.c_str(), rho,
                 (long long)N, r.msg.c_str());
    std::exit(1);
  }
  return true;
}

// Plans kernel k of map `map` (named `label`) for (N, rho) and adds its entry to es, its launch
// launcher(plan). Nothing, with one note per label and rho, when its plan refuses N or it could not be
// verified at the small sizes.
template <class K, class Launcher>
void admit(std::vector<Entry>& es, const char* tag, const std::string& map, const std::string& label, const K& k, i64 N,
           int rho, const Options& o, bool verified, std::set<std::string>& warned, Launcher launcher) {
  Entry e;
  e.map = map;
  if (!plan_for(k, N, rho, o.run.allow_inexact, e.plan, e.exact)) {
    if (warned.insert(label + "/" + std::to_string(rho)).second)
      std::fprintf(stderr, "[%s] %s rho=%d does not accept N=%lld (and maybe others); skipped there\n", tag,
                   label.c_str(), rho, (long long)N);
    return;
  }
  if (!verified) {
    if (warned.insert("unverified/" + label + "/" + std::to_string(rho)).second)
      std::fprintf(stderr, "[%s] %s rho=%d could not be verified at small N; not timed\n", tag, label.c_str(), rho);
    return;
  }
  e.launch = launcher(e.plan);
  es.push_back(std::move(e));
}

// Small sizes every kernel is verified at before it is timed: one that is not a
// multiple of rho, one that REC accepts.
const i64 verify_sizes[] = {999, 1024};

// ---- EDM ------------------------------------------------------------------------------------
std::vector<std::string> edm_run_maps(const Options& o) {
  std::vector<std::string> v;
  const std::string bb = reference_map(tdmaps::BB::name), bb_fast = reference_map(std::string(tdmaps::BB::name) + tdmaps::fast_suffix);
  bool plain = false, fast = false;
  for (const auto& m : o.maps) {
    bool known = false;
    for (const auto& n : edm_map_names()) known = known || n == m;
    if (!known) continue;  // a collision-only name
    (reference_map(m) == bb ? plain : fast) = true;
  }
  if (plain) v.push_back(bb);
  if (fast) v.push_back(bb_fast);
  for (const auto& m : o.maps) {
    bool known = false;
    for (const auto& n : edm_map_names()) known = known || n == m;
    if (known && m != "bb" && m != "bb-fast") v.push_back(m);
  }
  return v;
}

// Verifies every (layout, d, rho, map) at the small sizes; returns the set that passed
// (keyed "map/d/layout/rho"); exits 1 on a failure.
std::set<std::string> verify_edm(const Options& o, const std::vector<std::string>& maps) {
  std::set<std::string> ok;
  const i64 Nmax = *std::max_element(std::begin(verify_sizes), std::end(verify_sizes));
  DevBuf<float> d_pts(size_t(Nmax) * edm::max_features, "EDM points (verification)");
  DevBuf<float> d_out(size_t(edm_capacity(Nmax, EdmOutput::full)), "EDM output (verification)");
  int n = 0;
  for (i64 N : verify_sizes) {
    const EdmCells cells = edm_cells(N);
    EdmVerifier ver;
    for (int d : o.features) {
      const auto pts = make_points(N, d);
      upload(d_pts.get(), pts);
      ver.prepare(cells, d, pts);
      for (EdmOutput L : o.layouts)
        for (int rho : o.rhos)
          for (const auto& m : maps) {
            const EdmKernel* k = find_edm(m, d, L);
            const auto run = [&](const any_plan2& p) { return ver.run(*k, p, d_pts.get(), d_out.get(), d_out.size()); };
            const std::string what = "edm " + m + " d=" + std::to_string(d) + " " + edm::layout_name(L);
            if (!verify_at(*k, N, rho, o.run.allow_inexact, what, run)) continue;
            ++n;
            ok.insert(m + "/" + std::to_string(d) + "/" + edm::layout_name(L) + "/" + std::to_string(rho));
          }
    }
  }
  std::fprintf(stderr, "[edm] %d kernel configurations verified against the float64 reference\n", n);
  return ok;
}

void run_edm(const Options& o, const bench::Session& session, bench::Interleaved& timer, const WriteBw& bw) {
  const auto maps = edm_run_maps(o);
  if (maps.empty()) {
    std::fprintf(stderr, "[edm] no EDM map selected; skipped\n");
    return;
  }
  const auto verified = verify_edm(o, maps);
  const auto csv = session.table(results::layout::edm);
  write_bw_row(*csv, results::apps_test::edm, bw);

  const i64 Nmax = *std::max_element(o.sizes.begin(), o.sizes.end());
  u64 cap = 0;
  for (EdmOutput L : o.layouts) cap = std::max(cap, edm::out_elems(Nmax, L));
  DevBuf<float> d_pts(size_t(Nmax) * edm::max_features, "EDM points");
  DevBuf<float> d_out(size_t(cap), "EDM output (largest N)");
  bench::Progress progress("edm", o.sizes.size());
  std::set<std::string> warned;
  // For the summary: per (layout, d), the worst over N >= 16384 of the best map's share
  // of the write bandwidth.
  std::map<std::pair<std::string, i64>, std::pair<double, std::string>> best_at;  // (layout d, N) -> best
  for (size_t ni = 0; ni < o.sizes.size(); ++ni) {
    const i64 N = o.sizes[ni];
    const u64 bytes = edm::written_elems(N) * sizeof(float);
    for (EdmOutput L : o.layouts)
      for (int d : o.features) {
        upload(d_pts.get(), make_points(N, d));
        for (int rho : o.rhos) {
          std::vector<Entry> es;
          for (const auto& m : maps) {
            const EdmKernel* k = find_edm(m, d, L);
            const bool ok = verified.count(m + "/" + std::to_string(d) + "/" + edm::layout_name(L) + "/" + std::to_string(rho));
            const float* pts = d_pts.get();
            float* out = d_out.get();
            admit(es, "edm", m, m, *k, N, rho, o, ok, warned,
                  [k, pts, out](const any_plan2& p) { return [k, p, pts, out] { k->launch(p, pts, out); }; });
          }
          const std::vector<gpu::Stats> st = time_entries(timer, es);
          std::map<std::string, double> med;
          for (size_t q = 0; q < es.size(); ++q) med[es[q].map] = st[q].median_ms;
          double best = 0;
          std::string best_map;
          for (size_t q = 0; q < es.size(); ++q) {
            const auto ref = med.find(reference_map(es[q].map));
            rows::Apps2dRow r;
            r.test = results::apps_test::edm;
            r.variant = edm::layout_name(L);
            r.features = d;
            r.N = N;
            r.rho = rho;
            r.map = es[q].map;
            r.exact = es[q].exact;
            r.bytes = bytes;
            r.stats = st[q];
            r.bb_median_ms = ref == med.end() ? NAN : ref->second;
            r.bandwidth = true;
            csv->row(apps2d_row(r));
            const double gbps = double(bytes) / (st[q].median_ms * 1e6);
            if (gbps > best) { best = gbps; best_map = es[q].map + " rho=" + std::to_string(rho); }
          }
          if (N >= 16384 && !es.empty()) {
            auto& b = best_at[{std::string(edm::layout_name(L)) + " d=" + std::to_string(d), N}];
            if (best / bw.gbps() > b.first) b = {best / bw.gbps(), best_map + " at N=" + std::to_string(N)};
          }
        }
      }
    progress.step("N=%lld", (long long)N);
  }
  std::fprintf(stderr, "[edm] done in %.0f s -> %s\n", progress.seconds(), csv->path().c_str());
  std::map<std::string, std::pair<double, std::string>> share;  // layout d -> worst N's best
  for (const auto& [key, v] : best_at) {
    auto it = share.find(key.first);
    if (it == share.end() || v.first < it->second.first) share[key.first] = v;
  }
  for (const auto& [key, v] : share)
    std::fprintf(stderr, "[edm] %s: best map reaches >= %.1f%% of the write bandwidth at every N >= 16384 "
                 "(lowest: %s)\n", key.c_str(), 100 * v.first, v.second.c_str());
}

// ---- collision --------------------------------------------------------------------------------
// The maps that run in a style: the selected maps that have a kernel of that style, bb first.
std::vector<std::string> collision_run_maps(const Options& o, CollisionStyle style) {
  std::vector<std::string> v;
  for (const auto& m : o.maps)
    if (find_collision(m, 3, style)) v.push_back(m);
  if (!v.empty() && std::find(v.begin(), v.end(), "bb") == v.end()) v.insert(v.begin(), "bb");
  return v;
}
std::string collision_test(CollisionStyle style) {
  return style == CollisionStyle::smem ? results::apps_test::collision : results::apps_test::collision_direct;
}

void run_collision(const Options& o, const bench::Session& session, bench::Interleaved& timer, const WriteBw& bw) {
  std::vector<std::pair<CollisionStyle, std::vector<std::string>>> runs;
  for (CollisionStyle st : o.styles) {
    auto maps = collision_run_maps(o, st);
    if (!maps.empty()) runs.emplace_back(st, std::move(maps));
  }
  if (runs.empty()) {
    std::fprintf(stderr, "[collision] no collision map selected; skipped\n");
    return;
  }
  const auto key = [](const std::string& m, CollisionStyle st, int dim, int rho) {
    return m + "/" + coll::style_name(st) + "/" + std::to_string(dim) + "/" + std::to_string(rho);
  };
  // Verify every (style, dim, rho, map) at the small sizes first.
  std::set<std::string> verified;
  int n = 0;
  for (i64 N : verify_sizes)
    for (int dim : o.dims) {
      CollisionVerifier ver;
      ver.prepare(N, dim);
      for (const auto& [st, maps] : runs)
        for (int rho : o.rhos)
          for (const auto& m : maps) {
            const CollisionKernel* k = find_collision(m, dim, st);
            const auto run = [&](const any_plan2& p) { return ver.run(*k, p); };
            if (!verify_at(*k, N, rho, o.run.allow_inexact, "collision " + k->label() + " " + std::to_string(dim) + "D", run))
              continue;
            ++n;
            verified.insert(key(m, st, dim, rho));
          }
    }
  std::fprintf(stderr, "[collision] %d kernel configurations verified against the CPU reference\n", n);

  const auto csv = session.table(results::layout::collision);
  write_bw_row(*csv, results::apps_test::collision, bw);
  const i64 Nmax = *std::max_element(o.sizes.begin(), o.sizes.end());
  DevBuf<float4> d_s(size_t(Nmax), "spheres");
  DevBuf<u32> d_counts(size_t(Nmax), "collision counts");
  DevBuf<unsigned long long> d_total(1, "collision total");
  TD_CUDA(cudaMemset(d_counts.get(), 0, size_t(Nmax) * sizeof(u32)));
  TD_CUDA(cudaMemset(d_total.get(), 0, sizeof(unsigned long long)));
  bench::Progress progress("collision", o.sizes.size());
  std::set<std::string> warned;
  for (const i64 N : o.sizes) {
    for (int dim : o.dims) {
      if (dim == 3) {
        const auto s = make_spheres<3>(N);
        TD_CUDA(cudaMemcpy(d_s.get(), s.data(), s.size() * sizeof(s[0]), cudaMemcpyHostToDevice));
      } else {
        const auto s = make_spheres<1>(N);
        TD_CUDA(cudaMemcpy(d_s.get(), s.data(), s.size() * sizeof(s[0]), cudaMemcpyHostToDevice));
      }
      for (const auto& [style, maps] : runs)
        for (int rho : o.rhos) {
          std::vector<Entry> es;
          for (const auto& m : maps) {
            const CollisionKernel* k = find_collision(m, dim, style);
            const void* s = d_s.get();
            u32* c = d_counts.get();
            unsigned long long* t = d_total.get();
            // Counts accumulate over the launches (no reset inside the timed region).
            admit(es, "collision", m, k->label(), *k, N, rho, o, verified.count(key(m, style, dim, rho)) > 0, warned,
                  [k, s, c, t](const any_plan2& p) { return [k, p, s, c, t] { k->launch(p, s, c, t); }; });
          }
          if (es.empty() || es[0].map != "bb") continue;  // no reference here
          const std::vector<gpu::Stats> st = time_entries(timer, es);
          for (size_t q = 0; q < es.size(); ++q) {
            rows::Apps2dRow r;
            r.test = collision_test(style);
            r.variant = dim == 3 ? results::collision_dim::d3 : results::collision_dim::d1;
            r.features = dim;
            r.N = N;
            r.rho = rho;
            r.map = es[q].map;
            r.exact = es[q].exact;
            r.stats = st[q];
            r.bb_median_ms = st[0].median_ms;
            csv->row(apps2d_row(r));
          }
        }
    }
    progress.step("N=%lld", (long long)N);
  }
  std::fprintf(stderr, "[collision] done in %.0f s -> %s\n", progress.seconds(), csv->path().c_str());
}

// Points (interleaved timings) of the run, for the budget.
long points_of(const Options& o) {
  long p = 0;
  if (o.edm) p += long(o.sizes.size() * o.layouts.size() * o.features.size() * o.rhos.size());
  if (o.collision) p += long(o.sizes.size() * o.dims.size() * o.styles.size() * o.rhos.size());
  return p;
}

std::vector<std::string> app_map_names() {
  std::vector<std::string> all = edm_map_names();
  for (const auto& n : collision_map_names())
    if (std::find(all.begin(), all.end(), n) == all.end()) all.push_back(n);
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> test{"all"}, features{"1,2,3,4"}, layout{"both"}, dim{"both"}, style{"smem,direct"},
      rho{"16,32"}, n_args{"1024:30720:1024"};
  // the registry's default (the maps whose traits join experiment::apps_default, then the fast EDM
  // kernels of those joining experiment::fast_default); "all": every map with a kernel here
  const std::string default_maps = map_names_csv(joining_t<experiment::apps_default>{}) + "," +
                                   map_names_csv(joining_t<experiment::fast_default>{}, tdmaps::fast_suffix);
  std::vector<std::string> maps{default_maps};
  Options o;
  o.run = bench::RunOptions::with(20, 3, 5, 600);  // reps, warmup, min_reps, budget_s
  bench::Cli cli("bench_apps", "bench_apps: EDM and collision detection over the 2D maps (000 §V, 001 §IV)\noptions");
  cli.add()("test", po::value(&test)->composing(), "edm | collision | all (default all)")
      ("features", po::value(&features)->composing(), "EDM: comma list of 1..4 (default 1,2,3,4)")
      ("layout", po::value(&layout)->composing(), "EDM: full | packed | both (default both)")
      ("dim", po::value(&dim)->composing(), "collision: 3 | 1 | both (default both)")
      ("style", po::value(&style)->composing(),
       "collision kernel styles: smem (test=collision, the papers' shared-memory kernel, blockwise maps), "
       "direct (test=collision-direct, no shared memory, every map), both (default smem,direct)")
      ("N", po::value(&n_args)->composing(),
       "sizes: comma list and/or ranges A:B:STEP (default 1024:30720:1024; --quick: 2048,8192,16384,30720)")
      ("rho", po::value(&rho)->composing(), "comma list of block sides (1..32); fast EDM tiles are 4*rho (default 16,32; --quick: 16)")
      ("maps", po::value(&maps)->composing(),
       ("comma list (default " + default_maps + "), or all (every map with a kernel here); a map runs where it has "
        "a kernel (EDM: -fast variants; collision: a style); bb / bb-fast are always timed as the I reference").c_str());
  cli.add_run_options(o.run);
  cli.parse(argc, argv);
  cli.check([&] {
    const std::string t = bench::parse_names(test, "--test", {"edm", "collision", "all"}).front();
    o.edm = t != "collision";
    o.collision = t != "edm";
    o.features = bench::parse_small_ints(features, "--features", 1, 4);
    const std::string l =
        bench::parse_names(layout, "--layout", {results::edm_variant::full, results::edm_variant::packed, "both"}).front();
    if (l == results::edm_variant::full) o.layouts = {EdmOutput::full};
    else if (l == results::edm_variant::packed) o.layouts = {EdmOutput::packed};
    const std::string d = bench::parse_names(dim, "--dim", {"3", "1", "both"}).front();
    if (d == "3") o.dims = {3};
    else if (d == "1") o.dims = {1};
    o.styles.clear();
    for (const auto& s : bench::parse_names(style, "--style", {"smem", "direct", "both"})) {
      for (CollisionStyle cs : {CollisionStyle::smem, CollisionStyle::direct})
        if ((s == "both" || (s == "smem") == (cs == CollisionStyle::smem)) &&
            std::find(o.styles.begin(), o.styles.end(), cs) == o.styles.end())
          o.styles.push_back(cs);
    }
    o.rhos = bench::parse_small_ints(rho, "--rho", 1, 32);
    std::vector<std::string> all2d;
    for_each_map(maps2d{}, [&](auto m) { all2d.push_back(decltype(m)::name); });
    o.maps = maps.size() == 1 && maps.front() == "all"
                 ? app_map_names()
                 : bench::parse_available(maps, "--maps", app_map_names(), all2d, "bench_apps (no EDM or collision kernel for it)");
    if (o.run.quick) {
      if (!cli.given("N")) n_args = {"2048,8192,16384,30720"};
      if (!cli.given("rho")) o.rhos = {16};
      if (!cli.given("reps")) o.run.reps = 10;
      o.run.min_reps = std::min(o.run.min_reps, o.run.reps);
    }
    o.sizes = bench::parse_ints(n_args, "--N", 1, i64(1) << 31);
  });

  {  // the prediction-and-refusal policy (bench/predict.hpp), before any CUDA call: EDM writes
     // N^2 x features x 4 bytes (packed: half), collision tests N^2 pairs, per map, at the stated rates
    std::vector<double> rounds;
    const double maps = double(o.maps.size());
    for (i64 N : o.sizes) {
      const double n2 = double(N) * double(N);
      if (o.edm)
        for (EdmOutput l : o.layouts)
          for (int ft : o.features)
            for (size_t r = 0; r < o.rhos.size(); ++r)
              rounds.push_back(maps * n2 * ft * 4 * (l == EdmOutput::packed ? 0.5 : 1.0) / bench::model::gpu_bytes_per_s);
      if (o.collision)
        for (size_t k = 0; k < o.dims.size() * o.styles.size() * o.rhos.size(); ++k)
          rounds.push_back(maps * n2 / bench::model::gpu_pairs2d_per_s);
    }
    bench::Forecast f;
    f.add("GPU timing", bench::sweep_seconds(rounds, o.run));
    bench::refuse_or_go("bench_apps", f, o.run);
  }
  bench::Session session("bench_apps", argc, argv, o.run);
  std::fprintf(stderr, "bench_apps on %s: %zu sizes (%lld..%lld), rho", session.prop().name, o.sizes.size(),
               (long long)o.sizes.front(), (long long)o.sizes.back());
  for (int r : o.rhos) std::fprintf(stderr, " %d", r);
  std::fprintf(stderr, ", reps %d (>= %d within --budget-s %.0f), warmup %d\n", o.run.reps, o.run.min_reps,
               o.run.budget_s, o.run.warmup);
  const WriteBw bw = measure_write_bw(o.run.warmup, o.run.reps);
  std::fprintf(stderr, "write bandwidth: %.1f GB/s (%llu MiB, float4 stores, median of %d)\n", bw.gbps(),
               (unsigned long long)(bw.bytes >> 20), bw.s.reps);
  bench::Budget budget(o.run.budget_s, points_of(o));
  bench::Interleaved timer(o.run, budget);
  if (o.edm) run_edm(o, session, timer, bw);
  if (o.collision) run_collision(o, session, timer, bw);
  return 0;
}
