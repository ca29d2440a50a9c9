// experiments/multigpu/multi_hist.cu — SDH, the three-body histogram and the fused distance
// histogram of the tensor-core Gram kernels past one GPU.
//
// A block-space map turns the all-pairs (SDH: LTM-E over tile pairs, the fast kernel of
// src/support/gpu/sdh_fast.cuh; gram: LTM-E over the 128 x 128 tiles of the Gram kernels of
// src/support/gram, their fused histogram, built with CUTLASS only) or all-triplets (three-body: a
// TET map, src/support/gpu/tet.cuh) problem into one flat range of block indices lambda in which
// every block is the same work.
// This program splits that range with tdmaps/partition.hpp across W = P x C workers:
// P GPUs (one process driving every chosen GPU, or one MPI rank per GPU) times C
// chunks that each GPU runs one after another. Each GPU adds its chunks into its own
// histogram; the histograms are summed with NCCL (ncclAllReduce, exact 64-bit integer
// sums). Integer counts make the result independent of the split: every configuration
// must give the bit-identical histogram, and the CPU oracle's at the verification sizes.
//
//   --backend gpu   the kernels above (default)
//   --backend cpu   the same lambda ranges evaluated on the host and summed with MPI
//                   (or locally): the partition-and-reduce logic without a GPU (CI tests
//                   it under mpirun with 2 ranks, test_multi_mpi.sh)
//
// Output (GPU): <out>/<gpu_slug>/<--csv> with one row per (N, gpus, chunks): the wall
// time of a whole run (launch of every chunk on every GPU .. reduced histogram ready),
// the compute and reduction parts from CUDA events, the rate and its ratio to the run
// of the first configuration (1 GPU, 1 chunk) in the same, interleaved, run.
// README.md beside this file: options, columns, the planning estimates.
#include "mpi_env.hpp"

#include <gpu/sdh.cuh>
#include <gpu/tet.cuh>

#include <apps/parallel.hpp>  // bench::parallel_for: one host thread a GPU (run's enqueue)
#include <bench/gpu.cuh>
#include <bench/predict.hpp>
#include <results/gram_names.hpp>  // --app gram's kernels and precisions, by name (with or without the kernels)
#include <tdmaps/partition.hpp>
#include <tdmaps/registry.hpp>

#if defined(TDMAPS_MULTI_GRAM)  // the Gram kernels (src/support/gram), linked where CUTLASS built them
#include <gram/gram_api.hpp>
#include <gram/gram_cpu.hpp>
#include <tdmaps/tiles.hpp>
#endif

#include <nccl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)

using namespace tdmaps;
namespace hs = tdmaps::sdh;
namespace gs = tdmaps::gpu::sdh;
namespace bench = tdmaps::bench;
namespace po = boost::program_options;
using tdmaps::gpu::die;

