// experiments/multigpu/multi_hist.cu — SDH and the three-body histogram past one GPU.
//
// A block-space map turns the all-pairs (SDH: LTM-E over tile pairs, the fast kernel of
// src/gpu/sdh_fast.cuh) or all-triplets (three-body: a TET map, src/gpu/tet.cuh) problem
// into one flat range of block indices lambda in which every block is the same work.
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

#include <bench/gpu.cuh>
#include <bench/predict.hpp>
#include <tdmaps/partition.hpp>

#include <nccl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/results/layouts.hpp)

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
  std::string app = "sdh", backend = "gpu", impl = "fast-fma", map = "tet-e", csv;
  std::vector<i64> Ns;
  std::vector<int> gpus;        // device indices (empty: every visible GPU)
  std::vector<int> gpu_counts;  // configurations use the first k of `gpus` (empty: 1 and all)
  std::vector<int> chunks = {1};
  float width = 500.0f, r = 0.25f;
  i64 buckets = 0;  // 0: the default for the box
  int rho = 8;
  i64 verify_max = -1;      // CPU oracle for N <= this (-1: the app's default)
  bench::RunOptions run = bench::RunOptions::with(5, 1, 3, 0);
};

struct Config {
  int gpus, chunks;
  int workers() const { return gpus * chunks; }
  std::string label() const { return std::to_string(gpus) + "gpu x " + std::to_string(chunks) + "chunk"; }
};

// ---- the two problems -----------------------------------------------------------------------------
// One app at one N: its block space (lambda < total), its points, the work of one
// lambda range on the host, the CPU oracle, and the GPU state per device.
struct Problem {
  virtual ~Problem() = default;
  virtual u64 total() const = 0;                  // blocks of the block space
  virtual u64 work() const = 0;                   // pairs / triplets
  virtual size_t hist_words() const = 0;          // words of the per-GPU histogram (reduced)
  virtual std::vector<u64> result(const std::vector<u64>& words) const = 0;  // the histogram from them
  virtual void cpu_range(LambdaRange r, u64* words) const = 0;               // adds the range's counts
  virtual std::vector<u64> oracle() const = 0;                               // independent CPU result
  virtual size_t gpu_bytes() const = 0;                                      // device memory per GPU
  // GPU side: upload to the current device; launch one range into `hist` on `s`.
  virtual void upload(int slot) = 0;
  virtual u64* hist(int slot) = 0;
  virtual void launch(int slot, LambdaRange r, cudaStream_t s) = 0;
};

// SDH: the fast kernel's plan (LTM-E over tiles of P points), lambda = tile pair.
class SdhProblem : public Problem {
 public:
  SdhProblem(i64 N, float w, u32 B, gs::Impl impl) : N_(N), w_(w), B_(B), impl_(impl) {
    pts_ = hs::uniform_points(N);
    if (gs::is_band(impl))
      gs::with_band(impl, [&](auto cfg) {
        using C = decltype(cfg);
        P_ = gs::BandLayout<C::T, C::R>::P;
      });
    else
      gs::with_fast(impl, [&](auto cfg) {
        using C = decltype(cfg);
        P_ = gs::FastLayout<C::T, C::R, C::HM>::P;
      });
    plan_ = LTM_E::plan(N, P_);
  }
  u64 total() const override { return plan_.total; }
  u64 work() const override { return hs::pair_count(N_); }
  size_t hist_words() const override { return B_; }
  std::vector<u64> result(const std::vector<u64>& h) const override { return h; }
  void cpu_range(LambdaRange r, u64* h) const override {
    for (u64 lam = r.begin; lam < r.end; ++lam) {
      const Cell2 t = LTM_E::g(lam);  // tile row >= tile column (eq. (5) of the 2D paper)
      const i64 i0 = t.i * P_, j0 = t.j * P_;
      for (i64 i = i0; i < std::min(N_, i0 + P_); ++i)
        for (i64 j = j0; j < std::min(i, j0 + P_); ++j) ++h[hs::bucket(hs::dist2_by(gs::rule_of(impl_), pts_[size_t(i)], pts_[size_t(j)]), w_, B_)];
    }
  }
  std::vector<u64> oracle() const override {
    std::vector<u64> h(B_);
    hs::cpu_mt(pts_.data(), N_, w_, B_, h.data(), 0, gs::rule_of(impl_));  // the rule of the kernel (fast-fma*: fused)
    return h;
  }
  size_t gpu_bytes() const override { return size_t(N_) * (sizeof(hs::Point) + 12 + 16) + size_t(B_) * 12 + (1 << 20); }
  void upload(int slot) override {
    if (size_t(slot) >= sets_.size()) sets_.resize(size_t(slot) + 1);
    sets_[size_t(slot)] = std::make_unique<gs::DeviceSet>();
    gs::prepare_kernels();
    sets_[size_t(slot)]->set(pts_.data(), N_, w_, B_);
    if (gs::fast_params(impl_, *sets_[size_t(slot)]).plan.total != plan_.total) die("sdh: device plan differs from the host's");
  }
  u64* hist(int slot) override { return reinterpret_cast<u64*>(sets_[size_t(slot)]->hist); }
  void launch(int slot, LambdaRange r, cudaStream_t s) override { gs::launch_fast_range(impl_, *sets_[size_t(slot)], r, s); }

