// experiments/multigpu/multi_hist_plan.cuh — problem construction and limits, the configurations (a section of multi_hist.cu, included by it
// once, in this order: multi_hist_problems.cuh, multi_hist_backends.cuh, multi_hist_plan.cuh).
#pragma once

namespace {

// ---- problem construction and limits -------------------------------------------------------------
#if defined(TDMAPS_MULTI_GRAM)
constexpr bool gram_built = true;
// --kernel of --app gram; auto: sm90-ws where it runs (this build has it and the current GPU is
// compute capability 9.0), else classic (a CUDA call: after the prediction)
gram::Kernel gram_kernel(const Options& o) {
  gram::Kernel k = gram::Kernel::classic;
  if (o.kernel == "auto") return gram::sm90_runs() ? gram::Kernel::sm90_ws : gram::Kernel::classic;
  if (!gram::kernel_of(o.kernel, k)) throw bench::bad_input("--kernel " + o.kernel + ": not a Gram kernel (classic, sm80-8w, sm90-ws, auto)");
  return k;
}
int gram_buckets(const Options& o) { return int(o.buckets ? o.buckets : 1024); }
#else
constexpr bool gram_built = false;
#endif

// Work of the app at N: pairs (sdh, gram) or triplets (threebody).
double work_of(const Options& o, i64 N) { return o.app == results::multigpu_app::threebody ? double(tet(u64(N))) : double(hs::pair_count(N)); }

// The stated GPU rate of the model (bench/predict.hpp), work per second on one GPU.
double model_rate(const Options& o) {
  if (o.app == results::multigpu_app::sdh) return bench::model::gpu_sdh_fast_pairs_per_s;
  if (o.app == results::multigpu_app::threebody) return bench::model::gpu_triplets_per_s;
  // gram: the fused histogram's useful flops (2 d a pair) at the rate measured for its kernel
  const bool sm90 = o.kernel == gram::name(gram::Kernel::sm90_ws) || (o.kernel == "auto" && [] {
#if defined(TDMAPS_MULTI_GRAM)
    return gram::sm90_built();
#else
    return false;
#endif
  }());
  const double flops = sm90 ? bench::model::gpu_gram_hist_flops_per_s : bench::model::gpu_gram_hist_classic_flops_per_s;
  // 3xtf32: three products a feature; --exact: the replay about as long again (gram_exact.csv: 11.4 s against 2.8 s
  // of 3xtf32's products, uncentered, N = 10^6)
  return flops / (2.0 * o.d) / (o.prec == gram::name(gram::Prec::tf32x3) ? 3.0 : 1.0) / (o.exact ? 4.0 : 1.0);
}

std::unique_ptr<Problem> make_problem(const Options& o, i64 N) {
#if defined(TDMAPS_MULTI_GRAM)
  if (o.app == results::multigpu_app::gram) return std::make_unique<GramProblem>(N, o.d, gram_buckets(o), o.kernel, gram::prec_of(o.prec), o.exact, o.count);
#endif
  if (o.app == results::multigpu_app::sdh) {
    const u32 B = u32(o.buckets ? o.buckets : hs::default_buckets(hs::default_box, o.width));
    return std::make_unique<SdhProblem>(N, o.width, B, gs::find_impl(o.impl)->id);
  }
  std::unique_ptr<Problem> p;
  with_map(maps3d{}, o.map.c_str(), [&](auto m) {
    using M = decltype(m);
    if constexpr (is_tet<M>::value) p = std::make_unique<ThreeBodyProblem<M>>(N, o.rho, o.r);
  });
  return p;
}

std::vector<std::string> tet_names() {
  std::vector<std::string> v;
  for_each_map(maps3d{}, [&](auto m) {
    using M = decltype(m);
    if constexpr (is_tet<M>::value) v.push_back(M::name);
  });
  return v;
}

// The CSV layout of each app (one column list, four files: sdh_multigpu.csv, threebody_multigpu.csv,
// gram_multigpu.csv, gram_multigpu_exact.csv for --app gram --exact; results/layouts.hpp); --csv names another file
// under the same layout.
const results::Layout& csv_layout(const std::string& app, bool exact) {
  namespace ma = results::multigpu_app;
  return app == ma::sdh ? results::layout::sdh_multigpu
         : app == ma::threebody ? results::layout::threebody_multigpu
         : exact ? results::layout::gram_multigpu_exact
                 : results::layout::gram_multigpu;
}

Options parse(int argc, char** argv) {
  Options o;
  bench::Cli cli(kProgram, "multi_hist: SDH, the three-body histogram and the Gram kernels' fused distance histogram "
                           "split across GPUs (NCCL) and ranks (MPI)");
  std::vector<std::string> Ns, gpus, counts, chunks;
  cli.add()("app", po::value(&o.app)->default_value(o.app), "sdh | threebody | gram (built with CUTLASS only)")
      ("N", po::value(&Ns)->multitoken(), "problem sizes (list or A:B:STEP)")
      ("backend", po::value(&o.backend)->default_value(o.backend), "gpu | cpu (the same ranges on the host, summed with MPI)")
      ("gpus", po::value(&gpus)->multitoken(), "GPU indices to use (default: every visible GPU; under MPI each rank takes its node-local rank's GPU)")
      ("gpu-counts", po::value(&counts)->multitoken(), "configurations: use the first k of --gpus (default: 1 and all)")
      ("chunks", po::value(&chunks)->multitoken(), "chunks per GPU run one after another (default 1); workers = gpus x chunks <= 64")
      ("impl", po::value(&o.impl)->default_value(o.impl), gs::multi_hist_impl_help().c_str())  // registry/sdh_rungs.hpp
      ("bucket-width", po::value(&o.width)->default_value(o.width), "sdh: bucket width (points uniform in the 23000 box)")
      ("buckets", po::value(&o.buckets)->default_value(o.buckets), "sdh: buckets (0: enough for the box)")
      ("map", po::value(&o.map)->default_value(o.map), "threebody: the TET map")
      ("rho", po::value(&o.rho)->default_value(o.rho), "threebody: block side (rho^3 threads)")
      ("r", po::value(&o.r)->default_value(o.r), "threebody: side threshold (points uniform in the unit cube)")
      ("d", po::value(&o.d)->default_value(o.d), "gram: features (points uniform in [0, 1)^d, bench_gram --hist-N's)")
      ("kernel", po::value(&o.kernel)->default_value(o.kernel), "gram: classic | sm80-8w | sm90-ws | auto (sm90-ws where it runs, else classic)")
      ("prec", po::value(&o.prec)->default_value(o.prec), "gram: tf32 | 3xtf32 | bf16 | fp16 (buckets: --buckets, 0: 1024, of width sqrt(d) / buckets)")
      ("exact", po::bool_switch(&o.exact), "gram: the bracketed exact mode (hist-exact on centered operands, float64 replay of "
       "the pairs near an edge; --prec tf32 or 3xtf32): the histogram equal to float64's bucket for bucket")
      ("count", po::bool_switch(&o.count), "gram: the eps-count instead of the histogram (every point's neighbours within "
       "eps, eps^2 = d / 6, and the pairs in total; with --exact equal to float64's point for point)")
      ("warmup-N", po::value(&o.warmup_N)->default_value(o.warmup_N), "> 0: the warm-up and check round of every configuration once at this N (oracle-checked up to --verify-max), not at every --N; there every timed run is checked against the first (1 GPU x 1 chunk, its sum checked)")
      ("verify-max", po::value(&o.verify_max)->default_value(o.verify_max), "CPU oracle for N up to this (-1: sdh 65537, threebody 1024, gram 4096: float64)")
      ("csv", po::value(&o.csv), "output file name (default <app>_multigpu.csv)");
  cli.add_run_options(o.run, false);
  cli.renamed("width", "bucket-width");  // the name every program uses (bench_sdh)
  cli.parse(argc, argv);
  cli.check([&] {
    o.app = bench::parse_choice(o.app, "--app", {results::multigpu_app::sdh, results::multigpu_app::threebody, results::multigpu_app::gram});
    o.backend = bench::parse_choice(o.backend, "--backend", {"gpu", "cpu"});
    if (o.app == results::multigpu_app::gram && !gram_built)
      throw bench::bad_input("--app gram: this build has no Gram kernels (src/support/gram needs CUTLASS and "
                             "-Dgram_bench=enabled, or a GPU seen at configure time: see meson setup's CUTLASS and bench_gram lines)");
    if (Ns.empty()) throw bench::bad_input("--N is required");
    o.Ns = bench::parse_ints(Ns, "--N", 2, (i64(1) << 31) - 1);
    if (o.warmup_N != 0 && (o.warmup_N < 2 || o.warmup_N > *std::max_element(o.Ns.begin(), o.Ns.end())))
      throw bench::bad_input("--warmup-N must be 0 (a check round at every --N) or in 2..max(--N)");
    std::vector<i64> sizes = o.Ns;  // every size the run makes: --N and --warmup-N
    if (o.warmup_N > 0) sizes.push_back(o.warmup_N);
    if (!gpus.empty()) o.gpus = bench::parse_small_ints(gpus, "--gpus", 0, 1023);
    if (!counts.empty()) o.gpu_counts = bench::parse_small_ints(counts, "--gpu-counts", 1, int(max_workers));
    if (!chunks.empty()) o.chunks = bench::parse_small_ints(chunks, "--chunks", 1, int(max_workers));
    if (o.app != results::multigpu_app::gram && o.count)
      throw bench::bad_input("--count is for --app gram (the eps-count of the Gram kernels)");
    if (o.app == results::multigpu_app::sdh) {
      o.impl = bench::parse_choice(o.impl, "--impl", gs::multi_hist_impls());  // the tile-pair rungs (sdh_rungs.hpp)
      const u32 B = u32(o.buckets ? o.buckets : hs::default_buckets(hs::default_box, o.width));
      for (i64 N : sizes) {
        const std::string e = hs::validate(N, o.width, o.buckets ? o.buckets : i64(B));
        if (!e.empty()) throw bench::bad_input("sdh: " + e);
      }
      if (o.verify_max < 0) o.verify_max = 65537;
    } else if (o.app == results::multigpu_app::gram) {
      if (o.backend == "cpu")
        throw bench::bad_input("--app gram runs on GPUs only (its CPU result, the float64 oracle, is not the kernels' arithmetic)");
      if (o.d < 1 || o.d > 4096) throw bench::bad_input("--d must be in 1..4096");
      {  // the Gram vocabulary's names (results/gram_names.hpp); sm90-evt's fused histogram runs over the whole grid
        // of lower tiles (its persistent scheduler takes no lambda range), so it is not among them
        std::vector<std::string> kernels{"auto"}, precs;
        for (const gram::Kernel k : gram::kKernels)
          if (k != gram::Kernel::sm90_evt) kernels.push_back(gram::name(k));
        for (const gram::Prec p : gram::kPrecs) precs.push_back(gram::name(p));
        o.kernel = bench::parse_choice(o.kernel, "--kernel", kernels);
        o.prec = bench::parse_choice(o.prec, "--prec", precs);
      }
      if (o.buckets < 0 || o.buckets > 1024) throw bench::bad_input("--buckets must be in 0..1024 for gram (0: 1024)");
      if (o.exact && o.prec != gram::name(gram::Prec::tf32) && o.prec != gram::name(gram::Prec::tf32x3))
        throw bench::bad_input("--exact: --prec must be tf32 or 3xtf32 (the exact mode's bracket is stated for those)");
      if (o.verify_max < 0) o.verify_max = 4096;
    } else {
      o.map = bench::parse_choice(o.map, "--map", tet_names());
      if (!(o.r > 0) || !std::isfinite(o.r)) throw bench::bad_input("--r must be a positive number");
      if (o.rho < 1 || o.rho > gpu::kMaxRho3) throw bench::bad_input("--rho must be in 1.." + std::to_string(gpu::kMaxRho3));
      if (o.verify_max < 0) o.verify_max = 1024;
      for (i64 N : sizes) {  // the map's exact range, before any work
        try {
          with_map(maps3d{}, o.map.c_str(), [&](auto m) { decltype(m)::plan(N, o.rho); });
        } catch (const unsupported& e) {
          throw bench::bad_input(e.what());
        }
      }
    }
    if (o.csv.empty()) o.csv = csv_layout(o.app, o.exact).file;
  });
  return o;
}

// The configurations of the run: gpu counts x chunks, the first (1 GPU, smallest chunks)
// being the reference of the ratios and of bit-identity.
std::vector<Config> configs(const Options& o, int gpus_available) {
  std::vector<int> counts = o.gpu_counts;
  if (counts.empty()) {
    counts = {1};
    if (gpus_available > 1) counts.push_back(gpus_available);
  }
  std::vector<Config> v;
  for (int k : counts)
    for (int c : o.chunks) v.push_back(Config{k, c});
  return v;
}

}  // namespace
