// experiments/sdh/bench_sdh.cu — the SDH experiment of the seed report
// (004_aba88004bd1c502c.txt): CPU baselines and the GPU ladder timed in one run on
// one machine, every GPU histogram checked against the CPU before it is timed.
//
//   bench_sdh [--N 10000,30000,100000,300000,1000000] [--impl all|name,...]
//             [--bucket-width 500] [--buckets 0=auto] [--threads-per-block 256]
//             [--reps 5] [--quick] [--out DIR]
//
// At each N the GPU versions are timed interleaved by the harness's timer
// (src/support/bench/gpu.cuh), with its one budget policy (--budget-s, --min-reps).
// CSV: <out>/<gpu_slug>/sdh.csv (first line "# " + metadata JSON,
// which also names the host CPU and its thread count). Progress on stderr.
// Nothing is extrapolated: a measurement that would take too long (predicted from
// the previous size, N^2 scaling) is skipped and has no row.
#include <gpu/sdh.cuh>

#include <bench/gpu.cuh>
#include <bench/predict.hpp>

#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)
#include "bench_sdh_rows.hpp"  // the CSV row by column name (host only; verify/test_experiment_rows checks it)

using namespace tdmaps;
using namespace tdmaps::gpu;
using namespace tdmaps::gpu::sdh;
namespace hs = tdmaps::sdh;
namespace po = boost::program_options;