 private:
  i64 N_;
  float w_;
  u32 B_;
  gs::Impl impl_;
  i64 P_ = 0;
  Plan2 plan_;
  std::vector<hs::Point> pts_;
  std::vector<std::unique_ptr<gs::DeviceSet>> sets_;
};

// Three-body: a TET map's plan at rho, lambda = block (eq. (13)-(16) of the 3D paper).
template <class M>
class ThreeBodyProblem : public Problem {
 public:
  ThreeBodyProblem(i64 N, int rho, float r) : N_(N), r2_(fmul_rn(r, r)) {
    plan_ = M::plan(N, rho);  // throws unsupported past the map's exact range
    const auto p = hs::uniform_points(N, 1.0f);
    for (const auto& q : p) pts_.push_back(make_float4(q.x, q.y, q.z, 0.0f));
  }
  ~ThreeBodyProblem() override {
    for (auto& d : dev_) {
      if (d.pts) cudaFree(d.pts);
      if (d.bins) cudaFree(d.bins);
    }
  }
  u64 total() const override { return plan_.total; }
  u64 work() const override { return tet(u64(N_)); }
  size_t hist_words() const override { return size_t(gpu::kBinCopies) * 4; }
  std::vector<u64> result(const std::vector<u64>& w) const override {
    std::vector<u64> h(4, 0);
    for (size_t k = 0; k < w.size(); ++k) h[k % 4] += w[k];
    return h;
  }
  void cpu_range(LambdaRange r, u64* h) const override {
    const int rho = plan_.rho;
    for (u64 lam = r.begin; lam < r.end; ++lam) {
      const Cell3 b = M::template g<i64>(lam);
      for (int tz = 0; tz < rho; ++tz)
        for (int ty = 0; ty < rho; ++ty)
          for (int tx = 0; tx < rho; ++tx) {
            const Cell3 c = thread_in_block3(plan_.N, rho, b, u32(tx), u32(ty), u32(tz));
            if (c.inside) ++h[gpu::sides_below(pts_[size_t(c.x)], pts_[size_t(c.y)], pts_[size_t(c.z)], r2_)];
          }
    }
  }
  // Every triplet x <= y <= z by plain loops (not through any map).
  std::vector<u64> oracle() const override {
    std::vector<std::array<u64, 4>> part(bench::host_workers(1024), std::array<u64, 4>{0, 0, 0, 0});
    bench::parallel_chunks(u64(N_), 1, [&](unsigned t, u64 b, u64 e) {
      for (i64 z = i64(b); z < i64(e); ++z)
        for (i64 y = 0; y <= z; ++y)
          for (i64 x = 0; x <= y; ++x) ++part[t][size_t(gpu::sides_below(pts_[size_t(x)], pts_[size_t(y)], pts_[size_t(z)], r2_))];
    }, unsigned(part.size()));
    std::vector<u64> h(4, 0);
    for (const auto& p : part)
      for (int k = 0; k < 4; ++k) h[size_t(k)] += p[size_t(k)];
    return h;
  }
  size_t gpu_bytes() const override { return size_t(N_) * 16 + hist_words() * 8 + (1 << 20); }
  void upload(int slot) override {
    if (size_t(slot) >= dev_.size()) dev_.resize(size_t(slot) + 1);
    Dev& d = dev_[size_t(slot)];
    d.pts = gpu::device_alloc<float4>(pts_.size(), "points (float4)");
    d.bins = gpu::device_alloc<unsigned long long>(hist_words(), "histogram copies");
    TD_CUDA(cudaMemcpy(d.pts, pts_.data(), pts_.size() * sizeof(float4), cudaMemcpyHostToDevice));
  }
  u64* hist(int slot) override { return reinterpret_cast<u64*>(dev_[size_t(slot)].bins); }
  void launch(int slot, LambdaRange r, cudaStream_t s) override {
    if (r.empty()) return;
    Dim3 g;
    u32 gx = 0;
    linear_grid(r.size(), gx, g, M::name);
    const Dev& d = dev_[size_t(slot)];
    const dim3 block = gpu::to_dim3(M::block(plan_));
    if (plan_.narrow)
      gpu::threebody3_range<M, i32><<<gpu::to_dim3(g), block, 0, s>>>(plan_, r.begin, r.size(), gx, d.pts, r2_, d.bins);
    else
      gpu::threebody3_range<M, i64><<<gpu::to_dim3(g), block, 0, s>>>(plan_, r.begin, r.size(), gx, d.pts, r2_, d.bins);
    TD_LAUNCHED();
  }