namespace {

const char* kProgram = "multi_hist";

#define TD_NCCL(call)                                                                                      \
  do {                                                                                                     \
    const ncclResult_t r_ = (call);                                                                        \
    if (r_ != ncclSuccess) die(std::string("NCCL: ") + #call + " failed: " + ncclGetErrorString(r_));     \
  } while (0)

// ---- options ------------------------------------------------------------------------------------
struct Options {
  std::string app = results::multigpu_app::sdh, backend = "gpu", impl = gs::multi_hist_default_rung, map = "tet-e", csv;
  std::vector<i64> Ns;
  std::vector<int> gpus;        // device indices (empty: every visible GPU)
  std::vector<int> gpu_counts;  // configurations use the first k of `gpus` (empty: 1 and all)
  std::vector<int> chunks = {1};
  float width = 500.0f, r = 0.25f;
  i64 buckets = 0;  // 0: the default for the box
  int rho = 8;
  int d = 128;                                 // gram: features
  std::string kernel = "auto", prec = gram::name(gram::kDefaultPrec);  // gram: the kernel (auto: sm90-ws where it runs, else classic), precision
  bool exact = false;                          // gram: the bracketed exact mode (hist-exact, equal to float64)
  bool count = false;                          // gram: the eps-count (count, count-exact) instead of the histogram
  i64 verify_max = -1;      // CPU oracle for N <= this (-1: the app's default)
  // > 0: the warm-up and check round of every configuration runs once at this N (oracle-checked up
  // to verify_max) instead of at every timed N; at a timed N the first timed run (1 GPU x 1 chunk) is
  // the reference, and every timed run is checked against it (the sum first, then bucket for bucket)
  i64 warmup_N = 0;
  bench::RunOptions run = bench::RunOptions::with(5, 1, 3, 0);
};

struct Config {
  int gpus, chunks;
  int workers() const { return gpus * chunks; }
  std::string label() const { return std::to_string(gpus) + "gpu x " + std::to_string(chunks) + "chunk"; }
};

}  // namespace

// the sections of this program, in order
#include "multi_hist_problems.cuh"
#include "multi_hist_backends.cuh"
#include "multi_hist_plan.cuh"
#include "multi_hist_rows.hpp"  // the CSV row by column name (host only; verify/test_experiment_rows checks it)


// Untimed runs of each configuration at a timed N: the warm-up and check round (none with --warmup-N,
// which runs that round once, at its own small N).
int untimed_runs(const Options& o) { return o.warmup_N > 0 ? 0 : std::max(1, o.run.warmup); }

// The run's predicted time (bench/predict.hpp) before any CUDA call: the CPU oracle (and the
// CPU back end) at this host's rate, measured on a small problem; the GPU runs from the stated
// model (one GPU per configuration's GPU count, 1 when the count is not given: the later
// probe at a small N checks again with the measured rate).
bench::Forecast forecast(const Options& o, int ranks) {
  bench::Forecast f;
  auto p0 = make_problem(o, o.app == results::multigpu_app::sdh ? 4000 : o.app == results::multigpu_app::gram ? 300 : 120);  // host only (no CUDA before upload)
  const double per = bench::calibrate([&] { (void)p0->oracle(); }, double(p0->work()), 1.0, 1e-12);
  const double threads = double(bench::host_workers(1024));
  const std::vector<int> counts = o.gpu_counts.empty() ? std::vector<int>{1} : o.gpu_counts;
  for (i64 N : o.Ns) {
    const double work = work_of(o, N);
    if (N <= o.verify_max) f.add("CPU oracle", work * per);
    if (o.backend == "cpu") {  // one thread per rank works its ranges, once per chunk count
      f.add("CPU back end", work * per * threads / ranks * double(o.chunks.size() + 1));
      continue;
    }
    const double rate = model_rate(o);
    for (int g : counts)
      f.add("GPU", double(o.chunks.size()) * (untimed_runs(o) + o.run.reps) * work / rate /
                       double(ranks > 1 ? ranks : g));
  }
  return f;
}

int main(int argc, char** argv) {
  const multi::MpiWorld world = multi::mpi_init(&argc, &argv);
  const Options o = parse(argc, argv);
  const bool root = world.rank == 0;
  // A failure seen by one rank is one line from that rank and the same exit for all.
  auto agree_or_exit = [&](bool ok, const std::string& line, int code) {
    if (!ok) std::fprintf(stderr, "%s: %s\n", kProgram, line.c_str());
    if (!multi::mpi_all(ok)) multi::mpi_exit(code);
  };

  {  // the prediction-and-refusal policy (bench/predict.hpp), before any CUDA call
    const bench::Forecast f = forecast(o, world.size);
    const std::string r = bench::refusal(kProgram, f, o.run.max_minutes);
    if (!multi::mpi_all(r.empty())) {
      if (root) std::fprintf(stderr, "%s\n", r.c_str());
      multi::mpi_exit(2);
    }
    if (root) bench::pending_prediction() = bench::prediction_line(kProgram, f, o.run.max_minutes);  // printed by Session
    if (o.run.predict_only) {
      if (root) std::fprintf(stderr, "%s\n", bench::pending_prediction().c_str());
      multi::mpi_finalize();
      return 0;
    }
  }

  if (o.backend == "cpu") {
    if (root) std::fprintf(stderr, "%s\n", bench::pending_prediction().c_str());  // no Session here
    for (int C : o.chunks)
      agree_or_exit(world.size * C <= int(max_workers),
                    std::to_string(world.size) + " ranks x " + std::to_string(C) + " chunks = " +
                        std::to_string(world.size * C) + " workers; the partition is proven for at most " +
                        std::to_string(max_workers),
                    2);
    int bad = 0;
    for (i64 N : o.Ns) {
      auto pb = make_problem(o, N);
      // the single-process result: one worker, the whole range
      std::vector<u64> whole(pb->hist_words(), 0);
      pb->cpu_range(LambdaRange{0, pb->total()}, whole.data());
      const std::vector<u64> ref = pb->result(whole);
      if (root && N <= o.verify_max) {
        const std::string d = first_difference(ref, pb->oracle());
        std::printf("oracle app=%s N=%" PRId64 " single-process %s\n", o.app.c_str(), N,
                    d.empty() ? "identical" : ("DIFFERS " + d).c_str());
        if (!d.empty()) ++bad;
      }
      bad += run_cpu(o, world, *pb, N, ref);
    }
    const bool ok = multi::mpi_all(bad == 0);
    multi::mpi_finalize();
    return ok ? 0 : 1;
  }

  // ---- GPU: devices, limits --------------------------------------------------------------
  int count = 0;
  {
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      const std::string cause = bench::no_gpu_cause(e);
      if (o.run.skip_if_no_gpu && !world.active) {
        std::printf("%s: SKIPPED, %s\n", kProgram, cause.c_str());
        return bench::exit_skipped;
      }
      agree_or_exit(false, cause + "; nothing was run. Run it on a machine with an NVIDIA GPU, or `--backend cpu` for the "
                                   "CPU back end, or `make figures` to redraw the figures from the committed results",
                    bench::exit_no_gpu);
    }
  }
  std::vector<int> devs = o.gpus;
  if (world.active) {
    // one GPU per rank: the node-local rank's (or its entry of --gpus)
    const std::vector<int> pool = o.gpus.empty() ? [&] { std::vector<int> a; for (int i = 0; i < count; ++i) a.push_back(i); return a; }() : o.gpus;
    agree_or_exit(world.local_rank < int(pool.size()),
                  "rank " + std::to_string(world.rank) + " is local rank " + std::to_string(world.local_rank) + " of " +
                      std::to_string(world.local_size) + " on its node, which has " + std::to_string(pool.size()) +
                      " GPU(s) to use: start at most one rank per GPU",
                  2);
    devs = {pool[size_t(world.local_rank)]};
  } else if (devs.empty()) {
    for (int i = 0; i < count; ++i) devs.push_back(i);
  }
  for (int d : devs)
    agree_or_exit(d < count,
                  "--gpus " + std::to_string(d) + ": no such GPU; this machine has " + std::to_string(count) +
                      " (0.." + std::to_string(count - 1) + ")",
                  2);
  std::vector<Config> cfgs = configs(o, world.active ? 1 : int(devs.size()));
  for (const Config& c : cfgs) {
    agree_or_exit(world.active || c.gpus <= int(devs.size()),
                  "--gpu-counts " + std::to_string(c.gpus) + ": only " + std::to_string(devs.size()) + " GPU(s) chosen", 2);
    const int W = (world.active ? world.size : c.gpus) * c.chunks;
    agree_or_exit(W <= int(max_workers),
                  std::to_string(W) + " workers; the partition is proven for at most " + std::to_string(max_workers), 2);
  }
  if (world.active) cfgs.erase(std::unique(cfgs.begin(), cfgs.end(), [](const Config& a, const Config& b) { return a.chunks == b.chunks; }), cfgs.end());

