// src/support/gram/gram_api.cu — run() and prepare() of gram_api.hpp: the dispatch to the kernels of
// each precision (gram_<prec>.cu). No CUTLASS here.
#include "gram_api.hpp"
#include "gram_cpu.hpp"  // condensed_index
#include <tdmaps/tiles.hpp>

#include <algorithm>
#include <cstdint>

namespace gram {
namespace detail {
#define GRAM_DECLARE(p)                                                               \
  cudaError_t prepare_##p(const float* X, i64 N, int d, Prepared& o, cudaStream_t s, void* ws, bool c); \
  cudaError_t run_##p(const Prepared& o, const Request& r, cudaStream_t s);           \
  cudaError_t run_extra_##p(const Prepared& o, const Request& r, cudaStream_t s);     \
  size_t operand_bytes_##p(i64 N, int d);                                             \
  int max_buckets_##p();
GRAM_DECLARE(tf32)
GRAM_DECLARE(tf32x3)
GRAM_DECLARE(bf16)
GRAM_DECLARE(fp16)
#undef GRAM_DECLARE
#if defined(TDMAPS_GRAM_SM90)
cudaError_t run_sm90(const Prepared& o, const Request& r, cudaStream_t s);      // gram_sm90.cu (sm_90a)
cudaError_t run_sm90_evt(const Prepared& o, const Request& r, cudaStream_t s);  // gram_sm90_evt.cu (sm_90a)
#else
inline cudaError_t run_sm90(const Prepared&, const Request&, cudaStream_t) { return cudaErrorNotSupported; }
inline cudaError_t run_sm90_evt(const Prepared&, const Request&, cudaStream_t) { return cudaErrorNotSupported; }
#endif
}  // namespace detail

bool sm90_built() {
#if defined(TDMAPS_GRAM_SM90)
  return true;
#else
  return false;
#endif
}
bool sm90_runs() {
  int dev = 0, major = 0, minor = 0;
  if (!sm90_built() || cudaGetDevice(&dev) != cudaSuccess) return false;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess)
    return false;
  return major == 9 && minor == 0;
}

#define GRAM_SWITCH(p, CALL)                        \
  switch (p) {                                      \
    case Prec::tf32: return detail::CALL(tf32);     \
    case Prec::tf32x3: return detail::CALL(tf32x3); \
    case Prec::bf16: return detail::CALL(bf16);     \
    case Prec::fp16: return detail::CALL(fp16);     \
  }

