// experiments/maps2d/bench_maps.cu — the dummy-kernel and square-root experiments
// of 000_dc8ca915cfc23e3c.txt:
//   --test dummy  §V, test (1), Fig. 5: every map against BB on the dummy kernel
//                 (the cost of the map alone); default maps: the registry's list
//                 maps2d_dummy (src/support/registry/experiments.hpp; --help prints it).
//   --test sqrt   §IV-A, Fig. 3: LTM with each square root (LTM-X sqrtf, LTM-N
//                 Newton from 0x5f3759df, LTM-R x*rsqrtf(x), eq. (15); plus LTM-D
//                 double sqrt and LTM-E exact), and their square-block variants,
//                 against BB; default maps: the registry's list maps2d_sqrt.
// The improvement factor is I = t_BB / t_map (§III-B, eq. (10)); I > 1 means the
// map beats the bounding box.
//
// For every N and rho, BB and every map are timed in the same run, interleaved
// launch by launch by the harness's timer (src/support/bench/gpu.cuh; reps sized by its one
// budget policy, never below --min-reps). Each launch (all passes of a multi-pass
// map such as REC) is timed with CUDA events. A map is never timed before its coverage kernel has been checked on the
// GPU against the CPU expectation (every cell exactly once) at a small N.
//
// Output: <out>/<gpu_slug>/<test>.csv, first line "# " + metadata JSON, then one
// row per (test, form, N, rho, map); see README.md beside this file.
#include "maps2d_host.hpp"

#include <bench/gpu.cuh>
#include <bench/predict.hpp>

#include <gpu/dummy.cuh>
#include <tdmaps/counts.hpp>
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)

#include <boost/program_options.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <tuple>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)
#include <select.hpp>   // results::pick_rows::form_name: the forms' words, declared once
#include "bench_maps_rows.hpp"  // the CSV row by column name (host only; verify/test_experiment_rows checks it)

namespace po = boost::program_options;
using namespace tdmaps;
using namespace tdmaps::gpu;
using namespace tdmaps::exp2d;

