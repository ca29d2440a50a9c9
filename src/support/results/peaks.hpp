// src/support/results/peaks.hpp — the hardware peaks our Gram targets and figures are read against (model constants,
// not measured), once: the figures' roofline (figures/fig_gram.cpp) and target 36-lower-256 (paper/claims/gram_measures.cpp).
// Host-only, no CUDA.
#pragma once
#include <cmath>
#include <string>

namespace results {

// The TF32 tensor-core peak of the H100 SXM and the H200 (SXM), dense (without 2:4 sparsity): 494.7 TFLOP/s,
// = 132 SMs × 2048 TF32 flops a clock × 1.83 GHz. NVIDIA's H100 and H200 datasheets state TF32 Tensor Core
// 989 TFLOP/s "with sparsity", twice the dense rate; the dense 494.7 is the H100 architecture whitepaper's,
// as tabulated at https://glennklockwood.com/garden/processors/h100. NaN for another GPU.
constexpr double kTf32PeakTflops = 494.7;
constexpr const char* kTf32PeakSource =
    "NVIDIA's H100/H200 SXM specification (989 TFLOP/s with 2:4 sparsity, half that dense; the H100 architecture "
    "whitepaper's dense TF32 figure)";
// The peak of the GPU a CSV's metadata names ("gpu"), or NaN where it is not one of those above.
inline double tf32_peak(const std::string& gpu) {
  const bool h100_sxm = gpu.find("H100") != std::string::npos && gpu.find("HBM3") != std::string::npos;
  const bool h200_sxm = gpu.find("H200") != std::string::npos;
  const bool other = gpu.find("PCIe") != std::string::npos || gpu.find("NVL") != std::string::npos;
  return (h100_sxm || h200_sxm) && !other ? kTf32PeakTflops : NAN;
}

}  // namespace results
