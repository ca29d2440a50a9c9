// src/gpu/common.cuh — what every GPU program of tdmaps shares: checked CUDA
// calls, launches of a map's plan, event timing with median and spread, and the
// metadata record written beside every CSV.
#pragma once
#include <tdmaps/registry.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <type_traits>
#include <vector>

namespace tdmaps::gpu {

// ---- errors: every CUDA call and launch is checked --------------------------------
[[noreturn]] inline void die(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  std::exit(1);
}
inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    die(std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " + cudaGetErrorString(e));
}
#define TD_CUDA(call) ::tdmaps::gpu::check((call), #call, __FILE__, __LINE__)
// After every launch: configuration errors now, execution errors at the next sync.
#define TD_LAUNCHED() ::tdmaps::gpu::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

inline dim3 to_dim3(Dim3 d) { return dim3(d.x, d.y, d.z); }

// Exits with status 2 and one line when there is no usable GPU.
inline int require_gpu() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "error: no CUDA GPU available (%s)\n", e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
    std::exit(2);
  }
  int dev = 0;
  TD_CUDA(cudaGetDevice(&dev));
  return dev;
}

// Device memory with a clear error when the GPU has too little.
template <class T>
T* device_alloc(size_t count, const char* what) {
  size_t free_b = 0, total_b = 0;
  TD_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const size_t bytes = count * sizeof(T);
  if (bytes > free_b)
    die(std::string("not enough GPU memory for ") + what + ": need " + std::to_string(bytes >> 20) + " MiB, " +
        std::to_string(free_b >> 20) + " MiB free");
  T* p = nullptr;
  TD_CUDA(cudaMalloc(&p, bytes ? bytes : 1));
  return p;
}

// ---- timing -------------------------------------------------------------------------
struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0, p25_ms = 0, p75_ms = 0;
  int reps = 0;
};
inline Stats summarize(std::vector<float> t) {
  std::sort(t.begin(), t.end());
  Stats s;
  s.reps = int(t.size());
  if (t.empty()) return s;
  const auto q = [&](double f) { return double(t[size_t(f * double(t.size() - 1) + 0.5)]); };
  s.median_ms = q(0.5); s.min_ms = t.front(); s.max_ms = t.back(); s.p25_ms = q(0.25); s.p75_ms = q(0.75);
  return s;
}
// Times fn() (which launches work on the default stream) with CUDA events:
// `warmup` untimed calls, then `reps` timed calls, one event pair each.
template <class F>
Stats time_events(F&& fn, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) fn();
  TD_CUDA(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  TD_CUDA(cudaEventCreate(&a));
  TD_CUDA(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    TD_CUDA(cudaEventRecord(a));
    fn();
    TD_CUDA(cudaEventRecord(b));
    TD_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    TD_CUDA(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  TD_CUDA(cudaEventDestroy(a));
  TD_CUDA(cudaEventDestroy(b));
  return summarize(t);
}

// ---- launching a plan ----------------------------------------------------------------
// The index path of a plan (Plan2/Plan3::narrow, decided by the map's plan()) picks the
// kernel instantiation once, on the host: a kernel templated on the index type I is
// passed as a selector, TD_KERNEL_FOR(kernel<M, I, ...>), which launch2/launch3 call
// with index_tag<i32> (narrow) or index_tag<i64> (wide).
template <class I> struct index_tag { using type = I; };
#define TD_KERNEL_FOR(...) [](auto td_index_tag) { using I = typename decltype(td_index_tag)::type; return &__VA_ARGS__; }
template <class P, class F>
void with_index(const P& p, F&& f) {
  if (p.narrow) f(index_tag<i32>{});
  else f(index_tag<i64>{});
}

// Launches kernel(plan, pass, args...) for every pass of a 2D plan. `k` is a kernel
// (one index path) or a TD_KERNEL_FOR selector (the plan's path).
template <class M, class K, class... A>
void launch2(K k, const Plan2& p, A... args) {
  if constexpr (std::is_invocable_v<K, index_tag<i32>>) {
    with_index(p, [&](auto w) { launch2<M>(k(w), p, args...); });
  } else {
    for (int pass = 0; pass < p.passes; ++pass) {
      k<<<to_dim3(M::grid(p, pass)), to_dim3(M::block(p))>>>(p, pass, args...);
      TD_LAUNCHED();
    }
  }
}
template <class M, class K, class... A>
void launch3(K k, const Plan3& p, A... args) {
  if constexpr (std::is_invocable_v<K, index_tag<i32>>) {
    with_index(p, [&](auto w) { launch3<M>(k(w), p, args...); });
  } else {
    k<<<to_dim3(M::grid(p)), to_dim3(M::block(p))>>>(p, args...);
    TD_LAUNCHED();
  }
}

// ---- metadata --------------------------------------------------------------------------
#ifndef TDMAPS_COMMIT
#define TDMAPS_COMMIT "unknown"
#endif
#ifndef TDMAPS_NVCC_FLAGS
#define TDMAPS_NVCC_FLAGS "unknown"
#endif

inline std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}
inline std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}
// Short device name usable as a folder: "NVIDIA H100 80GB HBM3" -> "h100-80gb-hbm3".
inline std::string gpu_slug(const cudaDeviceProp& p) {
  std::string n = p.name, o;
  if (n.rfind("NVIDIA ", 0) == 0) n = n.substr(7);
  for (char c : n) {
    if (c >= 'A' && c <= 'Z') o += char(c - 'A' + 'a');
    else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) o += c;
    else if (!o.empty() && o.back() != '-') o += '-';
  }
  while (!o.empty() && o.back() == '-') o.pop_back();
  return o;
}
// The kernel driver's version string ("580.159.04"), from /proc; "unknown" elsewhere.
inline std::string kernel_driver_version() {
  std::FILE* f = std::fopen("/proc/driver/nvidia/version", "r");
  if (!f) return "unknown";
  char line[512] = {0};
  const bool ok = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  if (!ok) return "unknown";
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..."
  std::string s = line, best = "unknown";
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\n') ++j;
    const std::string tok = s.substr(i, j - i);
    if (!tok.empty() && tok[0] >= '0' && tok[0] <= '9' && tok.find('.') != std::string::npos) { best = tok; break; }
    i = j + 1;
  }
  return best;
}

