// src/support/bench/arch.hpp — can this binary's GPU code run on the GPU found? Host-only (no CUDA
// header), so the rule is unit-tested without a GPU (test_bench.cpp); Session (gpu.cuh) applies it
// at start-up and refuses with one line, exit 2, instead of failing at the first launch.
//
// The build (top-level meson.build, option gpu_arch) passes what it compiled to every CUDA file:
//   TDMAPS_GPU_SASS  "75,80,90"  real architectures with SASS (sm_75, sm_80, sm_90)
//   TDMAPS_GPU_PTX   90          the virtual architecture of the PTX it embeds (compute_90)
// CUDA's rules (CUDA Programming Guide, "Binary Compatibility" and "PTX Compatibility"):
//   SASS for sm_XY runs on a device of compute capability X.Z with Z >= Y (same major only);
//   PTX for compute_XY is JIT-compiled by the driver for any device of capability >= X.Y.
// Arch-specific targets (sm_90a, sm_100f) run on their own architecture only; the build makes none.
// A capability is written as one number, 10 * major + minor (8.6 -> 86, 12.0 -> 120).
#pragma once
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace tdmaps::bench {

// What a binary carries.
struct GpuCode {
  std::vector<int> sass;  // real architectures, e.g. {75, 80, 90}
  int ptx = 0;            // virtual architecture of the PTX, 0 = none
};

// "75,80,90" -> {75, 80, 90}; an item that is not a plain number is skipped.
inline std::vector<int> parse_arch_list(const std::string& s) {
  std::vector<int> out;
  size_t b = 0;
  while (b <= s.size()) {
    size_t e = s.find(',', b);
    if (e == std::string::npos) e = s.size();
    const std::string item = s.substr(b, e - b);
    bool digits = !item.empty() && item.size() <= 4;
    for (char c : item) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (digits) out.push_back(std::stoi(item));
    b = e + 1;
  }
  return out;
}

// "sm_52", "compute_52", "52" or "5.2" -> 52; 0 when it is none of these.
inline int parse_capability(const std::string& s) {
  std::string t = s;
  for (const char* p : {"sm_", "compute_"})
    if (t.rfind(p, 0) == 0) t = t.substr(std::string(p).size());
  const size_t dot = t.find('.');
  if (dot != std::string::npos) {
    const std::string maj = t.substr(0, dot), min = t.substr(dot + 1);
    if (maj.empty() || maj.size() > 2 || min.size() != 1 || !std::isdigit(static_cast<unsigned char>(min[0])))
      return 0;
    for (char c : maj)
      if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    return std::stoi(maj) * 10 + (min[0] - '0');
  }
  if (t.empty() || t.size() > 3) return 0;
  for (char c : t)
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
  const int v = std::stoi(t);
  return v >= 10 ? v : 0;
}

// How a device of capability `cap` runs `code`.
enum class CodePath { sass, ptx_jit, none };
inline CodePath code_path(const GpuCode& code, int cap) {
  for (int a : code.sass)
    if (a / 10 == cap / 10 && a % 10 <= cap % 10) return CodePath::sass;
  if (code.ptx > 0 && code.ptx <= cap) return CodePath::ptx_jit;
  return CodePath::none;
}

inline std::string sm_name(int cap) { return "sm_" + std::to_string(cap); }

// "sm_75, sm_80 and sm_90 (PTX compute_90)".
inline std::string describe(const GpuCode& code) {
  std::vector<int> s = code.sass;
  std::sort(s.begin(), s.end());
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) out += (i == 0 ? "" : i + 1 == s.size() ? " and " : ", ") + sm_name(s[i]);
  if (s.empty()) out = "no SASS";
  out += code.ptx > 0 ? " (PTX compute_" + std::to_string(code.ptx) + ")" : " (no PTX)";
  return out;
}

// The oldest architecture a CUDA toolkit version (CUDART_VERSION, e.g. 13000) builds for:
// CUDA 13 dropped sm_50..sm_72, CUDA 12 dropped sm_35/sm_37, CUDA 11 dropped sm_30/sm_32.
inline int oldest_target(int cuda_version) {
  return cuda_version >= 13000 ? 75 : cuda_version >= 12000 ? 50 : cuda_version >= 11000 ? 35 : 30;
}

// "CUDA 13.0".
inline std::string cuda_name(int cuda_version) {
  return "CUDA " + std::to_string(cuda_version / 1000) + "." + std::to_string(cuda_version % 1000 / 10);
}

// The rebuild advice of a refusal line; when the toolkit that built the binary cannot target
// the device, it says so (README: "Supported GPUs and CUDA versions").
inline std::string rebuild_advice(int cap, int cuda_version) {
  std::string a = "rebuild for it with: make build MESONFLAGS=-Dgpu_arch=" + sm_name(cap);
  if (cuda_version > 0 && cap < oldest_target(cuda_version))
    a += " and an older CUDA (" + cuda_name(cuda_version) + ", which built this binary, targets " +
         sm_name(oldest_target(cuda_version)) + " and newer; README: Supported GPUs and CUDA versions)";
  return a;
}

// The one refusal line when `code` has nothing a device of capability `cap` can run; "" when it
// runs. `device` names the GPU (cudaDeviceProp::name).
inline std::string arch_refusal(const std::string& program, const GpuCode& code, int cap, const std::string& device,
                                int cuda_version = 0) {
  if (code_path(code, cap) != CodePath::none) return "";
  return program + ": this binary has GPU code for " + describe(code) + " but the GPU found is " + sm_name(cap) +
         " (" + device + "): " + rebuild_advice(cap, cuda_version);
}

// The one line when the CUDA runtime itself cannot load the code although the rule above says
// it could (e.g. PTX newer than the driver's JIT compiler): `why` is cudaGetErrorString's text.
inline std::string load_refusal(const std::string& program, const GpuCode& code, int cap, const std::string& device,
                                const std::string& why) {
  return program + ": the GPU found, " + sm_name(cap) + " (" + device + "), cannot load this binary's GPU code for " +
         describe(code) + " (" + why + "): update the driver or " + rebuild_advice(cap, 0);
}

}  // namespace tdmaps::bench
