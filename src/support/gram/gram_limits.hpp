// src/support/gram/gram_limits.hpp — what kernel sm90_evt refuses (gram_api.hpp's kernels), host-only and without
// CUDA, so that the CPU tests (verify/test_gram.cpp) check it where no CUDA is installed.
#pragma once
#include <results/gram_names.hpp>  // Prec, Out and their names

#include <cstdint>
#include <string>

namespace gram {

// The outputs sm90_evt computes as a fused reduction (issue #37 item 1: the visitor tree's root counts the pairs,
// nothing of N x N is written): every precision, any N.
constexpr bool sm90_evt_reduction(Out o) {
  return o == Out::hist || o == Out::count || o == Out::hist_exact || o == Out::count_exact;
}
// Why kernel sm90_evt cannot run precision p, output o at N points: one line, or empty when it can.
// (run() answers such a request with cudaErrorInvalidValue.)
inline std::string sm90_evt_refusal(Prec p, Out o, std::int64_t N, bool product = false) {
  if (product) {
    if (p != Prec::bf16 && p != Prec::fp16)
      return std::string("sm90-evt: the product X X^T in bf16 and fp16 only (not ") + name(p) + ")";
    if (o != Out::mirror) return std::string("sm90-evt: the product X X^T mirror-written only (not ") + name(o) + ")";
  } else if (sm90_evt_reduction(o)) {
    return std::string();
  } else if (p != Prec::tf32) {
    return std::string("sm90-evt: stored distances in TF32 only (not ") + name(p) + "; its reductions take every precision)";
  }
  if (o != Out::lower && o != Out::mirror && o != Out::condensed)
    return std::string("sm90-evt: outputs lower, condensed, mirror, hist, count, hist-exact and count-exact only (") +
           name(o) + ": not yet)";
  if (o != Out::condensed && N % 4 != 0)
    return "sm90-evt: N = " + std::to_string(N) + " is not a multiple of 4 (TMA stores 16-byte rows of D)";
  return std::string();
}

}  // namespace gram