// One JSON object describing the device, driver, toolchain, build and run.
inline std::string metadata_json(const std::string& program, const std::string& args) {
  int dev = 0, drv = 0, rt = 0;
  TD_CUDA(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  TD_CUDA(cudaGetDeviceProperties(&p, dev));
  TD_CUDA(cudaDriverGetVersion(&drv));
  TD_CUDA(cudaRuntimeGetVersion(&rt));
  int sm_clock = 0, mem_clock = 0, bus = 0;
  cudaDeviceGetAttribute(&sm_clock, cudaDevAttrClockRate, dev);
  cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, dev);
  cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev);
  char buf[2048];
  std::snprintf(buf, sizeof buf,
                "{\"program\":\"%s\",\"args\":\"%s\",\"date_utc\":\"%s\",\"commit\":\"%s\","
                "\"gpu\":\"%s\",\"gpu_slug\":\"%s\",\"cc\":\"%d.%d\",\"sm_count\":%d,"
                "\"sm_clock_max_mhz\":%d,\"mem_clock_max_mhz\":%d,\"mem_bus_bits\":%d,"
                "\"global_mem_mib\":%zu,\"l2_bytes\":%d,\"driver\":\"%s\",\"driver_cuda\":%d,\"runtime\":%d,"
                "\"nvcc\":\"%d.%d\",\"nvcc_flags\":\"%s\"}",
                json_escape(program).c_str(), json_escape(args).c_str(), utc_now().c_str(), TDMAPS_COMMIT,
                json_escape(p.name).c_str(), gpu_slug(p).c_str(), p.major, p.minor, p.multiProcessorCount,
                sm_clock / 1000, mem_clock / 1000, bus, size_t(p.totalGlobalMem >> 20), p.l2CacheSize, kernel_driver_version().c_str(), drv, rt,
                __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, json_escape(TDMAPS_NVCC_FLAGS).c_str());
  return buf;
}

// ---- CSV ------------------------------------------------------------------------------
// Rows are flushed as they are written, so an interrupted sweep keeps what it finished.
// The first line is "# " + metadata JSON, the second the header.
class Csv {
 public:
  Csv(const std::string& path, const std::string& metadata, const std::string& header) {
    f_ = std::fopen(path.c_str(), "w");
    if (!f_) die("cannot write " + path);
    std::fprintf(f_, "# %s\n%s\n", metadata.c_str(), header.c_str());
    std::fflush(f_);
  }
  ~Csv() { if (f_) std::fclose(f_); }
  Csv(const Csv&) = delete;
  Csv& operator=(const Csv&) = delete;
  void row(const std::string& line) {
    std::fprintf(f_, "%s\n", line.c_str());
    std::fflush(f_);
  }
 private:
  std::FILE* f_ = nullptr;
};

}  // namespace tdmaps::gpu