  TD_CUDA(cudaSetDevice(devs[0]));
  bench::Session session(kProgram, argc, argv, o.run);  // checks this binary's code against devs[0]
  for (size_t i = 1; i < devs.size(); ++i) {             // ... and against every other GPU it uses
    cudaDeviceProp prop{};
    TD_CUDA(cudaGetDeviceProperties(&prop, devs[i]));
    bench::require_gpu_code(kProgram, prop);
  }
  GpuRunner gpus(world, devs);
  const int world_gpus = world.active ? world.size : int(devs.size());
#if defined(TDMAPS_MULTI_GRAM)
  if (o.app == results::multigpu_app::gram && gram_kernel(o) == gram::Kernel::sm90_ws)  // asked by name: it runs on compute capability 9.0 only
    for (int d : devs) {
      TD_CUDA(cudaSetDevice(d));
      agree_or_exit(gram::sm90_runs(), "--kernel sm90-ws: " + std::string(gram::sm90_built() ? "GPU " + std::to_string(d) + " is not compute capability 9.0 (sm_90a code)" : "not in this build (gram_sm90.cu needs nvcc >= 12.0)") + "; choose --kernel classic", 2);
    }
  TD_CUDA(cudaSetDevice(devs[0]));
#endif
  std::unique_ptr<results::CsvFile> csv;
  if (root)
    csv = session.table(o.csv, csv_layout(o.app, o.exact),  // sdh_multigpu.csv, threebody_multigpu.csv, gram_multigpu(_exact).csv: one layout
                        "\"gpus_used\":" + std::to_string(world_gpus) + ",\"mpi_ranks\":" + std::to_string(world.size) +
                            ",\"nccl\":\"" + std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) + "." +
                            std::to_string(NCCL_PATCH) + "\"," +
                            // every GPU this process drives (under MPI: the root rank's; each rank's log names its own)
                            gpu::devices_json(devs) + ",\"topology\":\"" + gpu::json_escape(gpu::link_topology()) + "\"");
  std::string kernel = o.app == results::multigpu_app::sdh ? o.impl : o.map + " rho=" + std::to_string(o.rho);