namespace {

enum class Form { store, cond };
// The form's word (dummy.csv's column form, --form): the readers' (results::pick_rows::form_name).
const char* form_name(Form f) {
  return results::pick_rows::form_name(f == Form::store ? results::pick_rows::Form::Store : results::pick_rows::Form::Cond);
}

// One map, type-erased: everything the sweep does with it calls the map policy M. Its plan
// is M's own Params, held as any_plan2 (tdmaps/registry.hpp) and read back by plan_of<M>.
struct MapEntry {
  std::string name;
  std::function<any_plan2(i64, int, bool)> plan;  // throws unsupported
  std::function<void(const any_plan2&, Form, int*)> launch;
  std::function<Counts(const any_plan2&)> counts;
  std::function<std::string(const any_plan2&, CoverageBuffers&)> verify;  // "" when exact
};

template <class M>
MapEntry make_entry() {
  MapEntry e;
  e.name = M::name;
  e.plan = [](i64 N, int rho, bool allow) { return any_plan2(M::plan(N, rho, allow)); };
  e.launch = [](const any_plan2& a, Form f, int* out) {
    const typename M::Params& p = plan_of<M>(a);
    if (f == Form::store) launch_checked<M>(p, TD_KERNEL_FOR(dummy_store<M, Index>), out);
    else launch_checked<M>(p, TD_KERNEL_FOR(dummy_cond<M, Index>), out, dummy_never);
  };
  e.counts = [](const any_plan2& a) { return counts2<M>(plan_of<M>(a)); };
  e.verify = [](const any_plan2& a, CoverageBuffers& buf) {
    const typename M::Params& p = plan_of<M>(a);
    const Counts c = counts2<M>(p);
    return check_coverage(p.N, buf.run<M>(p), (long long)c.useful_blocks);
  };
  return e;
}

MapEntry entry_for(const std::string& name) {
  MapEntry e;
  if (!with_map(maps2d{}, name.c_str(), [&](auto m) { e = make_entry<decltype(m)>(); }))
    throw bad_input("unknown map '" + name + "'");
  return e;
}

struct Options {
  std::string test;
  std::vector<i64> ns;
  std::vector<int> rhos;
  std::vector<std::string> maps;  // "bb" first
  std::vector<Form> forms;
  bench::RunOptions run;
};

Options parse(int argc, char** argv) {
  Options o;
  o.run = bench::RunOptions::with(30, 5, 10, 50);  // reps, warmup, min_reps, budget_s
  std::vector<std::string> n_args, rho_args, map_args;
  std::string form = "both";
  bench::Cli cli("bench_maps",
                 "bench_maps: dummy-kernel and square-root experiments (000_dc8ca915cfc23e3c.txt §IV-A, §V)\noptions");
  cli.add()("test", po::value<std::string>(&o.test)->required(), "dummy | sqrt (required: no default)")
      ("N", po::value<std::vector<std::string>>(&n_args)->composing(),
       "sizes: comma list and/or ranges A:B:STEP (default 1024:30720:1024, the papers' sweep; --quick: 2048,8192,16384,30720)")
      ("rho", po::value<std::vector<std::string>>(&rho_args)->composing(), "block side(s), 1..32 (default 16,32)")
      ("maps", po::value<std::vector<std::string>>(&map_args)->composing(),
       ("maps, comma list; bb is always timed as the reference (dummy default: " + map_names_csv(maps2d_dummy{}) +
        "; sqrt default: " + map_names_csv(maps2d_sqrt{}) + "; the lists of src/lib/tdmaps/registry.hpp)").c_str())
      ("form", po::value<std::string>(&form)->default_value("both"), "store | cond | both (dummy kernel form)");
  cli.add_run_options(o.run);
  cli.parse(argc, argv);
  cli.check([&] {
    o.test = bench::parse_choice(o.test, "--test", {"dummy", "sqrt"});
    if (!n_args.empty()) o.ns = bench::parse_ints(n_args, "--N", 1, i64(1) << 31);
    else if (o.run.quick) o.ns = {2048, 8192, 16384, 30720};
    else o.ns = bench::parse_ints({"1024:30720:1024"}, "--N", 1, i64(1) << 31);
    if (rho_args.empty()) rho_args = {o.run.quick ? "16" : "16,32"};
    o.rhos = parse_rhos(rho_args);
    if (o.run.quick && !cli.given("reps")) o.run.reps = 10;
    o.run.min_reps = std::min(o.run.min_reps, o.run.reps);
    if (map_args.empty())
      map_args = {o.test == "dummy" ? map_names_csv(maps2d_dummy{}) : map_names_csv(maps2d_sqrt{})};  // the registry's lists
    o.maps = {"bb"};
    for (const std::string& m : parse_maps(map_args))
      if (m != "bb") o.maps.push_back(m);
    form = bench::parse_choice(form, "--form", {form_name(Form::store), form_name(Form::cond), "both"});
    if (form == form_name(Form::store)) o.forms = {Form::store};
    else if (form == form_name(Form::cond)) o.forms = {Form::cond};
    else o.forms = {Form::store, Form::cond};
  });
  return o;
}

// A map ready to be timed at one (N, rho).
struct Slot {
  const MapEntry* map;
  any_plan2 plan;
  bool exact;
  Counts counts;
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);  // bad input exits 2 before any CUDA call
  {  // the prediction-and-refusal policy (bench/predict.hpp), before any CUDA call: BB launches
     // ~N^2 threads, a map ~N^2/2, at the stated model's rate
    std::vector<double> rounds;
    for (i64 N : o.ns)
      for (size_t k = 0; k < o.rhos.size() * o.forms.size(); ++k)
        rounds.push_back(double(N) * double(N) * (1 + 0.5 * double(o.maps.size() - 1)) / bench::model::gpu_cells2d_per_s);
    bench::Forecast f;
    f.add("GPU timing", bench::sweep_seconds(rounds, o.run));
    bench::refuse_or_go("bench_maps", f, o.run);
  }
  bench::Session session("bench_maps", argc, argv, o.run);
  const auto csv = session.table(o.test == "dummy" ? results::layout::dummy : results::layout::sqrt_);  // one layout

  std::vector<MapEntry> entries;
  for (const std::string& m : o.maps) entries.push_back(entry_for(m));
  int* out = device_alloc<int>(1, "the dummy output");
  TD_CUDA(cudaMemset(out, 0, sizeof(int)));
  CoverageBuffers cov;
  std::set<std::pair<std::string, int>> verified;