 private:
  struct Dev {
    float4* pts = nullptr;
    unsigned long long* bins = nullptr;
  };
  i64 N_;
  float r2_;
  Plan3 plan_;
  std::vector<float4> pts_;
  std::vector<Dev> dev_;
};

// The ranges of one configuration: worker w = gpu * chunks + chunk of W workers.
LambdaRange worker_range(u64 total, int workers, int w) { return lambda_range<u64>(total, u64(workers), u64(w)); }

std::string first_difference(const std::vector<u64>& a, const std::vector<u64>& b) {
  if (a.size() != b.size()) return "lengths " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k] != b[k]) return "bucket " + std::to_string(k) + ": " + std::to_string(a[k]) + " vs " + std::to_string(b[k]);
  return "";
}
// FNV-1a of the histogram (the result line that the MPI test compares).
u64 fnv(const std::vector<u64>& h) {
  u64 x = 0xcbf29ce484222325ull;
  for (u64 v : h)
    for (int b = 0; b < 8; ++b) { x ^= (v >> (8 * b)) & 0xffu; x *= 0x100000001b3ull; }
  return x;
}

// ---- the CPU back end --------------------------------------------------------------------------
// Rank `world.rank` of `world.size` runs its workers' ranges one after another; the
// histograms are summed with MPI. Every configuration's result must equal the
// single-process result (one worker, the whole range) and the oracle where it runs.
int run_cpu(const Options& o, const multi::MpiWorld& world, Problem& pb, i64 N, const std::vector<u64>& ref) {
  int bad = 0;
  for (int C : o.chunks) {
    const int W = world.size * C;
    std::vector<u64> words(pb.hist_words(), 0);
    for (int c = 0; c < C; ++c) pb.cpu_range(worker_range(pb.total(), W, world.rank * C + c), words.data());
    multi::mpi_allreduce_sum(words.data(), words.size());
    const std::vector<u64> h = pb.result(words);
    const std::string d = first_difference(h, ref);
    if (world.rank == 0) {
      std::printf("result app=%s backend=cpu N=%" PRId64 " ranks=%d chunks=%d workers=%d sum=%" PRIu64 " fnv=%016" PRIx64
                  " %s\n",
                  o.app.c_str(), N, world.size, C, W, hs::hist_sum(h), fnv(h), d.empty() ? "identical" : ("DIFFERS " + d).c_str());
      std::fflush(stdout);
    }
    if (!d.empty()) ++bad;
  }
  return bad;
}

