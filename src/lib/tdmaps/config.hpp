// tdmaps/config.hpp — portability layer shared by host (g++) and device (nvcc).
//
// Every map is written once, in headers that both the CPU oracle and the CUDA
// kernels include. TD_HD marks those functions __host__ __device__ under nvcc
// and expands to nothing under a plain C++ compiler. Float arithmetic that the
// host must reproduce bit for bit goes through the *_rn helpers below, which
// pin IEEE round-to-nearest and forbid fused multiply-add contraction on the
// device (nvcc contracts a*b+c by default); the host build uses
// -ffp-contract=off for the same reason.
#pragma once
#include <cstdint>
#include <cmath>

#if defined(__CUDACC__)
#define TD_HD __host__ __device__ __forceinline__
#else
#define TD_HD inline
#endif

namespace tdmaps {

using i64 = std::int64_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;
using u32 = std::uint32_t;

// ---- index widths ---------------------------------------------------------------
// Every map's arithmetic is written once, templated on the signed index type Index of
// the cells it produces: i32 (the narrow path) or i64 (the wide path). Block and
// thread indices of that path are the matching unsigned type uidx<Index>. The plan
// decides which path a launch takes (PlanBase::narrow, plan.hpp); kernels dispatch
// once, on the host.
template <class Index> struct index_traits;
template <> struct index_traits<i32> { using unsigned_type = u32; static constexpr const char* name = "32"; };
template <> struct index_traits<i64> { using unsigned_type = u64; static constexpr const char* name = "64"; };
template <class Index> using uidx = typename index_traits<Index>::unsigned_type;

// ---- pinned-rounding float helpers (host and device give identical bits) ----
TD_HD float fmul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
TD_HD float fadd_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
TD_HD float fsub_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
TD_HD float fdiv_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
// Correctly rounded square root (IEEE 754 requires it; __fsqrt_rn on device).
TD_HD float fsqrt_rn(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
TD_HD double dsqrt_rn(double a) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
TD_HD double dadd_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
TD_HD double dmul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
// The same conversions for each index width (overloads: the argument's type picks
// the device instruction: 32-bit I2F / F2I on the narrow path).
TD_HD float to_float_rn(u32 v) {
#if defined(__CUDA_ARCH__)
  return __uint2float_rn(v);
#else
  return static_cast<float>(v);
#endif
}
TD_HD float to_float_rn(u64 v) {
#if defined(__CUDA_ARCH__)
  return __ull2float_rn(v);
#else
  return static_cast<float>(v);
#endif
}
// A 64-bit value that often fits 32 bits (TetRootFast's 6 lambda): the same float,
// from the 32-bit conversion when the high word is zero (one instruction on the device).
TD_HD float u64_to_float_rn(u64 v) { return (v >> 32) == 0 ? to_float_rn(u32(v)) : to_float_rn(v); }
TD_HD double to_double_rn(u32 v) { return static_cast<double>(v); }  // exact
TD_HD double to_double_rn(u64 v) {
#if defined(__CUDA_ARCH__)
  return __ull2double_rn(v);
#else
  return static_cast<double>(v);
#endif
}
// Truncation of a float (double) to an unsigned index, saturating: NaN and values <= 0
// give 0, values past the type's range its maximum. On the device that is what one
// cvt.rzi instruction does (PTX float-to-integer conversions clamp, NaN gives 0); the
// host spells it out (a plain cast would be undefined there).
template <class U> TD_HD U float_floor_nonneg(float v);
template <> TD_HD u32 float_floor_nonneg<u32>(float v) {
#if defined(__CUDA_ARCH__)
  return __float2uint_rz(v);
#else
  if (!(v > 0.0f)) return 0;
  return v >= 4294967296.0f ? 0xFFFFFFFFu : static_cast<u32>(v);
#endif
}
template <> TD_HD u64 float_floor_nonneg<u64>(float v) {
#if defined(__CUDA_ARCH__)
  return __float2ull_rz(v);
#else
  if (!(v > 0.0f)) return 0;
  return v >= 18446744073709551616.0f ? ~0ull : static_cast<u64>(v);
#endif
}
template <class U> TD_HD U double_floor_nonneg(double v);
template <> TD_HD u32 double_floor_nonneg<u32>(double v) {
#if defined(__CUDA_ARCH__)
  return __double2uint_rz(v);
#else
  if (!(v > 0.0)) return 0;
  return v >= 4294967296.0 ? 0xFFFFFFFFu : static_cast<u32>(v);
#endif
}
template <> TD_HD u64 double_floor_nonneg<u64>(double v) {
#if defined(__CUDA_ARCH__)
  return __double2ull_rz(v);
#else
  if (!(v > 0.0)) return 0;
  return v >= 18446744073709551616.0 ? ~0ull : static_cast<u64>(v);
#endif
}
TD_HD double dsub_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}

TD_HD float bits_to_float(u32 b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float f;
  __builtin_memcpy(&f, &b, sizeof f);
  return f;
#endif
}
TD_HD u32 float_to_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  u32 b;
  __builtin_memcpy(&b, &f, sizeof b);
  return b;
#endif
}

}  // namespace tdmaps
