// src/support/gram/gram_prepare.cuh — the operands as the tensor cores read them (prepare(): O(N d)): rounding,
// padding and the norms. Part of gram.cuh.
#pragma once
#include "gram_config.cuh"

namespace gram {

// ---- preparation --------------------------------------------------------------------------
template <class E> __device__ __forceinline__ E to_elem(float v) { return E(v); }
__device__ __forceinline__ float tf32_rn(float v) {  // round to nearest TF32 (cvt.rna: ties away)
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
  return __uint_as_float(r);
}
// The value the operands are made of: x_ik, or y_ik = fl(x_ik - mu_k) where prepared centered (mean != null).
__device__ __forceinline__ float shifted(const float* __restrict__ X, i64 i, int d, int k, const float* __restrict__ mean) {
  const float x = X[i * d + k];
  return mean ? x - mean[k] : x;
}
// The shift of a centered preparation: mu_k = the mean of the finite x_ik of the first min(N, center_rows) points,
// summed in float64, rounded to float (0 where none is finite). One block a feature. Any mu is exact-safe (gram_launch.cuh's
// bracket adds the shift's rounding); this one makes the norms small on data far from the origin. (A template: one
// definition however many units include this header.)
template <Prec P>
__global__ void mean_kernel(const float* __restrict__ X, i64 N, int d, float* mean) {
  __shared__ double sum[256];
  __shared__ unsigned cnt[256];
  const i64 n = N < center_rows ? N : center_rows;
  double s = 0;
  unsigned m = 0;
  for (i64 i = threadIdx.x; i < n; i += blockDim.x) {
    const float v = X[i * d + blockIdx.x];
    if (isfinite(v)) s += double(v), ++m;
  }
  sum[threadIdx.x] = s;
  cnt[threadIdx.x] = m;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o /= 2) {
    if (int(threadIdx.x) < o) sum[threadIdx.x] += sum[threadIdx.x + o], cnt[threadIdx.x] += cnt[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) mean[blockIdx.x] = cnt[0] ? float(sum[0] / double(cnt[0])) : 0.0f;
}
// One thread per (row, k) of the padded operands; norms by a second kernel (one warp per row).
template <Prec P>
__global__ void prepare_kernel(const float* __restrict__ X, i64 N, int d, i64 Np, i64 Kp, const float* __restrict__ mean,
                               Storage<P>* A, Storage<P>* B) {
  const i64 idx = i64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= Np * Kp) return;
  const i64 i = idx / Kp;
  const int k = int(idx - i * Kp);
  using E = Storage<P>;
  if constexpr (P == Prec::tf32x3) {
    float a = 0, b = 0;
    const int part = k / d, kk = k - part * d;  // [small|big|big] x [big|small|big]
    if (i < N && part < 3) {
      const float x = shifted(X, i, d, kk, mean);
      const float big = tf32_rn(x), small = tf32_rn(x - big);
      a = part == 0 ? small : big;
      b = part == 1 ? small : big;
    }
    reinterpret_cast<float*>(A)[idx] = a;
    reinterpret_cast<float*>(B)[idx] = b;
  } else {
    const float x = (i < N && k < d) ? shifted(X, i, d, k, mean) : 0.0f;
    if constexpr (P == Prec::tf32)
      reinterpret_cast<float*>(A)[idx] = tf32_rn(x);
    else
      A[idx] = E(x);
  }
}
// norms[i] = sum_k v_k^2 in float of the values the tensor cores multiply (tf32x3: of the float values themselves).
template <Prec P>
__global__ void norms_kernel(const float* __restrict__ X, i64 N, int d, i64 Kp, const float* __restrict__ mean,
                             const Storage<P>* A, float* norms) {
  const i64 i = i64(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (i >= N) return;
  float s = 0;
  for (int k = lane; k < d; k += 32) {
    float v;
    if constexpr (P == Prec::tf32x3) v = shifted(X, i, d, k, mean);
    else if constexpr (P == Prec::tf32) v = reinterpret_cast<const float*>(A)[i * Kp + k];
    else v = float(A[i * Kp + k]);
    s = fmaf(v, v, s);
  }
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) norms[i] = s;
}

// The operands' one block of device memory (prepare()'s workspace): A, B (3xtf32 only), the norms,
// the non-finite flag and the shift mu (d floats: a centered preparation's), each at a multiple of 256 bytes.
struct OperandLayout {
  size_t b = 0, norms = 0, flag = 0, mean = 0, total = 0;  // byte offsets; A at 0
};
template <Prec P> inline OperandLayout operand_layout(i64 N, int d) {
  const auto up = [](size_t b) { return (b + 255) / 256 * 256; };
  const size_t a = up(size_t(padded_rows(N)) * size_t(padded_k<P>(d)) * sizeof(Storage<P>));
  OperandLayout L;
  L.b = P == Prec::tf32x3 ? a : 0;
  L.norms = P == Prec::tf32x3 ? 2 * a : a;
  L.flag = L.norms + up(size_t(padded_rows(N)) * sizeof(float));
  L.mean = L.flag + 256;
  L.total = L.mean + up(size_t(d) * sizeof(float));
  return L;
}
template <Prec P> inline size_t operand_bytes_of(i64 N, int d) { return operand_layout<P>(N, d).total; }
// Fills the operands (X: device, N x d row-major; center: of x - mu) in `workspace` (operand_bytes_of bytes, 256-byte
// aligned), or in one cudaMalloc of its own where workspace is null (release() frees it).
// Returns cudaSuccess or the first error.
template <Prec P>
cudaError_t prepare_of(const float* X, i64 N, int d, Prepared& o, cudaStream_t s, void* workspace, bool center) {
  o = Prepared{};
  o.prec = P; o.N = N; o.d = d; o.Np = padded_rows(N); o.Kp = padded_k<P>(d);
  const OperandLayout L = operand_layout<P>(N, d);
  char* base = static_cast<char*>(workspace);
  cudaError_t e = cudaSuccess;
  if (!base) {
    if ((e = cudaMalloc(&base, L.total)) != cudaSuccess) return e;
    o.owned = base;
  } else if (reinterpret_cast<std::uintptr_t>(base) % 256 != 0) {
    return cudaErrorMisalignedAddress;
  }
  auto* A = reinterpret_cast<Storage<P>*>(base);
  auto* B = reinterpret_cast<Storage<P>*>(base + L.b);
  o.A = A;
  o.B = B;
  o.norms = reinterpret_cast<float*>(base + L.norms);
  o.flag = reinterpret_cast<unsigned*>(base + L.flag);
  float* mean = center ? reinterpret_cast<float*>(base + L.mean) : nullptr;
  o.centered = center;
  o.mean = mean;
  // the norms' padding and the flag start at 0
  if ((e = cudaMemsetAsync(o.norms, 0, L.mean - L.norms, s)) != cudaSuccess) return e;
  if (center) {
    mean_kernel<P><<<unsigned(d), 256, 0, s>>>(X, N, d, mean);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
  }
  const size_t n = size_t(o.Np) * size_t(o.Kp);
  prepare_kernel<P><<<unsigned((n + 255) / 256), 256, 0, s>>>(X, N, d, o.Np, o.Kp, mean, A, B);
  if ((e = cudaGetLastError()) != cudaSuccess) return e;
  norms_kernel<P><<<unsigned((N + 7) / 8), 256, 0, s>>>(X, N, d, o.Kp, mean, A, o.norms);
  return cudaGetLastError();
}

}  // namespace gram
