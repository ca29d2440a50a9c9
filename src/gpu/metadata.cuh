// src/gpu/metadata.cuh — the metadata record (one JSON object: device, driver from
// /proc, toolchain, build, run) written beside every CSV (json_escape, utc_now,
// gpu_slug, kernel_driver_version, metadata_json). Part of the umbrella src/gpu/common.cuh.
#pragma once
#include "cuda_check.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>

// ---- metadata --------------------------------------------------------------------------
#ifndef TDMAPS_COMMIT
#define TDMAPS_COMMIT "unknown"
#endif
#ifndef TDMAPS_NVCC_FLAGS
#define TDMAPS_NVCC_FLAGS "unknown"
#endif

namespace tdmaps::gpu {

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

// The host CPU's model name from /proc/cpuinfo ("unknown" where there is none).
inline std::string host_cpu_model() {
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

}  // namespace tdmaps::gpu
