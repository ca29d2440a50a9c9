// experiments/multigpu/multi_hist_backends.cuh — the CPU and the GPU back ends (a section of multi_hist.cu, included by it
// once, in this order: multi_hist_problems.cuh, multi_hist_backends.cuh, multi_hist_plan.cuh).
#pragma once

namespace {

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
    auto enqueue = [&](int p) {  // GPU p's chunks, on its stream
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
    };
    // One host thread a GPU. A stream holds only so many pending launches; past that a launch waits for the GPU.
    // --app gram --exact enqueues thousands of sub-ranges a chunk, so one thread filling GPU 0's stream first
    // started GPU 1 about half a run late (device call 68, N = 4*10^6: x1.02 on 2 GPUs, wait_ms 29.7 s).
    // The project's pool (apps/parallel.hpp) with P workers over P items: a thread each, all at once.
    if (P == 1) {
      enqueue(0);
    } else {
      bench::parallel_for(
          u64(P), [&](unsigned, u64 b, u64 e) {
            for (u64 p = b; p < e; ++p) enqueue(int(p));
          },
          unsigned(P));
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

}  // namespace
