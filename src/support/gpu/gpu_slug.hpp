// src/support/gpu/gpu_slug.hpp — the folder name of a GPU model, the one definition of the rule
// (host-only, plain C++): lower case, a leading "nvidia " and the memory size / type words (80gb,
// hbm, hbm2e, hbm3, hbm3e) dropped, the other words (runs of letters and digits) joined by '-';
// "gpu" if nothing is left. "NVIDIA H100 80GB HBM3" -> h100, "NVIDIA H200" -> h200,
// "NVIDIA H100 PCIe" -> h100-pcie. Every program that writes results/<slug>/ takes it from here:
// the CUDA programs through metadata.cuh's gpu_slug(cudaDeviceProp); the scripts (run_gpu_profile.sh,
// the Python programs through experiments/gpu_slug.py) through the program experiments/gpu_slug.cpp.
#pragma once
#include <string>

namespace tdmaps::gpu {

inline std::string gpu_slug(const std::string& name) {
  std::string n;
  for (char c : name) n += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
  if (n.rfind("nvidia ", 0) == 0) n = n.substr(7);
  const auto memory_word = [](const std::string& w) {
    size_t k = 0;
    while (k < w.size() && w[k] >= '0' && w[k] <= '9') ++k;
    if (k > 0 && w.substr(k) == "gb") return true;  // 80gb
    if (w.rfind("hbm", 0) != 0) return false;       // hbm, hbm2, hbm2e, hbm3, hbm3e
    k = 3;
    while (k < w.size() && w[k] >= '0' && w[k] <= '9') ++k;
    return k == w.size() || (k + 1 == w.size() && w[k] == 'e');
  };
  std::string o, w;
  const auto flush = [&] {
    if (!w.empty() && !memory_word(w)) o += (o.empty() ? "" : "-") + w;
    w.clear();
  };
  for (char c : n) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) w += c;
    else flush();
  }
  flush();
  return o.empty() ? "gpu" : o;
}

}  // namespace tdmaps::gpu
