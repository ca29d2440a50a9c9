// experiments/maps2d/bench_maps.cu — the dummy-kernel and square-root experiments
// of 000_dc8ca915cfc23e3c.txt:
//   --test dummy  §V, test (1), Fig. 5: every map against BB on the dummy kernel
//                 (the cost of the map alone); default maps bb, ltm-r, ltm-e, rb,
//                 rec, utm-n.
//   --test sqrt   §IV-A, Fig. 3: LTM with each square root (LTM-X sqrtf, LTM-N
//                 Newton from 0x5f3759df, LTM-R x*rsqrtf(x), eq. (15); plus LTM-D
//                 double sqrt and LTM-E exact) against BB.
// The improvement factor is I = t_BB / t_map (§III-B, eq. (10)); I > 1 means the
// map beats the bounding box.
//
// For every N and rho, BB and every map are timed in the same run, interleaved:
// round after round (--rounds), each map gets its share of the --reps timed
// launches in turn, and each row reports statistics over all of its launches.
// Each launch (all passes of a multi-pass map such as REC) is timed with CUDA
// events. A map is never timed before its coverage kernel has been checked on the
// GPU against the CPU expectation (every cell exactly once) at a small N.
//
// Output: <out>/<gpu_slug>/<test>.csv, first line "# " + metadata JSON, then one
// row per (test, form, N, rho, map); see README.md beside this file.
#include "gpu_skip.cuh"
#include "maps2d_host.hpp"

#include <gpu/dummy.cuh>
#include <tdmaps/counts.hpp>

#include <boost/program_options.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <tuple>

namespace po = boost::program_options;
using namespace tdmaps;
using namespace tdmaps::gpu;
using namespace tdmaps::exp2d;