size_t operand_bytes(Prec p, i64 N, int d) {
#define C(x) operand_bytes_##x(N, d)
  GRAM_SWITCH(p, C)
#undef C
  return 0;
}
int max_buckets(Prec p) {
#define C(x) max_buckets_##x()
  GRAM_SWITCH(p, C)
#undef C
  return 0;
}
cudaError_t prepare(Prec p, const float* X, i64 N, int d, Prepared& o, cudaStream_t s, void* workspace, bool center) {
#define C(x) prepare_##x(X, N, d, o, s, workspace, center)
  GRAM_SWITCH(p, C)
#undef C
  return cudaErrorInvalidValue;
}
cudaError_t run(const Prepared& o, const Request& r, cudaStream_t s) {
  // The kernel family, then the output group's translation unit (sm90-ws splits its own); dispatch() checks the rest.
  if (r.kernel == Kernel::sm90_evt) return detail::run_sm90_evt(o, r, s);
  if (r.kernel == Kernel::sm90_ws) return detail::run_sm90(o, r, s);
  if (out_group(r.out) == OutGroup::extra) {
#define C(x) run_extra_##x(o, r, s)
    GRAM_SWITCH(o.prec, C)
#undef C
  } else {
#define C(x) run_##x(o, r, s)
    GRAM_SWITCH(o.prec, C)
#undef C
  }
  return cudaErrorInvalidValue;
}
namespace {
__global__ void nonfinite_kernel(const float* __restrict__ norms, i64 N, unsigned* flag) {
  bool bad = false;
  for (i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x; i < N; i += i64(gridDim.x) * blockDim.x)
    bad = bad || !isfinite(norms[i]);
  if (__any_sync(0xffffffffu, bad) && threadIdx.x % 32 == 0) *flag = 1u;
}
// Row i: columns j in [i, N), by a block: up to 3 cells to a 16-byte boundary, then float4 stores, then the tail.
__global__ void zero_upper_kernel(float* dst, i64 N) {
  for (i64 i = blockIdx.x; i < N; i += gridDim.x) {
    float* row = dst + i * N;
    const i64 head = std::min<i64>(N - i, (4 - i64(reinterpret_cast<std::uintptr_t>(row + i) / 4 % 4)) % 4);
    if (threadIdx.x < head) row[i + threadIdx.x] = 0.0f;
    const i64 j0 = i + head, quads = (N - j0) / 4;
    float4* v = reinterpret_cast<float4*>(row + j0);
    for (i64 k = threadIdx.x; k < quads; k += blockDim.x) v[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (i64 j = j0 + 4 * quads + threadIdx.x; j < N; j += blockDim.x) row[j] = 0.0f;
  }
}
// Pairs (i, j), i != j, of a point whose norm is not finite get NaN in the output, once the flag is set
// (nothing but the flag's read otherwise). Row i by a block, its columns by the threads.
__global__ void nan_pairs_kernel(const float* __restrict__ norms, const unsigned* __restrict__ flag, i64 N, Out out,
                                 float* dst) {
  if (*flag == 0) return;
  const float nan = __int_as_float(0x7fc00000);
  for (i64 i = blockIdx.x; i < N; i += gridDim.x) {
    const bool bad_i = !isfinite(norms[i]);
    for (i64 j = threadIdx.x; j < N; j += blockDim.x) {
      if (j == i || !(bad_i || !isfinite(norms[j]))) continue;
      if (out == Out::mirror) dst[i * N + j] = nan;
      else if (out == Out::lower && j < i) dst[i * N + j] = nan;
      else if (out == Out::condensed && i < j) dst[gram_cpu::condensed_index(N, i, j)] = nan;  // SciPy's order
    }
  }
}
}  // namespace
cudaError_t nan_nonfinite_pairs(const Prepared& p, const Request& r, cudaStream_t s) {
  if (!p.norms || !p.flag || !r.dst || p.N < 1 ||
      (r.out != Out::lower && r.out != Out::condensed && r.out != Out::mirror))
    return cudaErrorInvalidValue;
  if (const cudaError_t e = flag_nonfinite_norms(p, p.flag, s); e != cudaSuccess) return e;
  nan_pairs_kernel<<<unsigned(p.N < 264 ? p.N : 264), 256, 0, s>>>(p.norms, p.flag, p.N, r.out, r.dst);
  return cudaGetLastError();
}
cudaError_t flag_nonfinite_norms(const Prepared& p, unsigned* flag, cudaStream_t s) {
  if (!p.norms || !flag || p.N < 1) return cudaErrorInvalidValue;
  const i64 blocks = (p.N + 255) / 256;
  nonfinite_kernel<<<unsigned(blocks < 1024 ? blocks : 1024), 256, 0, s>>>(p.norms, p.N, flag);
  return cudaGetLastError();
}
cudaError_t zero_upper(float* dst, i64 N, cudaStream_t s) {
  if (!dst || N < 1) return cudaErrorInvalidValue;
  zero_upper_kernel<<<unsigned(N < 65535 ? N : 65535), 256, 0, s>>>(dst, N);
  return cudaGetLastError();
}

void release(Prepared& o) {
  if (o.owned) cudaFree(o.owned);
  o = Prepared{};
}
unsigned long long launched_tiles(Sched s, i64 N) {
  const i64 c = (N + tile_side - 1) / tile_side;
  return s == Sched::ltm_e ? tdmaps::TileMap<tdmaps::LTM_E>::make(c).launched() : tdmaps::TileMap<tdmaps::BB>::make(c).launched();
}
}  // namespace gram
