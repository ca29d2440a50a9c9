// experiments/sdh/bench_sdh.cu — the SDH experiment of the seed report
// (004_aba88004bd1c502c.txt): CPU baselines and the GPU ladder timed in one run on
// one machine, every GPU histogram checked against the CPU before it is timed.
//
//   bench_sdh [--N 10000,30000,100000,300000,1000000] [--impl all|name,...]
//             [--bucket-width 500] [--buckets 0=auto] [--threads-per-block 256]
//             [--reps 5] [--quick] [--out FILE]
//
// CSV: experiments/results/<gpu_slug>/sdh.csv (first line "# " + metadata JSON,
// which also names the host CPU and its thread count). Progress on stderr.
// Nothing is extrapolated: a measurement that would take too long (predicted from
// the previous size, N^2 scaling) is skipped and has no row.
#include <gpu/sdh.cuh>

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

using namespace tdmaps;
using namespace tdmaps::gpu;
using namespace tdmaps::gpu::sdh;
namespace hs = tdmaps::sdh;
namespace po = boost::program_options;

namespace {

[[noreturn]] void bad_input(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  std::exit(2);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == ',' || ch == ' ') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string host_cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      const auto p = line.find(':');
      if (p != std::string::npos) {
        std::string m = line.substr(p + 1);
        while (!m.empty() && m.front() == ' ') m.erase(m.begin());
        return m;
      }
    }
  return "unknown";
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::string n_list, impl_list_s, out;
  double width = 0;
  long long buckets = 0;
  int tpb = 256, reps = 5, warmup = 1, transfer_reps = 3;
  unsigned cpu_threads_opt = 0;
  double box = hs::default_box, cpu_max_s = 60, gpu_max_s = 20;
  long long cpu_st_max_n = 100000, verify_n = 4099;
  unsigned long long seed = hs::default_seed;
  bool quick = false;

  po::options_description desc("bench_sdh: Spatial Distance Histogram, CPU baselines and the GPU ladder");
  desc.add_options()("help,h", "this help")
      ("N", po::value(&n_list)->default_value("10000,30000,100000,300000,1000000"), "point counts, comma-separated")
      ("impl", po::value(&impl_list_s)->default_value("all"),
       "implementations, comma-separated: cpu-st, cpu-mt, v1-plain, v2-shared, v3-balanced, v4-soa, v5-tiled, "
       "tiled-bb, tiled-ltm-e, fast-lane, fast-lane-r8, fast-thread, fast-block; or all")
      ("bucket-width", po::value(&width)->default_value(hs::default_width), "bucket width w")
      ("buckets", po::value(&buckets)->default_value(0), "bucket count B (0: enough for the box diagonal)")
      ("box", po::value(&box)->default_value(hs::default_box), "side of the cube the points are drawn from")
      ("seed", po::value(&seed)->default_value(hs::default_seed), "point generator seed")
      ("threads-per-block", po::value(&tpb)->default_value(256), "threads per block of v1..v5, tiled-* (fast-* fix their own)")
      ("reps", po::value(&reps)->default_value(5), "timed repetitions per measurement")
      ("warmup", po::value(&warmup)->default_value(1), "untimed runs before timing (the first one is verified)")
      ("transfer-reps", po::value(&transfer_reps)->default_value(3), "repetitions of the with-transfers timing")
      ("cpu-threads", po::value(&cpu_threads_opt)->default_value(0), "threads of cpu-mt (0: all cores)")
      ("cpu-max-s", po::value(&cpu_max_s)->default_value(60), "skip a CPU measurement predicted to take longer (s)")
      ("cpu-st-max-n", po::value(&cpu_st_max_n)->default_value(100000), "largest N for the single-threaded CPU loop")
      ("gpu-max-s", po::value(&gpu_max_s)->default_value(20), "skip a GPU version whose run is predicted longer (s)")
      ("verify-n", po::value(&verify_n)->default_value(4099), "N of the check against the CPU before any timing")
      ("quick", po::bool_switch(&quick),
       "N = 10000,100000,1000000; cpu-st (N <= 10000), cpu-mt, tiled-ltm-e, fast-lane, fast-lane-r8, fast-thread; 3 reps")
      ("out", po::value(&out)->default_value(""), "CSV path (default experiments/results/<gpu_slug>/sdh.csv)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    bad_input(e.what());
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  if (quick) {
    if (vm["N"].defaulted()) n_list = "10000,100000,1000000";
    if (vm["impl"].defaulted()) impl_list_s = "cpu-st,cpu-mt,tiled-ltm-e,fast-lane,fast-lane-r8,fast-thread";
    if (vm["reps"].defaulted()) reps = 3;
    if (vm["transfer-reps"].defaulted()) transfer_reps = 1;
    if (vm["cpu-st-max-n"].defaulted()) cpu_st_max_n = 10000;
  }

  // ---- validate everything before touching the GPU ----------------------------------------
  std::vector<i64> Ns;
  for (const auto& t : split(n_list)) {
    char* end = nullptr;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (!end || *end) bad_input("--N: not an integer: '" + t + "'");
    Ns.push_back(v);
  }
  if (Ns.empty()) bad_input("--N: no sizes given");
  if (!(box > 0) || !std::isfinite(box) || box > 1e18) bad_input("--box must be a positive finite number <= 1e18");
  if (buckets < 0) bad_input("--buckets must be >= 0 (0: automatic)");
  const float w = float(width);
  const u32 B = buckets > 0 ? u32(std::min<long long>(buckets, 1ll << 24)) : hs::default_buckets(float(box), w);
  for (i64 N : Ns) {
    const std::string why = hs::validate(N, width, buckets > 0 ? buckets : i64(B));
    if (!why.empty()) bad_input(why);
  }
  if (tpb < 32 || tpb > 1024 || tpb % 32) bad_input("--threads-per-block must be a multiple of 32 in 32..1024");
  if (reps < 1 || warmup < 1 || transfer_reps < 0) bad_input("--reps >= 1, --warmup >= 1, --transfer-reps >= 0");
  if (verify_n < 2) bad_input("--verify-n must be >= 2");

  bool run_cpu_st = false, run_cpu_mt = false;
  std::vector<Impl> gpu_impls;
  for (const auto& name : split(impl_list_s)) {
    if (name == "all") {
      run_cpu_st = run_cpu_mt = true;
      for (const auto& i : impl_list()) gpu_impls.push_back(i.id);
    } else if (name == "cpu-st") {
      run_cpu_st = true;
    } else if (name == "cpu-mt") {
      run_cpu_mt = true;
    } else if (const ImplInfo* i = find_impl(name)) {
      gpu_impls.push_back(i->id);
    } else {
      bad_input("--impl: unknown implementation '" + name + "'");
    }
  }
  auto name_of = [](Impl i) {
    for (const auto& x : impl_list())
      if (x.id == i) return std::string(x.name);
    return std::string("?");
  };

  const i64 maxN = *std::max_element(Ns.begin(), Ns.end());
  const int dev = require_gpu();
  const size_t optin = prepare_kernels();
  for (Impl i : gpu_impls)
    for (i64 N : Ns) {
      const std::string why = cannot_run(i, N, B, threads_of(i, tpb), optin);
      if (!why.empty()) bad_input(why + " (N=" + std::to_string(N) + "; leave it out with --impl)");
    }

  cudaDeviceProp prop{};
  TD_CUDA(cudaGetDeviceProperties(&prop, dev));
  if (out.empty()) out = "experiments/results/" + gpu_slug(prop) + "/sdh.csv";
  {
    const auto parent = std::filesystem::path(out).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
  }
  std::string args;
  for (int a = 0; a < argc; ++a) args += (a ? " " : "") + std::string(argv[a]);
  const unsigned cpu_thr = cpu_threads_opt ? cpu_threads_opt : hs::cpu_threads();
  std::string meta = metadata_json("bench_sdh", args);
  meta.pop_back();
  meta += ",\"host_cpu\":\"" + json_escape(host_cpu_model()) + "\",\"host_threads\":" + std::to_string(hs::cpu_threads()) +
          ",\"cpu_mt_threads\":" + std::to_string(cpu_thr) + ",\"points\":\"uniform cube\",\"box\":" +
          fmt("%.6g", box) + ",\"seed\":" + std::to_string(seed) + ",\"rule\":\"k=min(trunc(fdiv_rn(fsqrt_rn(s),w)),B-1)\"}";
  Csv csv(out, meta,
          "impl,N,bucket_width,buckets,threads_per_block,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,with_transfers_ms,"
          "pairs_per_s,speedup_vs_cpu_mt");
  std::fprintf(stderr, "sdh: %s, host %s (%u threads), B=%u w=%g box=%g -> %s\n", prop.name, host_cpu_model().c_str(),
               hs::cpu_threads(), B, double(w), box, out.c_str());

  const std::vector<Point> all = hs::uniform_points(std::max<i64>(maxN, verify_n), float(box), seed);
  DeviceSet d;

  // ---- every GPU version against the CPU at a small N, before any timing --------------------
  {
    const i64 N = verify_n;
    std::vector<u64> ref(B);
    hs::cpu_mt(all.data(), N, w, B, ref.data(), cpu_thr);
    d.set(all.data(), N, w, B);
    for (Impl i : gpu_impls) {
      const auto h = run_once(i, d, threads_of(i, tpb));
      if (h != ref || hs::hist_sum(h) != hs::pair_count(N)) {
        std::fprintf(stderr, "error: %s differs from the CPU at N=%lld\n", name_of(i).c_str(), (long long)N);
        return 1;
      }
      std::fprintf(stderr, "verified %-13s N=%lld against cpu-mt\n", name_of(i).c_str(), (long long)N);
    }
  }

  auto row = [&](const std::string& impl, i64 N, int threads, const Stats& s, double with_tr, double cpu_mt_ms) {
    const double pairs = double(hs::pair_count(N));
    std::ostringstream o;
    o << impl << ',' << N << ',' << fmt("%g", double(w)) << ',' << B << ',' << (threads > 0 ? std::to_string(threads) : "")
      << ',' << s.reps << ',' << fmt("%.4f", s.median_ms) << ',' << fmt("%.4f", s.p25_ms) << ','
      << fmt("%.4f", s.p75_ms) << ',' << fmt("%.4f", s.min_ms) << ',' << fmt("%.4f", s.max_ms) << ','
      << (with_tr >= 0 ? fmt("%.4f", with_tr) : "") << ',' << fmt("%.6e", pairs / (s.median_ms / 1000.0)) << ','
      << (cpu_mt_ms > 0 ? fmt("%.3f", cpu_mt_ms / s.median_ms) : "");
    csv.row(o.str());
  };

  // last measured (N, ms) per implementation, to skip what would take too long
  std::map<std::string, std::pair<i64, double>> last;
  auto predicted_ms = [&](const std::string& impl, i64 N) {
    const auto it = last.find(impl);
    if (it == last.end()) return 0.0;
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
      for (int r = 0; r < reps; ++r) {
        const double t0 = now_ms();
        if (mt) hs::cpu_mt(all.data(), N, w, B, h.data(), cpu_thr);
        else hs::cpu_st(all.data(), N, w, B, h.data());
        const double ms = now_ms() - t0;
        t.push_back(float(ms));
        if (r == 0) {
          if (hs::hist_sum(h) != hs::pair_count(N)) die(name + ": histogram does not sum to N(N-1)/2");
          if (oracle.empty()) oracle = h;
          else if (h != oracle) die("cpu-st and cpu-mt differ at N=" + std::to_string(N));
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
      const double p = predicted_ms("cpu-st", N);
      if (N > cpu_st_max_n || p > 1000.0 * cpu_max_s)
        std::fprintf(stderr, "skip cpu-st N=%lld (limit N<=%lld, predicted %.1f s)\n", (long long)N, cpu_st_max_n, p / 1000);
      else {
        std::fprintf(stderr, "cpu-st N=%lld ...\n", (long long)N);
        st_stats = time_cpu("cpu-st", false);
        have_st = true;
        std::fprintf(stderr, "  cpu-st N=%lld median %.1f ms (%d reps)\n", (long long)N, st_stats.median_ms, st_stats.reps);
      }
    }
    if (run_cpu_mt) {
      const double p = predicted_ms("cpu-mt", N);
      if (p > 1000.0 * cpu_max_s)
        std::fprintf(stderr, "skip cpu-mt N=%lld (predicted %.1f s > %.0f s)\n", (long long)N, p / 1000, cpu_max_s);
      else {
        std::fprintf(stderr, "cpu-mt N=%lld (%u threads) ...\n", (long long)N, cpu_thr);
        const Stats s = time_cpu("cpu-mt", true);
        cpu_mt_ms = s.median_ms;
        std::fprintf(stderr, "  cpu-mt N=%lld median %.1f ms (%d reps)\n", (long long)N, s.median_ms, s.reps);
        row("cpu-mt", N, 0, s, -1, cpu_mt_ms);
      }
    }
    if (have_st) row("cpu-st", N, 0, st_stats, -1, cpu_mt_ms);

    // ---- GPU ------------------------------------------------------------------------------
    if (gpu_impls.empty()) continue;
    d.set(all.data(), N, w, B);
    std::vector<u64> gpu_ref;  // the first GPU histogram at this N when no CPU ran
    for (Impl i : gpu_impls) {
      const std::string name = name_of(i);
      const int th = threads_of(i, tpb);
      const double p = predicted_ms(name, N);
      if (p > 1000.0 * gpu_max_s) {
        std::fprintf(stderr, "skip %s N=%lld (predicted %.1f s per run > %.0f s)\n", name.c_str(), (long long)N, p / 1000,
                     gpu_max_s);
        continue;
      }
      // warm-up; the first run is checked
      const double t0 = now_ms();
      const std::vector<u64> h = run_once(i, d, th);
      const double first_ms = now_ms() - t0;
      const std::vector<u64>& ref = !oracle.empty() ? oracle : gpu_ref;
      if (hs::hist_sum(h) != hs::pair_count(N) || (!ref.empty() && h != ref)) {
        std::fprintf(stderr, "error: %s N=%lld: histogram differs from %s\n", name.c_str(), (long long)N,
                     oracle.empty() ? "the first GPU version" : "the CPU");
        return 1;
      }
      if (oracle.empty() && gpu_ref.empty()) gpu_ref = h;
      for (int r = 1; r < warmup; ++r) launch(i, d, th);
      TD_CUDA(cudaDeviceSynchronize());
      const int nrep = first_ms > 2000 ? std::min(reps, 3) : reps;
      const Stats s = time_events([&] { launch(i, d, th); }, 0, nrep);
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
      std::fprintf(stderr, "  %-13s N=%lld median %.3f ms  %.3e pairs/s%s\n", name.c_str(), (long long)N, s.median_ms,
                   double(hs::pair_count(N)) / (s.median_ms / 1000.0),
                   cpu_mt_ms > 0 ? fmt("  %.1fx cpu-mt", cpu_mt_ms / s.median_ms).c_str() : "");
    }
  }
  std::fprintf(stderr, "wrote %s\n", out.c_str());
  return 0;
}