namespace {

enum class Form { store, cond };
const char* form_name(Form f) { return f == Form::store ? "store" : "cond"; }

// One map, type-erased: everything the sweep does with it calls the map policy M.
struct MapEntry {
  std::string name;
  std::function<Plan2(i64, int, bool)> plan;  // throws unsupported
  std::function<void(const Plan2&, Form, int*)> launch;
  std::function<Counts(const Plan2&)> counts;
  std::function<std::string(const Plan2&, CoverageBuffers&)> verify;  // "" when exact
};

template <class M>
MapEntry make_entry() {
  MapEntry e;
  e.name = M::name;
  e.plan = [](i64 N, int rho, bool allow) { return M::plan(N, rho, allow); };
  e.launch = [](const Plan2& p, Form f, int* out) {
    if (f == Form::store) launch2<M>(TD_KERNEL_FOR(dummy_store<M, I>), p, out);
    else launch2<M>(TD_KERNEL_FOR(dummy_cond<M, I>), p, out, dummy_never);
  };
  e.counts = [](const Plan2& p) { return counts2<M>(p); };
  e.verify = [](const Plan2& p, CoverageBuffers& buf) {
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
  std::string test, out_dir;
  std::vector<i64> ns;
  std::vector<int> rhos;
  std::vector<std::string> maps;  // "bb" first
  std::vector<Form> forms;
  int reps = 30, warmup = 5, rounds = 3, min_reps = 10;
  double budget_s = 50;
  bool allow_inexact = false;
  bool skip_if_no_gpu = false;
};

[[noreturn]] void bad(const std::string& msg) {
  std::fprintf(stderr, "bench_maps: %s\n", msg.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  i64 from = 1024, to = 30720, step = 1024;
  std::vector<std::string> rho_args, map_args;
  std::string form = "both";
  po::options_description d(
      "bench_maps: dummy-kernel and square-root experiments (000_dc8ca915cfc23e3c.txt §IV-A, §V)\noptions");
  d.add_options()("help,h", "show this help")
      ("test", po::value<std::string>(&o.test)->required(), "dummy | sqrt")
      ("N-from", po::value<i64>(&from)->default_value(1024), "first N")
      ("N-to", po::value<i64>(&to)->default_value(30720), "last N (inclusive)")
      ("N-step", po::value<i64>(&step)->default_value(1024), "N increment")
      ("rho", po::value<std::vector<std::string>>(&rho_args)->composing(), "block side(s), repeatable or comma list (default 16,32)")
      ("maps", po::value<std::vector<std::string>>(&map_args)->composing(),
       "maps, comma list; bb is always timed as the reference (dummy default: bb,ltm-r,ltm-e,rb,rec,utm-n; "
       "sqrt default: bb,ltm-x,ltm-n,ltm-r,ltm-d,ltm-e)")
      ("reps", po::value<int>(&o.reps)->default_value(30), "timed launches per map and configuration")
      ("warmup", po::value<int>(&o.warmup)->default_value(5), "untimed launches per map and configuration")
      ("rounds", po::value<int>(&o.rounds)->default_value(3), "interleaved rounds the reps are split into")
      ("form", po::value<std::string>(&form)->default_value("both"), "store | cond | both (dummy kernel form)")
      ("out", po::value<std::string>(&o.out_dir)->default_value("experiments/results"), "results folder")
      ("allow-inexact", po::bool_switch(&o.allow_inexact),
       "also time float maps past their proven exact range (rows get exact=0)")
      ("budget-s", po::value<double>(&o.budget_s)->default_value(50),
       "time budget of the warm-up and timed launches in seconds; reps shrink (not below 10) only when the "
       "sweep would overrun it; 0 = no budget")
      ("quick", po::bool_switch(), "N in {2048, 8192, 16384, 30720}, rho 16, reps 10 (for make figures)")
      ("skip-if-no-gpu", po::bool_switch(&o.skip_if_no_gpu), "exit 77 (meson's skip code) when there is no GPU");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, d), vm);
    if (vm.count("help")) {
      std::cout << d << "\n";
      std::exit(0);
    }
    po::notify(vm);
  } catch (const std::exception& e) {
    bad(e.what());
  }
  try {
    if (o.test != "dummy" && o.test != "sqrt") throw bad_input("--test must be dummy or sqrt (got '" + o.test + "')");
    const bool quick = vm["quick"].as<bool>();
    if (quick && vm["N-from"].defaulted() && vm["N-to"].defaulted() && vm["N-step"].defaulted()) {
      o.ns = {2048, 8192, 16384, 30720};
    } else {
      o.ns = sweep_ns(from, to, step);
    }
    if (rho_args.empty()) rho_args = {quick ? "16" : "16,32"};
    o.rhos = parse_rhos(rho_args);
    if (quick && vm["reps"].defaulted()) o.reps = 10;
    if (map_args.empty())
      map_args = {o.test == "dummy" ? "bb,ltm-r,ltm-e,rb,rec,utm-n" : "bb,ltm-x,ltm-n,ltm-r,ltm-d,ltm-e"};
    std::vector<std::string> maps = parse_maps(map_args);
    o.maps = {"bb"};
    for (const std::string& m : maps)
      if (m != "bb") o.maps.push_back(m);
    if (form == "store") o.forms = {Form::store};
    else if (form == "cond") o.forms = {Form::cond};
    else if (form == "both") o.forms = {Form::store, Form::cond};
    else throw bad_input("--form must be store, cond or both (got '" + form + "')");
    if (o.reps < 1) throw bad_input("--reps must be >= 1");
    if (o.warmup < 0) throw bad_input("--warmup must be >= 0");
    if (o.rounds < 1) throw bad_input("--rounds must be >= 1");
    if (o.budget_s < 0) throw bad_input("--budget-s must be >= 0");
    o.rounds = std::min(o.rounds, o.reps);
    o.min_reps = std::min(10, o.reps);
  } catch (const bad_input& e) {
    bad(e.what());
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One timed launch of a map (all its passes), in milliseconds.
double time_one(const MapEntry& m, const Plan2& p, Form f, int* out) {
  return time_events([&] { m.launch(p, f, out); }, 0, 1).median_ms;
}

// A map ready to be timed at one (N, rho).
struct Slot {
  const MapEntry* map;
  Plan2 plan;
  bool exact;
  Counts counts;
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);  // bad input exits 2 before any CUDA call
  if (o.skip_if_no_gpu) exit_77_without_gpu("bench_maps");
  require_gpu();
  cudaDeviceProp prop{};
  {
    int dev = 0;
    TD_CUDA(cudaGetDevice(&dev));
    TD_CUDA(cudaGetDeviceProperties(&prop, dev));
  }
  const std::string dir = o.out_dir + "/" + gpu_slug(prop);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) die("cannot create " + dir + ": " + ec.message());
  const std::string path = dir + "/" + o.test + ".csv";
  Csv csv(path, metadata_json("bench_maps", join_args(argc, argv)),
          "test,form,N,rho,map,exact,passes,launched_blocks,useful_blocks,wasted_blocks,launched_threads,"
          "useful_threads,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,bb_median_ms,I,index_bits");

  std::vector<MapEntry> entries;
  for (const std::string& m : o.maps) entries.push_back(entry_for(m));
  int* out = device_alloc<int>(1, "the dummy output");
  TD_CUDA(cudaMemset(out, 0, sizeof(int)));
  CoverageBuffers cov;
  std::set<std::pair<std::string, int>> verified;

  // Verify map m at rho on the GPU before its first timing: at N = 1000 when its
  // plan accepts it, else at the first N of the sweep it accepts, else at N itself.
  const auto verify_once = [&](const MapEntry& m, int rho, const Plan2& current) {
    if (verified.count({m.name, rho})) return;
    std::vector<i64> cand = {1000};
    cand.insert(cand.end(), o.ns.begin(), o.ns.end());
    Plan2 p = current;
    for (i64 N : cand) {
      try {
        p = m.plan(N, rho, false);
        break;
      } catch (const unsupported&) {
      }
    }
    const std::string err = m.verify(p, cov);
    if (!err.empty())
      die("coverage check failed for " + m.name + " N=" + std::to_string(p.N) + " rho=" + std::to_string(rho) + ": " + err);
    std::fprintf(stderr, "verified %s at N=%lld rho=%d: every cell exactly once\n", m.name.c_str(), (long long)p.N, rho);
    verified.insert({m.name, rho});
  };

