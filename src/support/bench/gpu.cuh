// src/support/bench/gpu.cuh — the GPU side of the harness every experiment program uses:
//   Session      GPU presence (one message; exit 77 with --skip-if-no-gpu, else exit 3), GPU code
//                for the device found (else one line and exit 2: arch.hpp), the device, the
//                results folder per GPU, the metadata line, the CSVs
//   Interleaved  BB and the maps timed in the same run, interleaved launch by launch
//                (round r starts at variant r mod k), CUDA events per launch, warm-up
//                first, reps sized by the one Budget policy (budget.hpp)
//   Progress     one line per step on stderr with the elapsed time
// Host-only parts (args, budget, stats, table, parallel) are in the .hpp files beside it.
#pragma once
#include "arch.hpp"
#include "args.hpp"
#include "budget.hpp"
#include "timing.cuh"
#include "plan.hpp"
#include "predict.hpp"
#include "stats.hpp"
#include "table.hpp"

#include <apps/parallel.hpp>
#include <gpu/common.cuh>

#include <chrono>
#include <cstdarg>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tdmaps::bench {

// --version names the commit of experiments/commit.cpp.in (args.hpp commit_source).
inline const bool commit_source_set = (commit_source() = &::tdmaps_commit_id, true);

// Why cudaGetDeviceCount found no GPU, in words a user can act on. The runtime reports a
// machine without any NVIDIA driver as cudaErrorInsufficientDriver ("driver version is
// insufficient"), so the driver's own /proc entry decides which it is.
inline std::string no_gpu_cause(cudaError_t e) {
  std::error_code ec;
  const bool driver = std::filesystem::exists("/proc/driver/nvidia/version", ec);
  const std::string code = e == cudaSuccess ? "0 devices" : std::string(cudaGetErrorName(e));
  if (!driver) return "no NVIDIA driver or GPU found (" + code + ")";
  if (e == cudaSuccess || e == cudaErrorNoDevice) {
    const char* vis = std::getenv("CUDA_VISIBLE_DEVICES");
    return "the NVIDIA driver is loaded but sees no GPU (" + code +
           (vis ? std::string(", CUDA_VISIBLE_DEVICES='") + vis + "' limits the GPUs it may see" : std::string()) + ")";
  }
  if (e == cudaErrorInsufficientDriver)
    return "the NVIDIA driver is older than this build's CUDA runtime " + std::to_string(CUDART_VERSION / 1000) + "." +
           std::to_string(CUDART_VERSION % 1000 / 10) + " (" + code + ")";
  return "the CUDA runtime cannot use the GPU (" + code + ": " + cudaGetErrorString(e) + ")";
}

// No usable GPU: exit 77 with one line on stdout when `skip` (meson's "skipped"), else one
// line on stderr naming the program, the cause and the next step, exit 3. Returns the device.
inline int require_gpu_or_exit(const std::string& program, bool skip) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    const std::string cause = no_gpu_cause(e);
    if (skip) {
      std::printf("%s: SKIPPED, %s\n", program.c_str(), cause.c_str());
      std::fflush(stdout);
      std::exit(exit_skipped);
    }
    std::fprintf(stderr,
                 "%s: %s; nothing was run. Run it on a machine with an NVIDIA GPU, or run `make figures` to redraw "
                 "the figures from the committed results\n",
                 program.c_str(), cause.c_str());
    std::exit(exit_no_gpu);
  }
  return gpu::require_gpu();
}
// Exits 77 (meson's "skipped") when there is no usable GPU, with one line on stdout.
inline void skip_without_gpu(const std::string& program) { (void)require_gpu_or_exit(program, true); }

// ---- the GPU code of this binary against the GPU found (arch.hpp) -------------------------
// What the build compiled (top-level meson.build passes both macros to every CUDA file).
inline GpuCode built_gpu_code() {
  GpuCode c;
#if defined(TDMAPS_GPU_SASS) && defined(TDMAPS_GPU_PTX)
  c.sass = parse_arch_list(TDMAPS_GPU_SASS);
  c.ptx = TDMAPS_GPU_PTX;
#endif
  return c;
}