#if defined(TDMAPS_MULTI_GRAM)
  if (o.app == results::multigpu_app::gram)  // the kernel, precision, features and buckets
    kernel = std::string(gram::name(gram_kernel(o))) + " " + o.prec +
             (o.count ? std::string(" ") + gram::name(o.exact ? gram::Out::count_exact : gram::Out::count) + " d=" + std::to_string(o.d) + " eps2=d/6"
                      : (o.exact ? std::string(" ") + gram::name(gram::Out::hist_exact) : "") + " d=" + std::to_string(o.d) +
                            " B=" + std::to_string(gram_buckets(o)));
#endif

  // ---- predicted time, before the long work: the rate of a small probe on one GPU --------------
  double rate = 0;  // work per second, one GPU
  {
    // the largest requested N up to a cap: a probe at a tiny first N (e.g. --N 1000,...,1000000) would
    // measure an idle GPU's rate and refuse a run of seconds as hours
    const i64 Np = std::min<i64>(*std::max_element(o.Ns.begin(), o.Ns.end()), o.app == results::multigpu_app::threebody ? 1024 : 65536);
    auto pb = make_problem(o, Np);
    gpus.upload(*pb, 1);
    Timing t{};
    const Config one{1, 1};
    for (int k = 0; k < 2; ++k) gpus.run(*pb, one, t);
    rate = double(pb->work()) / (std::max(t.compute_ms, 1e-3) * 1e-3);
  }
  {
    bench::Forecast f;
    for (i64 N : o.Ns) {
      const double w = work_of(o, N);
      for (const Config& c : cfgs)
        f.add("GPU (" + std::to_string(rate / 1e9) + "e9/s per GPU, measured at a small N)",
              (untimed_runs(o) + o.run.reps) * w / rate / (world.active ? world.size : c.gpus));
    }
    const std::string r = bench::refusal(kProgram, f, o.run.max_minutes);
    agree_or_exit(r.empty(), r.empty() ? r : r.substr(std::string(kProgram).size() + 2), 2);
  }

  // The check of one configuration's histogram h at N against the reference `first` (empty: h becomes
  // it, after its sum is checked) and the oracle: one line and exit 1 when it fails.
  auto check = [&](Problem& pb, i64 N, const Config& c, const std::vector<u64>& h, std::vector<u64>& first,
                   const std::vector<u64>& oracle) {
    if (first.empty()) {
      first = h;
      // at every size, oracle or not: every pair (triplet) of the domain counted once, in some bucket (the
      // eps-count: the per-point counts twice the total)
      const std::string sd = pb.sum_difference(h);
      agree_or_exit(sd.empty(), o.app + " N=" + std::to_string(N) + " " + c.label() + ": " + sd +
                                    (o.count ? "" : o.app == results::multigpu_app::threebody ? " triplets x <= y <= z" : " pairs i < j"), 1);
    }
    std::string d = first_difference(h, first);
    if (d.empty() && !oracle.empty()) d = pb.oracle_difference(h, oracle);  // gram: within float64's bound
    agree_or_exit(d.empty(), o.app + " N=" + std::to_string(N) + " " + c.label() + ": histogram differs (" + d + ")", 1);
  };
  // verification + warm-up: every configuration (not timed), against the oracle and the first
  // configuration, at each timed N, or once at --warmup-N
  const int upload_gpus = world.active ? 1 : std::max_element(cfgs.begin(), cfgs.end(), [](auto& a, auto& b) { return a.gpus < b.gpus; })->gpus;
  auto check_round = [&](Problem& pb, i64 N, std::vector<u64>& first, const std::vector<u64>& oracle) {
    for (const Config& c : cfgs) {
      Timing t{};
      for (int w = 0; w < std::max(1, o.run.warmup); ++w) check(pb, N, c, pb.result(gpus.run(pb, c, t)), first, oracle);
    }
  };
  if (o.warmup_N > 0) {
    auto pb = make_problem(o, o.warmup_N);
    std::vector<u64> oracle, first;
    if (o.warmup_N <= o.verify_max) oracle = pb->oracle();
    gpus.upload(*pb, upload_gpus);
    check_round(*pb, o.warmup_N, first, oracle);
    if (root)
      std::fprintf(stderr, "[%s] %s N=%" PRId64 " (--warmup-N): every configuration warmed up and checked (%s)\n", kProgram,
                   o.app.c_str(), o.warmup_N, oracle.empty() ? "sum, and bit-identical to the first" : "against the CPU oracle, and bit-identical to the first");
  }

  bench::Budget budget(o.run.budget_s, long(o.Ns.size()));
  bench::Progress prog(kProgram, o.Ns.size() * cfgs.size());
  int failures = 0;
  for (i64 N : o.Ns) {
    auto pb = make_problem(o, N);
    std::vector<u64> oracle;
    if (N <= o.verify_max) {
      if (root) std::fprintf(stderr, "[%s] %s N=%" PRId64 ": CPU oracle...\n", kProgram, o.app.c_str(), N);
      oracle = pb->oracle();
    }
    gpus.upload(*pb, upload_gpus);
    std::vector<u64> first;
    if (o.warmup_N <= 0) check_round(*pb, N, first, oracle);
    // timed: rounds over the configurations, round r starting at configuration r mod k
    const size_t k = cfgs.size();
    std::vector<std::vector<Timing>> ts(k);
    std::vector<bool> same(k, true);
    const auto t0 = std::chrono::steady_clock::now();
    double round_ms = 0;
    int reps = o.run.reps;
    for (int r = 0; r < reps; ++r) {
      for (size_t j = 0; j < k; ++j) {
        const size_t i = (j + size_t(r)) % k;
        Timing t{};
        const std::vector<u64> h = pb->result(gpus.run(*pb, cfgs[i], t));
        if (first.empty()) check(*pb, N, cfgs[i], h, first, oracle);  // --warmup-N: round 0's 1 GPU x 1 chunk
        same[i] = same[i] && h == first;
        ts[i].push_back(t);
        if (r == 0) round_ms += t.wall_ms;
      }
      if (r == 0) reps = budget.reps(round_ms, o.run.reps, o.run.min_reps);
      if (root && round_ms > 2000)
        std::fprintf(stderr, "[%s] %s N=%" PRId64 ": round %d/%d (%.1f s)\n", kProgram, o.app.c_str(), N, r + 1, reps,
                     bench::seconds_since(t0));
    }
    budget.spend(bench::seconds_since(t0));
    if (root)  // the reference histogram's digest: multi_hist_mpi's line must equal multi_hist's (run_multigpu.sh)
      std::fprintf(stderr, "[%s] %s N=%" PRId64 " histogram: sum=%" PRIu64 " fnv=%016" PRIx64 " (%s)\n", kProgram, o.app.c_str(), N,
                   hs::hist_sum(first), fnv(first), cfgs[0].label().c_str());
    double first_rate = 0;
    for (size_t i = 0; i < k; ++i) {
      const Config& c = cfgs[i];
      std::vector<float> wall, comp, red, wait;
      for (const Timing& t : ts[i]) {
        wall.push_back(float(t.wall_ms));
        comp.push_back(float(t.compute_ms));
        red.push_back(float(t.reduce_ms));
        wait.push_back(float(t.wait_ms));
      }
      const bench::Stats sw = bench::summarize(wall), sc = bench::summarize(comp), sr = bench::summarize(red),
                         sq = bench::summarize(wait);
      const double per_s = double(pb->work()) / (sw.median_ms * 1e-3);
      if (i == 0) first_rate = per_s;
      if (!same[i]) {
        ++failures;
        if (root) std::fprintf(stderr, "%s: %s N=%" PRId64 " %s: a timed run's histogram differs from the first configuration's\n", kProgram, o.app.c_str(), N, c.label().c_str());
      }
      const int G = world.active ? world.size : c.gpus;
      if (root) {
        // verified: "oracle" = every bucket equals the CPU oracle's (gram --exact: float64's); "float64" (gram) = within the float64
        // histogram's bound (gram_cpu::compare); "count" = (no oracle at this size) the counts sum to the pairs /
        // triplets; with identical = 1 every bucket equals 1 GPU x 1 chunk's, every timed repetition included
        rows::MultigpuRow row;
        row.app = o.count ? (o.exact ? results::multigpu_app::gram_count_exact : results::multigpu_app::gram_count)
                          : o.exact ? results::multigpu_app::gram_exact : o.app;
        row.N = (long long)N;
        row.kernel = kernel;
        row.gpus = G;
        row.chunks = c.chunks;
        row.blocks = (unsigned long long)pb->total();
        row.work = (unsigned long long)pb->work();
        row.wall = sw;
        row.compute = sc;
        row.reduce = sr;
        row.wait = sq;
        row.work_per_s = per_s;
        row.first_rate = first_rate;
        row.identical = bool(same[i]);
        row.verified = oracle.empty() ? "count" : o.app == results::multigpu_app::gram && !o.exact ? "float64" : "oracle";
        csv->row(rows::multigpu_row(row));
        prog.step("%s N=%" PRId64 " %s: %.3f ms, %.4g/s, x%.3f of %s, reduce %.3f ms, identical=%d", o.app.c_str(), N,
                  c.label().c_str(), sw.median_ms, per_s, per_s / first_rate, cfgs[0].label().c_str(), sr.median_ms,
                  int(same[i]));
      }
    }
  }
  const bool ok = multi::mpi_all(failures == 0);
  multi::mpi_finalize();
  return ok ? 0 : 1;
}