  const auto t0 = std::chrono::steady_clock::now();
  double timed_s = 0;  // seconds spent warming up and timing (what the budget limits)
  std::map<std::tuple<std::string, i64, int>, Counts> counts_cache;
  for (size_t ni = 0; ni < o.ns.size(); ++ni) {
    const i64 N = o.ns[ni];
    // ---- the maps that run at this N, per rho -------------------------------------
    std::vector<std::pair<int, std::vector<Slot>>> per_rho;
    for (int rho : o.rhos) {
      std::vector<Slot> slots;
      for (const MapEntry& m : entries) {
        Slot s{&m, Plan2{}, true, Counts{}};
        try {
          s.plan = m.plan(N, rho, false);
        } catch (const unsupported& e) {
          bool ok = false;
          if (o.allow_inexact) {
            try {
              s.plan = m.plan(N, rho, true);
              s.exact = false;
              ok = true;
            } catch (const unsupported&) {
            }
          }
          if (!ok) {
            std::fprintf(stderr, "note: skipped %s at N=%lld rho=%d: %s\n", m.name.c_str(), (long long)N, rho, e.what());
            if (m.name == "bb") break;  // no reference: the whole rho is skipped
            continue;
          }
        }
        verify_once(m, rho, s.plan);
        const auto key = std::make_tuple(m.name, N, rho);
        auto it = counts_cache.find(key);
        if (it == counts_cache.end()) it = counts_cache.emplace(key, m.counts(s.plan)).first;
        s.counts = it->second;
        slots.push_back(s);
      }
      if (!slots.empty() && slots.front().map->name == "bb") per_rho.emplace_back(rho, std::move(slots));
    }
    // ---- warm-up, and one timed launch per map to size the budget ----------------------
    const auto tn = std::chrono::steady_clock::now();
    double est_ms = 0;
    for (auto& [rho, slots] : per_rho)
      for (Form f : o.forms)
        for (const Slot& s : slots) {
          for (int w = 0; w < o.warmup; ++w) s.map->launch(s.plan, f, out);
          est_ms += time_one(*s.map, s.plan, f, out);
        }
    int reps = o.reps;
    if (o.budget_s > 0) {
      const std::vector<i64> left(o.ns.begin() + long(ni), o.ns.end());
      reps = budget_reps(o.reps, o.min_reps, est_ms, o.budget_s, o.budget_s - timed_s - seconds_since(tn), N, left);
    }
    const int rounds = std::min(o.rounds, reps);
    // ---- timing: BB and every map interleaved, round after round -------------------------
    for (auto& [rho, slots] : per_rho)
      for (Form f : o.forms) {
        std::vector<std::vector<float>> samples(slots.size());
        for (int r = 0; r < rounds; ++r)
          for (size_t k = 0; k < slots.size(); ++k)
            for (int s = 0, n = reps_in_round(reps, rounds, r); s < n; ++s)
              samples[k].push_back(float(time_one(*slots[k].map, slots[k].plan, f, out)));
        const Stats bb = summarize(samples[0]);
        for (size_t k = 0; k < slots.size(); ++k) {
          const Slot& s = slots[k];
          const Stats st = summarize(samples[k]);
          const Counts& c = s.counts;
          csv.row(o.test + "," + form_name(f) + "," + std::to_string(N) + "," + std::to_string(rho) + "," +
                  s.map->name + "," + (s.exact ? "1" : "0") + "," + std::to_string(s.plan.passes) + "," +
                  std::to_string(c.launched_blocks) + "," + std::to_string(c.useful_blocks) + "," +
                  std::to_string(c.wasted_blocks()) + "," + std::to_string(c.launched_threads) + "," +
                  std::to_string(c.useful_threads) + "," + std::to_string(st.reps) + "," + fmt(st.median_ms) + "," +
                  fmt(st.p25_ms) + "," + fmt(st.p75_ms) + "," + fmt(st.min_ms) + "," + fmt(st.max_ms) + "," +
                  fmt(bb.median_ms) + "," + fmt(st.median_ms > 0 ? bb.median_ms / st.median_ms : 0.0, 5) + "," +
                  (s.plan.narrow ? "32" : "64"));
        }
      }
    timed_s += seconds_since(tn);
    std::fprintf(stderr, "[%s] N=%lld (%zu/%zu) reps=%d  %.1f s elapsed\n", o.test.c_str(), (long long)N, ni + 1,
                 o.ns.size(), reps, seconds_since(t0));
  }
  // Read the output back: it makes the last launches' errors surface here.
  int sink = 0;
  TD_CUDA(cudaMemcpy(&sink, out, sizeof sink, cudaMemcpyDeviceToHost));
  TD_CUDA(cudaFree(out));
  std::fprintf(stderr, "wrote %s (%.1f s)\n", path.c_str(), seconds_since(t0));
  return 0;
}
