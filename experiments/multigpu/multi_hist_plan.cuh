// experiments/multigpu/multi_hist_plan.cuh — problem construction and limits, the configurations (a section of multi_hist.cu, included by it
// once, in this order: multi_hist_problems.cuh, multi_hist_backends.cuh, multi_hist_plan.cuh).
#pragma once

namespace {

// ---- problem construction and limits -------------------------------------------------------------
std::unique_ptr<Problem> make_problem(const Options& o, i64 N) {
  if (o.app == "sdh") {
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

Options parse(int argc, char** argv) {
  Options o;
  bench::Cli cli(kProgram, "multi_hist: SDH and the three-body histogram split across GPUs (NCCL) and ranks (MPI)");
  std::vector<std::string> Ns, gpus, counts, chunks;
  cli.add()("app", po::value(&o.app)->default_value(o.app), "sdh | threebody")
      ("N", po::value(&Ns)->multitoken(), "problem sizes (list or A:B:STEP)")
      ("backend", po::value(&o.backend)->default_value(o.backend), "gpu | cpu (the same ranges on the host, summed with MPI)")
      ("gpus", po::value(&gpus)->multitoken(), "GPU indices to use (default: every visible GPU; under MPI each rank takes its node-local rank's GPU)")
      ("gpu-counts", po::value(&counts)->multitoken(), "configurations: use the first k of --gpus (default: 1 and all)")
      ("chunks", po::value(&chunks)->multitoken(), "chunks per GPU run one after another (default 1); workers = gpus x chunks <= 64")
      ("impl", po::value(&o.impl)->default_value(o.impl), "sdh: the kernel (fast-gram2, the fastest measured (H200), Gram rule; fast-fma, fused rule; fast-lane, pinned rule; fast-lane-r8, fast-thread, fast-block, band-lane, band-lane-r8, fast-fma-r8, fast-gram (Gram rule))")
      ("bucket-width", po::value(&o.width)->default_value(o.width), "sdh: bucket width (points uniform in the 23000 box)")
      ("buckets", po::value(&o.buckets)->default_value(o.buckets), "sdh: buckets (0: enough for the box)")
      ("map", po::value(&o.map)->default_value(o.map), "threebody: the TET map")
      ("rho", po::value(&o.rho)->default_value(o.rho), "threebody: block side (rho^3 threads)")
      ("r", po::value(&o.r)->default_value(o.r), "threebody: side threshold (points uniform in the unit cube)")
      ("verify-max", po::value(&o.verify_max)->default_value(o.verify_max), "CPU oracle for N up to this (-1: sdh 65537, threebody 1024)")
      ("csv", po::value(&o.csv), "output file name (default <app>_multigpu.csv)");
  cli.add_run_options(o.run, false);
  cli.renamed("width", "bucket-width");  // the name every program uses (bench_sdh)
  cli.parse(argc, argv);
  cli.check([&] {
    o.app = bench::parse_choice(o.app, "--app", {"sdh", "threebody"});
    o.backend = bench::parse_choice(o.backend, "--backend", {"gpu", "cpu"});
    if (Ns.empty()) throw bench::bad_input("--N is required");
    o.Ns = bench::parse_ints(Ns, "--N", 2, (i64(1) << 31) - 1);
    if (!gpus.empty()) o.gpus = bench::parse_small_ints(gpus, "--gpus", 0, 1023);
    if (!counts.empty()) o.gpu_counts = bench::parse_small_ints(counts, "--gpu-counts", 1, int(max_workers));
    if (!chunks.empty()) o.chunks = bench::parse_small_ints(chunks, "--chunks", 1, int(max_workers));
    if (o.app == "sdh") {
      std::vector<std::string> fast;
      for (const auto& i : gs::impl_list())
        if (gs::is_fast(i.id) || gs::is_band(i.id)) fast.push_back(i.name);
      o.impl = bench::parse_choice(o.impl, "--impl", fast);
      const u32 B = u32(o.buckets ? o.buckets : hs::default_buckets(hs::default_box, o.width));
      for (i64 N : o.Ns) {
        const std::string e = hs::validate(N, o.width, o.buckets ? o.buckets : i64(B));
        if (!e.empty()) throw bench::bad_input("sdh: " + e);
      }
      if (o.verify_max < 0) o.verify_max = 65537;
    } else {
      o.map = bench::parse_choice(o.map, "--map", tet_names());
      if (!(o.r > 0) || !std::isfinite(o.r)) throw bench::bad_input("--r must be a positive number");
      if (o.rho < 1 || o.rho > gpu::kMaxRho3) throw bench::bad_input("--rho must be in 1.." + std::to_string(gpu::kMaxRho3));
      if (o.verify_max < 0) o.verify_max = 1024;
      for (i64 N : o.Ns) {  // the map's exact range, before any work
        try {
          with_map(maps3d{}, o.map.c_str(), [&](auto m) { decltype(m)::plan(N, o.rho); });
        } catch (const unsupported& e) {
          throw bench::bad_input(e.what());
        }
      }
    }
    if (o.csv.empty()) o.csv = o.app + "_multigpu.csv";
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