// ---- the GPU back end ------------------------------------------------------------------------------
struct GpuSlot {
  int dev = 0;
  cudaStream_t s = nullptr;
  cudaEvent_t e0 = nullptr, e1 = nullptr, e2 = nullptr;
};

// The NCCL communicator of the first k slots (one process) or of the MPI world (one
// slot per rank).
struct Comm {
  std::vector<ncclComm_t> c;
  ~Comm() {
    for (auto x : c)
      if (x) ncclCommDestroy(x);
  }
};

struct Timing {
  double wall_ms, compute_ms, reduce_ms, wait_ms;
};

// A kernel that traps: the device fault of the test TDMAPS_TEST_FAULT_GPU.
__global__ void k_fault() { __trap(); }

class GpuRunner {
 public:
  GpuRunner(const multi::MpiWorld& world, const std::vector<int>& devs) : world_(world) {
    // Test only: TDMAPS_TEST_FAULT_GPU=<device> makes that GPU fail in every run (a trap
    // after its chunks), to check that a GPU failing mid-run is one line and exit 1.
    if (const char* f = std::getenv("TDMAPS_TEST_FAULT_GPU")) fault_gpu_ = std::atoi(f);
    for (int d : devs) {
      GpuSlot g;
      g.dev = d;
      TD_CUDA(cudaSetDevice(d));
      TD_CUDA(cudaStreamCreateWithFlags(&g.s, cudaStreamNonBlocking));
      for (cudaEvent_t* e : {&g.e0, &g.e1, &g.e2}) TD_CUDA(cudaEventCreate(e));
      slots_.push_back(g);
    }
  }
  ~GpuRunner() {
    for (auto& g : slots_) {
      cudaSetDevice(g.dev);
      for (cudaEvent_t e : {g.e0, g.e1, g.e2}) cudaEventDestroy(e);
      cudaStreamDestroy(g.s);
    }
  }
  // Communicator of k local GPUs (one process) or of every rank (MPI: k = 1 per rank).
  Comm& comm(int k) {
    auto& c = comms_[k];
    if (!c) {
      c = std::make_unique<Comm>();
      c->c.assign(size_t(k), nullptr);
      if (world_.active) {
        ncclUniqueId id;
        if (world_.rank == 0) TD_NCCL(ncclGetUniqueId(&id));
        multi::mpi_bcast(&id, sizeof id, 0);
        TD_CUDA(cudaSetDevice(slots_[0].dev));
        TD_NCCL(ncclCommInitRank(&c->c[0], world_.size, id, world_.rank));
      } else {
        std::vector<int> devs;
        for (int i = 0; i < k; ++i) devs.push_back(slots_[size_t(i)].dev);
        TD_NCCL(ncclCommInitAll(c->c.data(), k, devs.data()));
      }
    }
    return *c;
  }
  void upload(Problem& pb, int k) {
    for (int i = 0; i < k; ++i) {
      TD_CUDA(cudaSetDevice(slots_[size_t(i)].dev));
      size_t free_b = 0, total_b = 0;
      TD_CUDA(cudaMemGetInfo(&free_b, &total_b));
      if (pb.gpu_bytes() > free_b)
        die("not enough memory on GPU " + std::to_string(slots_[size_t(i)].dev) + ": need " +
            std::to_string(pb.gpu_bytes() >> 20) + " MiB, " + std::to_string(free_b >> 20) + " MiB free");
      pb.upload(i);
    }
  }
  // A run that cannot finish: one line naming the GPU(s) whose stream reports an error
  // (else the NCCL error `why`), exit 1; no histogram is reported.
  [[noreturn]] void fail_run(const std::string& why) {
    std::string bad;
    for (const GpuSlot& g : slots_) {
      if (cudaSetDevice(g.dev) != cudaSuccess) continue;
      const cudaError_t e = cudaStreamQuery(g.s);
      if (e != cudaSuccess && e != cudaErrorNotReady)
        bad += (bad.empty() ? "" : ", ") + std::string("GPU ") + std::to_string(g.dev) + " (" + cudaGetErrorString(e) + ")";
    }
    die((bad.empty() ? std::string("the run failed") : "failed during the run: " + bad) +
        (why.empty() ? "" : "; NCCL " + why) + "; no histogram is reported");
  }
  // One whole run of configuration cfg: every worker's chunks, then the NCCL sum.
  // Returns the reduced histogram (words) and the timing.
  std::vector<u64> run(Problem& pb, const Config& cfg, Timing& t) {
    const int P = world_.active ? 1 : cfg.gpus;  // local GPUs of this configuration
    const int W = world_.active ? world_.size * cfg.chunks : cfg.workers();
    Comm& cm = comm(world_.active ? 1 : P);
    const size_t n = pb.hist_words();
    const auto t0 = std::chrono::steady_clock::now();
    for (int p = 0; p < P; ++p) {
      GpuSlot& g = slots_[size_t(p)];
      const int gpu_index = world_.active ? world_.rank : p;
      TD_CUDA(cudaSetDevice(g.dev));
      TD_CUDA(cudaMemsetAsync(pb.hist(p), 0, n * sizeof(u64), g.s));
      TD_CUDA(cudaEventRecord(g.e0, g.s));
      for (int c = 0; c < cfg.chunks; ++c) pb.launch(p, worker_range(pb.total(), W, gpu_index * cfg.chunks + c), g.s);
      if (g.dev == fault_gpu_) {  // test only (TDMAPS_TEST_FAULT_GPU): this GPU fails here
        k_fault<<<1, 1, 0, g.s>>>();
        TD_LAUNCHED();
      }
      TD_CUDA(cudaEventRecord(g.e1, g.s));
    }
    TD_NCCL(ncclGroupStart());
    for (int p = 0; p < P; ++p) {
      GpuSlot& g = slots_[size_t(p)];
      TD_CUDA(cudaSetDevice(g.dev));
      const ncclResult_t r = ncclAllReduce(pb.hist(p), pb.hist(p), n, ncclUint64, ncclSum, cm.c[size_t(p)], g.s);
      if (r != ncclSuccess) fail_run(std::string("ncclAllReduce: ") + ncclGetErrorString(r));
    }
    if (const ncclResult_t r = ncclGroupEnd(); r != ncclSuccess) fail_run(std::string("ncclGroupEnd: ") + ncclGetErrorString(r));
    for (int p = 0; p < P; ++p) {
      GpuSlot& g = slots_[size_t(p)];
      TD_CUDA(cudaSetDevice(g.dev));
      TD_CUDA(cudaEventRecord(g.e2, g.s));
    }
    // Wait for every GPU, polling each stream and each NCCL communicator: a GPU that fails
    // (its stream reports an error) or a reduction that fails ends the run with one line
    // instead of leaving the other GPUs waiting in the allreduce for ever.
    for (bool pending = true; pending;) {
      pending = false;
      for (int p = 0; p < P; ++p) {
        GpuSlot& g = slots_[size_t(p)];
        TD_CUDA(cudaSetDevice(g.dev));
        const cudaError_t e = cudaStreamQuery(g.s);
        if (e == cudaErrorNotReady) {
          pending = true;
        } else if (e != cudaSuccess) {
          fail_run("");
        }
        ncclResult_t async = ncclSuccess;
        TD_NCCL(ncclCommGetAsyncError(cm.c[size_t(p)], &async));
        if (async != ncclSuccess && async != ncclInProgress)
          die(std::string("NCCL failed during the reduction on GPU ") + std::to_string(g.dev) + ": " +
              ncclGetErrorString(async) + "; no histogram is reported");
      }
    }
    t.wall_ms = bench::seconds_since(t0) * 1000.0;
    // compute: the slowest GPU's chunks; reduce: the allreduce as the GPU that finished
    // last sees it (it waits for nobody); wait: what the earliest GPU waited for the others.
    double cmax = 0, rmin = 1e300, rmax = 0;
    for (int p = 0; p < P; ++p) {
      GpuSlot& g = slots_[size_t(p)];
      TD_CUDA(cudaSetDevice(g.dev));
      float c = 0, r = 0;
      TD_CUDA(cudaEventElapsedTime(&c, g.e0, g.e1));
      TD_CUDA(cudaEventElapsedTime(&r, g.e1, g.e2));
      cmax = std::max(cmax, double(c));
      rmin = std::min(rmin, double(r));
      rmax = std::max(rmax, double(r));
    }
    t.compute_ms = multi::mpi_max(cmax);
    t.wall_ms = multi::mpi_max(t.wall_ms);
    t.reduce_ms = -multi::mpi_max(-rmin);
    t.wait_ms = multi::mpi_max(rmax) - t.reduce_ms;
    std::vector<u64> words(n);
    TD_CUDA(cudaSetDevice(slots_[0].dev));
    TD_CUDA(cudaMemcpy(words.data(), pb.hist(0), n * sizeof(u64), cudaMemcpyDeviceToHost));
    return words;
  }