  // Verify map m at rho on the GPU before its first timing: at N = 1000 when its
  // plan accepts it, else at the first N of the sweep it accepts, else at N itself.
  const auto verify_once = [&](const MapEntry& m, int rho, const any_plan2& current) {
    if (verified.count({m.name, rho})) return;
    std::vector<i64> cand = {1000};
    cand.insert(cand.end(), o.ns.begin(), o.ns.end());
    any_plan2 p = current;
    for (i64 N : cand) {
      try {
        p = m.plan(N, rho, false);
        break;
      } catch (const unsupported&) {
      }
    }
    const std::string err = m.verify(p, cov);
    if (!err.empty())
      die("coverage check failed for " + m.name + " N=" + std::to_string(plan_base(p).N) + " rho=" + std::to_string(rho) + ": " + err);
    std::fprintf(stderr, "verified %s at N=%lld rho=%d: every cell exactly once\n", m.name.c_str(), (long long)plan_base(p).N, rho);
    verified.insert({m.name, rho});
  };

  bench::Budget budget(o.run.budget_s, long(o.ns.size() * o.rhos.size() * o.forms.size()));
  bench::Interleaved timer(o.run, budget);
  bench::Progress progress(o.test, o.ns.size());
  std::map<std::tuple<std::string, i64, int>, Counts> counts_cache;
  for (const i64 N : o.ns) {
    // ---- the maps that run at this N, per rho -------------------------------------
    std::vector<std::pair<int, std::vector<Slot>>> per_rho;
    for (int rho : o.rhos) {
      std::vector<Slot> slots;
      for (const MapEntry& m : entries) {
        Slot s{&m, any_plan2{}, true, Counts{}};
        std::string why;
        const auto plan = bench::try_plan([&](bool inexact) { return m.plan(N, rho, inexact); }, o.run.allow_inexact,
                                          s.exact, why);
        if (!plan) {
          std::fprintf(stderr, "note: skipped %s at N=%lld rho=%d: %s\n", m.name.c_str(), (long long)N, rho, why.c_str());
          if (m.name == "bb") break;  // no reference: the whole rho is skipped
          continue;
        }
        s.plan = *plan;
        verify_once(m, rho, s.plan);
        const auto key = std::make_tuple(m.name, N, rho);
        auto it = counts_cache.find(key);
        if (it == counts_cache.end()) it = counts_cache.emplace(key, m.counts(s.plan)).first;
        s.counts = it->second;
        slots.push_back(s);
      }
      if (!slots.empty() && slots.front().map->name == "bb") per_rho.emplace_back(rho, std::move(slots));
    }
    // ---- timing: BB and every map interleaved (src/support/bench/gpu.cuh) ------------------------
    int reps = 0;
    for (auto& [rho, slots] : per_rho)
      for (Form f : o.forms) {
        std::vector<std::function<void()>> launches;
        for (const Slot& s : slots) launches.push_back([&s, f, out] { s.map->launch(s.plan, f, out); });
        const std::vector<bench::Stats> st = timer.time(launches);
        reps = timer.last_reps();
        const double bb = st[0].median_ms;
        for (size_t k = 0; k < slots.size(); ++k) {
          const Slot& s = slots[k];
          const Counts& c = s.counts;
          rows::Maps2dRow r;
          r.test = o.test;
          r.form = form_name(f);
          r.N = N;
          r.rho = rho;
          r.map = s.map->name;
          r.exact = s.exact;
          r.passes = plan_base(s.plan).passes;
          r.launched_blocks = c.launched_blocks;
          r.useful_blocks = c.useful_blocks;
          r.wasted_blocks = c.wasted_blocks();
          r.launched_threads = c.launched_threads;
          r.useful_threads = c.useful_threads;
          r.stats = st[k];
          r.bb_median_ms = bb;
          r.narrow = plan_base(s.plan).narrow;
          csv->row(rows::maps2d_row(r));
        }
      }
    progress.step("N=%lld reps=%d", (long long)N, reps);
  }
  // Read the output back: it makes the last launches' errors surface here.
  int sink = 0;
  TD_CUDA(cudaMemcpy(&sink, out, sizeof sink, cudaMemcpyDeviceToHost));
  TD_CUDA(cudaFree(out));
  std::fprintf(stderr, "wrote %s (%.1f s)\n", csv->path().c_str(), progress.seconds());
  return 0;
}
