// verify/fma_contraction.cu — which products nvcc contracts into FMAs in the papers'
// formulas, read from the code rather than guessed. Compiled by verify/fma_contraction.sh
// with nvcc's DEFAULT flags (-fmad=true, as the papers' binaries were built) to a cubin,
// never run. For each float map there are three kernels:
//   paper_<map>   the formula as printed, in plain CUDA C (operators, sqrtf, rsqrtf, cbrtf):
//                 what nvcc makes of it is what the papers' binaries computed;
//   fused_<map>   the library's arithmetic with rounding policy Fused (numbers.hpp: an
//                 explicit __fmaf_rn at each product we claim nvcc contracts);
//   pinned_<map>  the library's arithmetic as the kernels run it (Pinned: no FMA).
// The script requires paper_<map> and fused_<map> to have the same SASS float-instruction
// sequence (FFMA / FMUL / FADD / MUFU / conversions, in order, operands aside), and counts
// the FFMAs that pinned_<map> does not have. The formulas:
//   ltm-x  000 eq. (2):  i = floor(sqrtf(1/4 + 2 lambda) - 1/2)
//   ltm-n  000 §IV-A:    the same with x * rsqrt(x) + 1e-4, rsqrt by three Newton steps
//                        y = y (1.5 - xhalf y y) from 0x5f3759df (Carmack/Lomont)
//   ltm-r  000 eq. (15): x * rsqrtf(x) + 1e-4
//   utm-x  000 §II/IV-B (Avril): a = floor((-(2n+1) + sqrtf(4n^2 - 4n - 8k + 1)) / -2)
//   utm-n  the same with the Newton square root x * rsqrt(x)
//   tet-f  003 eq. (14): v = c / 3^(2/3) + 1 / (3^(1/3) c) - 1, c = cbrtf(sqrtf(729 l^2 - 3) + 27 l)
#include <tdmaps/map_3d.hpp>
#include <tdmaps/map_ltm.hpp>
#include <tdmaps/map_utm.hpp>

using namespace tdmaps;

namespace paper {
__device__ __forceinline__ float rsqrt_newton3(float x) {
  float xhalf = 0.5f * x;
  int i = __float_as_int(x);
  i = 0x5f3759df - (i >> 1);
  float y = __int_as_float(i);
  y = y * (1.5f - xhalf * y * y);
  y = y * (1.5f - xhalf * y * y);
  y = y * (1.5f - xhalf * y * y);
  return y;
}
__device__ __forceinline__ float utm_arg(int n, int k) {
  const float nf = float(n), kf = float(k);
  return 4.0f * nf * nf - 4.0f * nf - 8.0f * kf + 1.0f;
}
}  // namespace paper

#define TD_PROBE(map, T, paper_expr, lib_expr)                                                       \
  extern "C" __global__ void paper_##map(const T* in, T* out, int n) {                              \
    const T l = in[threadIdx.x];                                                                     \
    (void)n;                                                                                         \
    out[threadIdx.x] = (paper_expr);                                                                 \
  }                                                                                                  \
  extern "C" __global__ void fused_##map(const T* in, T* out, int n) {                              \
    using R = Fused;                                                                                 \
    const T l = in[threadIdx.x];                                                                     \
    (void)n;                                                                                         \
    out[threadIdx.x] = (lib_expr);                                                                   \
  }                                                                                                  \
  extern "C" __global__ void pinned_##map(const T* in, T* out, int n) {                             \
    using R = Pinned;                                                                                \
    const T l = in[threadIdx.x];                                                                     \
    (void)n;                                                                                         \
    out[threadIdx.x] = (lib_expr);                                                                   \
  }

TD_PROBE(ltm_x, unsigned, unsigned(sqrtf(0.25f + 2.0f * l) - 0.5f), (SqrtX::row<u32, R>(l).k))
TD_PROBE(ltm_n, unsigned, unsigned([&] {
           const float x = 0.25f + 2.0f * l;
           return x * paper::rsqrt_newton3(x) + 1e-4f - 0.5f;
         }()),
         (SqrtN::row<u32, R>(l).k))
TD_PROBE(ltm_r, unsigned, unsigned([&] {
           const float x = 0.25f + 2.0f * l;
           return x * rsqrtf(x) + 1e-4f - 0.5f;
         }()),
         (SqrtR::row<u32, R>(l).k))
// UTM and TET-F up to the last operation a product can fuse into (what follows is a
// division and a floor, in both forms: -(2n+1) + s is an add of no product in utm-x;
// eq. (14)'s c / 3^(2/3) and 1 / (3^(1/3) c) are IEEE divisions that nothing fuses into).
TD_PROBE(utm_x, float, (-(2 * n + 1) + sqrtf(paper::utm_arg(n, int(l)))),
         (fadd_rn(-float(2 * n + 1), fsqrt_rn(utm_arg<int, R>(n, int(l))))))
TD_PROBE(utm_n, float, ([&] {
           const float x = paper::utm_arg(n, int(l));
           return -(2 * n + 1) + x * paper::rsqrt_newton3(x);
         }()),
         ([&] {
           const float x = utm_arg<int, R>(n, int(l));
           return R::add_mul(-float(2 * n + 1), x, rsqrt_newton3<R>(x));
         }()))
TD_PROBE(tet_f, float, ([&] {
           const float lf = float(unsigned(l));
           return sqrtf(729.0f * lf * lf - 3.0f) + 27.0f * lf;
         }()),
         ([&] {
           const float lf = to_float_rn(u32(l));
           return R::add_mul(fsqrt_rn(R::mul_sub(fmul_rn(729.0f, lf), lf, 3.0f)), 27.0f, lf);
         }()))