namespace {

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

std::string pf(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// The stated GPU model of bench/predict.hpp: seconds of one run of implementation i at N.
double gpu_model_s(Impl i, i64 N) {
  double rate = bench::model::gpu_sdh_ladder_pairs_per_s;
  const Ladder l = info_of(i).ladder;
  if (is_fast(i) || is_band(i)) rate = bench::model::gpu_sdh_fast_pairs_per_s;
  else if (l == Ladder::v5 || l == Ladder::tiled_bb || l == Ladder::tiled_ltm_e) rate = bench::model::gpu_sdh_tiled_pairs_per_s;
  else if (l == Ladder::v1) rate = bench::model::gpu_sdh_v1_pairs_per_s;
  return double(hs::pair_count(N)) / rate;
}

}  // namespace

int main(int argc, char** argv) {
  bool band_named = false;                       // a band rung requested by name
  std::function<double(bool, i64)> cpu_model_s;  // CPU seconds at N (all cores / one), set below
  std::vector<std::string> n_args{"10000,30000,100000,300000,1000000"}, impl_args{"all"};
  double width = 0;
  long long buckets = 0;
  int tpb = 256, transfer_reps = 3;
  unsigned cpu_threads_opt = 0;
  double box = hs::default_box, cpu_max_s = 60, gpu_max_s = 20;
  long long cpu_st_max_n = 100000, verify_n = 4099;
  unsigned long long seed = hs::default_seed;
  bench::RunOptions run = bench::RunOptions::with(5, 1, 3, 300);  // reps, warmup, min_reps, budget_s

  bench::Cli cli("bench_sdh", "bench_sdh: Spatial Distance Histogram, CPU baselines and the GPU ladder\noptions");
  cli.add_points(n_args, "10000,30000,100000,300000,1000000");
  const std::string impl_help_text = impl_help();  // the rungs of sdh_rungs.hpp
  cli.add()("impl", po::value(&impl_args)->composing(), impl_help_text.c_str())
      ("bucket-width", po::value(&width)->default_value(hs::default_width), "bucket width w")
      ("buckets", po::value(&buckets)->default_value(0), "bucket count B (0: enough for the box diagonal)")
      ("box", po::value(&box)->default_value(hs::default_box), "side of the cube the points are drawn from");
  cli.add_seed(seed);
  // the rungs that take --threads-per-block (the others fix their own), and the all-core CPU loop's name
  const std::string tpb_help = "threads per block of " + rung_names([](const ImplInfo& i) { return i.fixed_threads == 0; }) +
                               " (the other rungs fix their own)";
  const std::string cpu_threads_help = std::string("threads of ") + cpu_mt_impl.name + " (0: all cores)";
  cli.add()("threads-per-block", po::value(&tpb)->default_value(256), tpb_help.c_str())
      ("transfer-reps", po::value(&transfer_reps)->default_value(3), "repetitions of the with-transfers timing")
      ("cpu-threads", po::value(&cpu_threads_opt)->default_value(0), cpu_threads_help.c_str())
      ("cpu-max-s", po::value(&cpu_max_s)->default_value(60), "skip a CPU measurement predicted to take longer (s)")
      ("cpu-st-max-n", po::value(&cpu_st_max_n)->default_value(100000), "largest N for the single-threaded CPU loop")
      ("gpu-max-s", po::value(&gpu_max_s)->default_value(20), "skip a GPU version whose run is predicted longer (s)");
  cli.add_verify_max(verify_n, "the CPU");
  cli.renamed("verify-n", "verify-max");
  cli.add_run_options(run, false);
  cli.parse(argc, argv);
  if (cli.quick_unset("N")) n_args = {"10000,100000,1000000"};
  if (cli.quick_unset("impl")) impl_args = {quick_impls_csv()};  // the rungs marked quick (sdh_rungs.hpp)
  if (cli.quick_unset("reps")) run.reps = 3;
  if (cli.quick_unset("transfer-reps")) transfer_reps = 1;
  if (cli.quick_unset("cpu-st-max-n")) cpu_st_max_n = 10000;
  if (run.quick) run.min_reps = std::min(run.min_reps, run.reps);

  // ---- validate everything before touching the GPU ----------------------------------------
  std::vector<i64> Ns;
  bool run_cpu_st = false, run_cpu_mt = false;
  std::vector<Impl> gpu_impls;
  u32 B = 0;
  cli.check([&] {
    Ns = bench::parse_ints(n_args, "--N", 1, i64(1) << 40);
    if (!(box > 0) || !std::isfinite(box) || box > 1e18) throw bench::bad_input("--box must be a positive finite number <= 1e18");
    if (buckets < 0) throw bench::bad_input("--buckets must be >= 0 (0: automatic)");
    B = buckets > 0 ? u32(std::min<long long>(buckets, 1ll << 24)) : hs::default_buckets(float(box), float(width));
    for (i64 N : Ns) {
      const std::string why = hs::validate(N, width, buckets > 0 ? buckets : i64(B));
      if (!why.empty()) throw bench::bad_input(why);
    }
    if (tpb < 32 || tpb > 1024 || tpb % 32) throw bench::bad_input("--threads-per-block must be a multiple of 32 in 32..1024");
    // unsigned: boost reads -1 as 4294967295, and so many threads abort the process
    if (cpu_threads_opt > 4096) throw bench::bad_input("--cpu-threads must be in 0..4096 (0: all cores)");
    if (transfer_reps < 0) throw bench::bad_input("--transfer-reps must be >= 0");
    if (run.warmup < 1) throw bench::bad_input("--warmup must be >= 1 (the first run is verified)");
    if (verify_n < 2) throw bench::bad_input("--verify-max must be >= 2");
    std::vector<std::string> known{"all", cpu_st_impl.name, cpu_mt_impl.name};  // the CPU loops (registry/sdh_rungs.hpp)
    for (const auto& i : impl_list()) known.push_back(i.name);
    for (const auto& name : bench::parse_names(impl_args, "--impl", known)) {
      if (name == "all") {
        run_cpu_st = run_cpu_mt = true;
        for (const auto& i : impl_list()) gpu_impls.push_back(i.id);
      } else if (name == cpu_st_impl.name) {
        run_cpu_st = true;
      } else if (name == cpu_mt_impl.name) {
        run_cpu_mt = true;
      } else {
        gpu_impls.push_back(find_impl(name)->id);
        band_named = band_named || is_band(gpu_impls.back());
      }
    }
  });
  const float w = float(width);
  auto name_of = [](Impl i) { return std::string(impl_name(i)); };

  {  // the band rungs' proof needs the bucket count, width and point spread it covers
     // (sdh_band.cuh): requested by name they are refused past it, within 'all' left out
    const i64 n = std::min<i64>(std::max<i64>(*std::max_element(Ns.begin(), Ns.end()), verify_n), 2000000);  // each N is checked again when set
    const std::vector<Point> pts = hs::uniform_points(n, float(box), seed);
    const BandParams bp = band_params(pts.data(), i64(pts.size()), float(width), B);
    if (!bp.why.empty()) {
      std::vector<Impl> keep;
      for (Impl i : gpu_impls) {
        if (!is_band(i)) { keep.push_back(i); continue; }
        if (band_named) cli.fail(name_of(i) + ": " + bp.why + " (leave it out with --impl)");
        std::fprintf(stderr, "note: %s left out: %s\n", name_of(i).c_str(), bp.why.c_str());
      }
      gpu_impls = keep;
    }
  }
  const i64 maxN = *std::max_element(Ns.begin(), Ns.end());
  const unsigned cpu_thr0 = cpu_threads_opt ? cpu_threads_opt : hs::cpu_threads();
  // ---- the prediction-and-refusal policy (bench/predict.hpp), before any CUDA call ------------
  // CPU: this host's rate, measured on a small set; GPU: the stated model per rung. A
  // measurement predicted past --cpu-max-s / --gpu-max-s is skipped (as below), the rest
  // is the run's predicted time.
  {
    const std::vector<Point> cal = hs::uniform_points(3000, float(box), seed);
    std::vector<u64> hc(B);
    const double cpu_mt_s = bench::calibrate([&] { hs::cpu_mt(cal.data(), 3000, w, B, hc.data(), cpu_thr0); },
                                             double(hs::pair_count(3000)), 1.0, 1e-12);
    const double cpu_st_s = bench::calibrate([&] { hs::cpu_st(cal.data(), 2000, w, B, hc.data()); },
                                             double(hs::pair_count(2000)), 1.0, 1e-12);
    cpu_model_s = [=](bool mt, i64 N) { return double(hs::pair_count(N)) * (mt ? cpu_mt_s : cpu_st_s); };
    bench::Forecast f;
    bool any = false;  // at this N: is anything measured?
    std::string skipped;
    auto cpu_part = [&](const char* what, double t) {  // time_cpu: reps runs, fewer when long
      if (t > cpu_max_s) {                             // skipped
        skipped = skipped.empty() ? pf("%.3g s", t) + " of " + what + " > --cpu-max-s " + pf("%g", cpu_max_s) : skipped;
        return;
      }
      const double fit = std::floor(cpu_max_s / 4 / std::max(t, 1e-9)) - 1;
      f.add(what, t * std::max(1.0, std::min(double(run.reps), fit)));
      any = true;
    };
    cpu_part("CPU verification", cpu_model_s(true, verify_n));
    for (i64 N : Ns) {
      any = false;
      skipped.clear();
      if (run_cpu_st && N <= cpu_st_max_n) cpu_part("CPU single-thread", cpu_model_s(false, N));
      if (run_cpu_mt) cpu_part("CPU all cores", cpu_model_s(true, N));
      std::vector<double> round;
      double r = 0, gpu_min = 0;
      for (Impl i : gpu_impls) {
        const double t = gpu_model_s(i, N);
        gpu_min = gpu_min > 0 ? std::min(gpu_min, t) : t;
        if (t > gpu_max_s) {  // skipped (below, with a line on stderr)
          if (skipped.empty()) skipped = bench::human_time(t) + " per run of " + name_of(i) + " > --gpu-max-s " + pf("%g", gpu_max_s);
          continue;
        }
        r += t;
        any = true;
        f.add("GPU verification and transfers", t * (1 + transfer_reps));
      }
      round.push_back(r);
      f.add("GPU timing", bench::sweep_seconds(round, run));
      if (!any)  // every measurement of this N would be skipped: a run that does nothing, refused
        cli.fail("refused: at N=" + std::to_string(N) + " every measurement is predicted past its limit (" + skipped +
                 "); pass --gpu-max-s " + pf("%.0f", std::ceil(gpu_min * 1.1 + 1)) + " or --cpu-max-s to run it");
    }
    bench::refuse_or_go("bench_sdh", f, run);
  }
  bench::Session session("bench_sdh", argc, argv, run);
  const size_t optin = prepare_kernels();
  for (Impl i : gpu_impls)
    for (i64 N : Ns) {
      const std::string why = cannot_run(i, N, B, threads_of(i, tpb), optin);
      if (!why.empty()) cli.fail(why + " (N=" + std::to_string(N) + "; leave it out with --impl)");
    }

  const unsigned cpu_thr = cpu_threads_opt ? cpu_threads_opt : hs::cpu_threads();
  // the metadata's "rule": each rule's s and the rungs that use it (sdh_rungs.hpp rule_v); the CPU loops are pinned
  const auto of_rule = [](hs::Rule r) { return rung_names([r](const ImplInfo& i) { return i.rule == r; }); };
  const std::string rule_prose =
      "k=min(trunc(fdiv_rn(fsqrt_rn(s),w)),B-1); s pinned (" + std::string(cpu_st_impl.name) + ", " + cpu_mt_impl.name +
      ", " + of_rule(hs::Rule::pinned) + "): (dx*dx+dy*dy)+dz*dz, each rounded; s fused (" + of_rule(hs::Rule::fused) +
      "): fma(dz,dz,fma(dy,dy,dx*dx)); s gram (" + of_rule(hs::Rule::gram) +
      "): |fma(-2cx_i,cx_j,fma(-2cy_i,cy_j,fma(-2cz_i,cz_j,n_i+n_j)))|, c=p-o, o the bounding box middle, n=|c|^2 rounded once";
  const auto csv = session.table(
      results::layout::sdh,
      "\"host_cpu\":\"" + json_escape(host_cpu_model()) + "\",\"host_threads\":" + std::to_string(hs::cpu_threads()) +
          ",\"cpu_mt_threads\":" + std::to_string(cpu_thr) + ",\"points\":\"uniform cube\",\"box\":" + pf("%.6g", box) +
          ",\"seed\":" + std::to_string(seed) + ",\"rule\":\"" + json_escape(rule_prose) + "\"");
  std::fprintf(stderr, "sdh: %s, host %s (%u threads), B=%u w=%g box=%g -> %s\n", session.prop().name,
               host_cpu_model().c_str(), hs::cpu_threads(), B, double(w), box, csv->path().c_str());

  const std::vector<Point> all = hs::uniform_points(std::max<i64>(maxN, verify_n), float(box), seed);
  DeviceSet d;
  bench::Budget budget(run.budget_s, long(Ns.size()));
  bench::Interleaved timer(run, budget);

  // ---- every GPU version against the CPU at a small N, before any timing --------------------
  {
    const i64 N = verify_n;
    std::map<hs::Rule, std::vector<u64>> ref;  // the CPU histogram of each rule a requested version uses
    d.set(all.data(), N, w, B);
    for (Impl i : gpu_impls) {
      if (is_band(i) && !d.band.why.empty()) cli.fail(name_of(i) + ": " + d.band.why + " (leave it out with --impl)");
      const hs::Rule rule = rule_of(i);
      if (!ref.count(rule)) {
        ref[rule].assign(B, 0);
        hs::cpu_mt(all.data(), N, w, B, ref[rule].data(), cpu_thr, rule);
      }
      const auto h = run_once(i, d, threads_of(i, tpb));
      if (h != ref[rule] || hs::hist_sum(h) != hs::pair_count(N)) {
        std::fprintf(stderr, "error: %s differs from the CPU (%s rule) at N=%lld\n", name_of(i).c_str(), hs::rule_name(rule),
                     (long long)N);
        return 1;
      }
      std::fprintf(stderr, "verified %-13s N=%lld against %s (%s rule)\n", name_of(i).c_str(), (long long)N,
                   cpu_mt_impl.name, hs::rule_name(rule));
    }
  }

  auto row = [&](const std::string& impl, i64 N, int threads, const Stats& s, double with_tr, double cpu_mt_ms) {
    rows::SdhRow r;
    r.impl = impl;
    r.N = N;
    r.bucket_width = w;
    r.buckets = B;
    r.threads = threads;
    r.stats = s;
    r.with_transfers_ms = with_tr;
    r.pairs = double(hs::pair_count(N));
    r.cpu_mt_ms = cpu_mt_ms;
    csv->row(rows::sdh_row(r));
  };

  // last measured (N, ms) per implementation, to skip what would take too long
  std::map<std::string, std::pair<i64, double>> last;
  auto predicted_ms = [&](const std::string& impl, i64 N) {
    const auto it = last.find(impl);
    if (it == last.end()) {  // nothing measured yet: the model of the prediction above
      if (impl == cpu_st_impl.name || impl == cpu_mt_impl.name) return 1000.0 * cpu_model_s(impl == cpu_mt_impl.name, N);
      return 1000.0 * gpu_model_s(find_impl(impl)->id, N);
    }
    const double r = double(N) / double(it->second.first);
    return it->second.second * r * r;
  };

  for (i64 N : Ns) {
    std::vector<u64> oracle;
    double cpu_mt_ms = -1;
    // ---- CPU ------------------------------------------------------------------------------
    auto time_cpu = [&](const std::string& name, bool mt) -> Stats {
      std::vector<float> t;
      std::vector<u64> h(B);
      for (int r = 0; r < run.reps; ++r) {
        const double t0 = now_ms();
        if (mt) hs::cpu_mt(all.data(), N, w, B, h.data(), cpu_thr);
        else hs::cpu_st(all.data(), N, w, B, h.data());
        const double ms = now_ms() - t0;
        t.push_back(float(ms));
        if (r == 0) {
          if (hs::hist_sum(h) != hs::pair_count(N)) die(name + ": histogram does not sum to N(N-1)/2");
          if (oracle.empty()) oracle = h;
          else if (h != oracle) die(std::string(cpu_st_impl.name) + " and " + cpu_mt_impl.name + " differ at N=" + std::to_string(N));
        }
        if (ms * (r + 2) > 1000.0 * cpu_max_s / 4) break;  // long runs: fewer repetitions
      }
      Stats s = summarize(t);
      last[name] = {N, s.median_ms};
      return s;
    };
    Stats st_stats;
    bool have_st = false;
    if (run_cpu_st) {
      const double p = predicted_ms(cpu_st_impl.name, N);
      if (N > cpu_st_max_n || p > 1000.0 * cpu_max_s)
        std::fprintf(stderr, "skip %s N=%lld (limit N<=%lld, predicted %.1f s)\n", cpu_st_impl.name, (long long)N, cpu_st_max_n,
                     p / 1000);
      else {
        std::fprintf(stderr, "%s N=%lld ...\n", cpu_st_impl.name, (long long)N);
        st_stats = time_cpu(cpu_st_impl.name, false);
        have_st = true;
        std::fprintf(stderr, "  %s N=%lld median %.1f ms (%d reps)\n", cpu_st_impl.name, (long long)N, st_stats.median_ms,
                     st_stats.reps);
      }
    }
    if (run_cpu_mt) {
      const double p = predicted_ms(cpu_mt_impl.name, N);
      if (p > 1000.0 * cpu_max_s)
        std::fprintf(stderr, "skip %s N=%lld (predicted %.1f s > %.0f s)\n", cpu_mt_impl.name, (long long)N, p / 1000, cpu_max_s);
      else {
        std::fprintf(stderr, "%s N=%lld (%u threads) ...\n", cpu_mt_impl.name, (long long)N, cpu_thr);
        const Stats s = time_cpu(cpu_mt_impl.name, true);
        cpu_mt_ms = s.median_ms;
        std::fprintf(stderr, "  %s N=%lld median %.1f ms (%d reps)\n", cpu_mt_impl.name, (long long)N, s.median_ms, s.reps);
        row(cpu_mt_impl.name, N, 0, s, -1, cpu_mt_ms);
      }
    }
    if (have_st) row(cpu_st_impl.name, N, 0, st_stats, -1, cpu_mt_ms);

    // ---- GPU ------------------------------------------------------------------------------
    if (gpu_impls.empty()) continue;
    d.set(all.data(), N, w, B);
    // the reference of each rule at this N: the CPU's histogram where the CPU ran (the fused and Gram rules'
    // computed once more on all cores for their rungs), else the first GPU version of that rule
    std::map<hs::Rule, std::vector<u64>> refs;
    std::map<hs::Rule, bool> from_cpu;
    if (!oracle.empty()) {
      refs[hs::Rule::pinned] = oracle;
      from_cpu[hs::Rule::pinned] = true;
      for (hs::Rule rule : {hs::Rule::fused, hs::Rule::gram}) {
        bool used = false;
        for (Impl i : gpu_impls) used = used || rule_of(i) == rule;
        if (!used) continue;
        std::fprintf(stderr, "%s N=%lld, %s rule (the reference of its rungs) ...\n", cpu_mt_impl.name, (long long)N,
                     hs::rule_name(rule));
        refs[rule].assign(B, 0);
        hs::cpu_mt(all.data(), N, w, B, refs[rule].data(), cpu_thr, rule);
        from_cpu[rule] = true;
      }
    }
    std::vector<Impl> timed;
    for (Impl i : gpu_impls) {
      const std::string name = name_of(i);
      const int th = threads_of(i, tpb);
      const double p = predicted_ms(name, N);
      if (p > 1000.0 * gpu_max_s) {
        std::fprintf(stderr, "skip %s N=%lld (predicted %.1f s per run > %.0f s)\n", name.c_str(), (long long)N, p / 1000,
                     gpu_max_s);
        continue;
      }
      // the first run is checked (and is the first warm-up run)
      const double t0 = now_ms();
      const std::vector<u64> h = run_once(i, d, th);
      last[name] = {N, now_ms() - t0};
      const hs::Rule rule = rule_of(i);
      std::vector<u64>& ref = refs[rule];
      if (hs::hist_sum(h) != hs::pair_count(N) || (!ref.empty() && h != ref)) {
        std::fprintf(stderr, "error: %s N=%lld: histogram differs from %s (%s rule)\n", name.c_str(), (long long)N,
                     from_cpu[rule] ? "the CPU" : "the first GPU version", hs::rule_name(rule));
        return 1;
      }
      if (!ref.empty())
        std::fprintf(stderr, "checked %-13s N=%lld: every bucket equal to %s (%s rule)\n", name.c_str(), (long long)N,
                     from_cpu[rule] ? "the CPU's" : "the first GPU version's", hs::rule_name(rule));
      if (ref.empty()) ref = h;
      timed.push_back(i);
    }
    std::vector<std::function<void()>> launches;
    for (Impl i : timed) launches.push_back([&d, i, th = threads_of(i, tpb)] { launch(i, d, th); });
    const std::vector<bench::Stats> st = timer.time(launches);
    for (size_t k = 0; k < timed.size(); ++k) {
      const Impl i = timed[k];
      const std::string name = name_of(i);
      const int th = threads_of(i, tpb);
      const Stats& s = st[k];
      double with_tr = -1;
      const int trep = s.median_ms > 1000 ? std::min(transfer_reps, 1) : transfer_reps;
      if (trep > 0) {
        const Stats t = time_events(
            [&] {
              d.upload(i);
              launch(i, d, th);
              std::vector<u64> back = d.download();
              (void)back;
            },
            0, trep);
        with_tr = t.median_ms;
      }
      last[name] = {N, s.median_ms};
      row(name, N, th, s, with_tr, cpu_mt_ms);
      std::fprintf(stderr, "  %-13s N=%lld median %.3f ms  %.3e pairs/s%s (%d reps)\n", name.c_str(), (long long)N,
                   s.median_ms, double(hs::pair_count(N)) / (s.median_ms / 1000.0),
                   cpu_mt_ms > 0 ? (pf("  %.1fx ", cpu_mt_ms / s.median_ms) + cpu_mt_impl.name).c_str() : "", s.reps);
    }
  }
  std::fprintf(stderr, "wrote %s\n", csv->path().c_str());
  return 0;
}