 private:
  multi::MpiWorld world_;
  std::vector<GpuSlot> slots_;
  std::map<int, std::unique_ptr<Comm>> comms_;
  int fault_gpu_ = -1;
};

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
      ("impl", po::value(&o.impl)->default_value(o.impl), "sdh: the kernel (fast-fma, the fastest on the H100, fused rule; fast-lane, pinned rule; fast-lane-r8, fast-thread, fast-block, band-lane, band-lane-r8, fast-fma-r8)")
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

// The run's predicted time (bench/predict.hpp) before any CUDA call: the CPU oracle (and the
// CPU back end) at this host's rate, measured on a small problem; the GPU runs from the stated
// model (one GPU per configuration's GPU count, 1 when the count is not given: the later
// probe at a small N checks again with the measured rate).
bench::Forecast forecast(const Options& o, int ranks) {
  bench::Forecast f;
  const bool sdh = o.app == "sdh";
  auto p0 = make_problem(o, sdh ? 4000 : 120);  // host only (no CUDA before upload)
  const double per = bench::calibrate([&] { (void)p0->oracle(); }, double(p0->work()), 1.0, 1e-12);
  const double threads = double(bench::host_workers(1024));
  const std::vector<int> counts = o.gpu_counts.empty() ? std::vector<int>{1} : o.gpu_counts;
  for (i64 N : o.Ns) {
    const double work = sdh ? double(hs::pair_count(N)) : double(tet(u64(N)));
    if (N <= o.verify_max) f.add("CPU oracle", work * per);
    if (o.backend == "cpu") {  // one thread per rank works its ranges, once per chunk count
      f.add("CPU back end", work * per * threads / ranks * double(o.chunks.size() + 1));
      continue;
    }
    const double rate = sdh ? bench::model::gpu_sdh_fast_pairs_per_s : bench::model::gpu_triplets_per_s;
    for (int g : counts)
      f.add("GPU", double(o.chunks.size()) * (std::max(1, o.run.warmup) + o.run.reps) * work / rate /
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
  std::unique_ptr<bench::Table> csv;
  if (root)
    csv = session.table(o.csv, results::layout::sdh_multigpu.columns,  // threebody_multigpu.csv: the same layout
                        "\"gpus_used\":" + std::to_string(world_gpus) + ",\"mpi_ranks\":" + std::to_string(world.size) +
                            ",\"nccl\":\"" + std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) + "." +
                            std::to_string(NCCL_PATCH) + "\"," +
                            // every GPU this process drives (under MPI: the root rank's; each rank's log names its own)
                            gpu::devices_json(devs) + ",\"topology\":\"" + gpu::json_escape(gpu::link_topology()) + "\"");
  const std::string kernel = o.app == "sdh" ? o.impl : o.map + " rho=" + std::to_string(o.rho);

  // ---- predicted time, before the long work: the rate of a small probe on one GPU --------------
  double rate = 0;  // work per second, one GPU
  {
    // the largest requested N up to a cap: a probe at a tiny first N (e.g. --N 1000,...,1000000) would
    // measure an idle GPU's rate and refuse a run of seconds as hours
    const i64 Np = std::min<i64>(*std::max_element(o.Ns.begin(), o.Ns.end()), o.app == "sdh" ? 65536 : 1024);
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
      const double w = o.app == "sdh" ? double(hs::pair_count(N)) : double(tet(u64(N)));
      for (const Config& c : cfgs)
        f.add("GPU (" + std::to_string(rate / 1e9) + "e9/s per GPU, measured at a small N)",
              (std::max(1, o.run.warmup) + o.run.reps) * w / rate / (world.active ? world.size : c.gpus));
    }
    const std::string r = bench::refusal(kProgram, f, o.run.max_minutes);
    agree_or_exit(r.empty(), r.empty() ? r : r.substr(std::string(kProgram).size() + 2), 2);
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
    gpus.upload(*pb, world.active ? 1 : std::max_element(cfgs.begin(), cfgs.end(), [](auto& a, auto& b) { return a.gpus < b.gpus; })->gpus);
    // verification + warm-up: every configuration once (not timed), against the oracle and
    // against the first configuration
    std::vector<u64> first;
    for (const Config& c : cfgs) {
      Timing t{};
      for (int w = 0; w < std::max(1, o.run.warmup); ++w) {
        const std::vector<u64> h = pb->result(gpus.run(*pb, c, t));
        if (first.empty()) {
          first = h;
          // at every size, oracle or not: every pair (triplet) of the domain counted once, in some bucket
          u64 sum = 0;
          for (u64 v : h) sum += v;
          agree_or_exit(sum == pb->work(), o.app + " N=" + std::to_string(N) + " " + c.label() + ": the histogram counts " +
                                               std::to_string(sum) + ", not the " + std::to_string(pb->work()) +
                                               (o.app == "sdh" ? " pairs i < j" : " triplets x <= y <= z"), 1);
        }
        std::string d = first_difference(h, first);
        if (d.empty() && !oracle.empty()) d = first_difference(h, oracle);
        agree_or_exit(d.empty(), o.app + " N=" + std::to_string(N) + " " + c.label() + ": histogram differs (" + d + ")", 1);
      }
    }
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
        bench::Row row;
        row << o.app << (long long)N << kernel << G << c.chunks << G * c.chunks << (unsigned long long)pb->total()
            << (unsigned long long)pb->work() << sw.reps << bench::fixed(sw.median_ms, 4) << bench::fixed(sw.p25_ms, 4)
            << bench::fixed(sw.p75_ms, 4) << bench::fixed(sc.median_ms, 4) << bench::fixed(sr.median_ms, 4)
            << bench::fixed(sq.median_ms, 4) << bench::sig(sr.median_ms / sw.median_ms, 4) << bench::sig(per_s, 6)
            // verified: "oracle" = every bucket equals the CPU oracle's; "count" = (no oracle at this size) the
            // counts sum to the pairs / triplets; with identical = 1 every bucket equals 1 GPU x 1 chunk's, every
            // timed repetition included
            << bench::fixed(per_s / first_rate, 4) << bool(same[i]) << (oracle.empty() ? "count" : "oracle");
        csv->row(row);
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