template <int>
__global__ void gpu_code_probe() {}

// Refuses (one line on stderr, exit 2) when this binary has no GPU code the device can run:
// first by CUDA's rules on the build's list, then by the runtime's own answer for a trivial
// kernel, so a mismatch the rules miss (a driver too old for the PTX) is one line too.
inline void require_gpu_code(const std::string& program, const cudaDeviceProp& prop) {
  const GpuCode code = built_gpu_code();
  const int cap = prop.major * 10 + prop.minor;
  if (!code.sass.empty() || code.ptx > 0) {
    const std::string line = arch_refusal(program, code, cap, prop.name, CUDART_VERSION);
    if (!line.empty()) {
      std::fprintf(stderr, "%s\n", line.c_str());
      std::exit(2);
    }
  }
  cudaFuncAttributes attr{};
  const cudaError_t e = cudaFuncGetAttributes(&attr, gpu_code_probe<0>);
  if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorUnsupportedPtxVersion || e == cudaErrorInvalidPtx ||
      e == cudaErrorJitCompilerNotFound || e == cudaErrorInvalidKernelImage || e == cudaErrorInvalidDeviceFunction) {
    std::fprintf(stderr, "%s\n", load_refusal(program, code, cap, prop.name, cudaGetErrorString(e)).c_str());
    std::exit(2);
  }
  TD_CUDA(e);
}

// TEST ONLY: TDMAPS_FAKE_GPU=sm_52 (or 5.2) makes Session judge this binary's GPU code against a
// device of that capability before it looks for a GPU, so the refusal is tested without one
// (the meson tests bench_sdh*_refuses_sm_52). A fake the code can run changes nothing; so does
// a build that did not say what it compiled (no TDMAPS_GPU_SASS).
inline void check_fake_gpu(const std::string& program) {
  const char* fake = std::getenv("TDMAPS_FAKE_GPU");
  if (!fake || !*fake) return;
  const int cap = parse_capability(fake);
  if (cap == 0) {
    std::fprintf(stderr, "%s: TDMAPS_FAKE_GPU=%s: expected sm_XY or X.Y\n", program.c_str(), fake);
    std::exit(2);
  }
  const GpuCode code = built_gpu_code();
  if (code.sass.empty() && code.ptx == 0) return;
  const std::string line = arch_refusal(program, code, cap, "faked by TDMAPS_FAKE_GPU", CUDART_VERSION);
  if (!line.empty()) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::exit(2);
  }
}

// The start of a GPU check program (gpu_verify_*): the TDMAPS_FAKE_GPU hook, exit 77 without
// a GPU (meson's skip), and Session's refusal of a GPU this binary has no code for. Returns the device.
inline int start_gpu_check(const std::string& program) {
  check_fake_gpu(program);
  skip_without_gpu(program);
  const int dev = gpu::require_gpu();
  cudaDeviceProp prop{};
  TD_CUDA(cudaGetDeviceProperties(&prop, dev));
  require_gpu_code(program, prop);
  return dev;
}

// One run of an experiment program on one GPU.
class Session {
 public:
  // After the command line is parsed (bad input already rejected). Without a GPU:
  // exit 77 when skip_if_no_gpu, else one line and exit 3 (require_gpu_or_exit). A GPU this binary has no code for:
  // one line (built for, found, the rebuild command) and exit 2.
  Session(std::string program, int argc, char** argv, const RunOptions& run)
      : program_(std::move(program)), args_(join_args(argc, argv)), out_(run.out) {
    check_fake_gpu(program_);
    dev_ = require_gpu_or_exit(program_, run.skip_if_no_gpu);
    TD_CUDA(cudaGetDeviceProperties(&prop_, dev_));
    require_gpu_code(program_, prop_);
    if (!pending_prediction().empty()) std::fprintf(stderr, "%s\n", pending_prediction().c_str());  // predict.hpp
  }
  const cudaDeviceProp& prop() const { return prop_; }
  int device() const { return dev_; }
  std::string slug() const { return gpu::gpu_slug(prop_); }
  // <out>/<gpu_slug>, created.
  std::string dir() const {
    const std::string d = out_ + "/" + slug();
    std::error_code ec;
    std::filesystem::create_directories(d, ec);
    if (ec) gpu::die("cannot create " + d + ": " + ec.message());
    return d;
  }
  // The metadata JSON of this run; `extra` is appended as more JSON fields ("\"k\":v,...").
  std::string metadata(const std::string& extra = "") const {
    std::string m = gpu::metadata_json(program_, args_);
    if (!extra.empty()) m = m.substr(0, m.size() - 1) + "," + extra + "}";
    return m;
  }
  // The CSV of a declared layout (results/layouts.hpp): <dir()>/<its file>, its header, this run's metadata line.
  std::unique_ptr<results::CsvFile> table(const results::Layout& l, const std::string& extra = "") const {
    return table(l.file, l, extra);
  }
  // The CSV of a declared layout under another file name (a program's --csv): <dir()>/<file>, L's header.
  std::unique_ptr<results::CsvFile> table(const std::string& file, const results::Layout& l, const std::string& extra = "") const {
    return std::make_unique<results::CsvFile>(dir() + "/" + file, metadata(extra), l);
  }
  const std::string& program() const { return program_; }

 private:
  std::string program_, args_, out_;
  int dev_ = 0;
  cudaDeviceProp prop_{};
};

// Seconds since a point in time.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Progress on stderr: "[tag] <message> (k/n, 12.3 s)".
class Progress {
 public:
  Progress(std::string tag, size_t steps) : tag_(std::move(tag)), steps_(steps), t0_(std::chrono::steady_clock::now()) {}
  void step(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    ++done_;
    std::fprintf(stderr, "[%s] %s (%zu/%zu, %.1f s)\n", tag_.c_str(), b, done_, steps_, seconds());
  }
  double seconds() const { return seconds_since(t0_); }

 private:
  std::string tag_;
  size_t steps_, done_ = 0;
  std::chrono::steady_clock::time_point t0_;
};

// The interleaved timer. Variant 0 is the reference (BB) by convention of the callers.
//   warm-up: `warmup` untimed launches of every variant;
//   one timed round (every variant once) sizes the point: reps = budget.reps(round_ms, ...);
//   then the remaining rounds, round r in the order r, r+1, ... (mod k).
// Every launch is timed alone with a CUDA event pair (all passes of a multi-pass map).
// The first round's timings count; each Stats.reps is the number of launches run.
class Interleaved {
 public:
  Interleaved(const RunOptions& run, Budget& budget) : run_(run), budget_(budget) {}
  Interleaved(const Interleaved&) = delete;
  Interleaved& operator=(const Interleaved&) = delete;

  std::vector<Stats> time(const std::vector<std::function<void()>>& launches) {
    const size_t k = launches.size();
    std::vector<std::vector<float>> t(k);
    if (k == 0) return {};
    const auto t0 = std::chrono::steady_clock::now();
    for (int w = 0; w < run_.warmup; ++w)
      for (const auto& f : launches) f();
    TD_CUDA(cudaDeviceSynchronize());
    double round_ms = 0;
    for (size_t i = 0; i < k; ++i) round_ms += one(launches[i], t[i]);
    reps_ = budget_.reps(round_ms, run_.reps, run_.min_reps);
    for (int r = 1; r < reps_; ++r)
      for (size_t j = 0; j < k; ++j) {
        const size_t i = (j + size_t(r)) % k;
        one(launches[i], t[i]);
      }
    budget_.spend(seconds_since(t0));
    std::vector<Stats> s;
    for (auto& v : t) s.push_back(summarize(v));
    return s;
  }
  int last_reps() const { return reps_; }

 private:
  double one(const std::function<void()>& f, std::vector<float>& out) {
    out.push_back(events_.time(f));
    return out.back();
  }
  const RunOptions& run_;
  Budget& budget_;
  gpu::EventPair events_;
  int reps_ = 0;
};

}  // namespace tdmaps::bench
