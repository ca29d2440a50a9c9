// tdmaps/map_ltm.hpp — LTM, the block-space map g(lambda) of
// 000_dc8ca915cfc23e3c.txt §III, eq. (2):
//     i = floor( sqrt(1/4 + 2*lambda) - 1/2 ),   j = lambda - i(i+1)/2
// over a linear grid of n(n+1)/2 blocks (n = ceil(N/rho)). Only the square root
// differs between variants; each is a policy type with row(lambda) -> i:
//   SqrtX  sqrtf, correctly rounded (LTM-X of §IV-A)
//   SqrtN  three Newton steps from 0x5f3759df, + eps (LTM-N)
//   SqrtR  x * rsqrtf(x) + eps, eq. (15) (LTM-R; device rsqrtf is approximate)
//   SqrtD  double-precision sqrt (how CUTLASS's triangular tile scheduler and
//          PyTorch's pdist invert the index)
//   SqrtE  exact: float estimate + integer correction (numbers.hpp tri_root)
// eps = 1e-4 as the papers state. Float variants are right only up to a block
// index; each policy's `exact_blocks` is the number of leading lambdas
// (0 .. exact_blocks-1) proven exact (verify/test_exact.cpp checks the constant
// both ways). plan() refuses any N whose grid would pass it.
// Rounding: the float variants' row<U, R> takes a rounding policy (numbers.hpp): the
// default Pinned (every product and sum rounded on its own) is what the library runs;
// Fused contracts the products nvcc's default -fmad=true fuses in the papers' formulas
// (the Newton steps' 1.5 - xhalf*y*y, x*rsqrt(x) + eps, 2*lambda + 1/4), for the exact
// ranges of the papers' binaries only (limits::*_fma_blocks).
#pragma once
#include "plan.hpp"
#include "exact_limits.hpp"

namespace tdmaps {

constexpr float ltm_eps = 1e-4f;

// Number of leading block indices each square root maps exactly (0 .. value-1): proven
// by the CPU oracle (verify/test_exact.cpp) for the host-reproducible variants; for
// ltm-r by the GPU sweep (experiments/results/<gpu>/exact_range_gpu.csv).
namespace limits {
constexpr u64 ltm_x_blocks = 10619135;
constexpr u64 ltm_n_blocks = 1316253;
constexpr u64 ltm_r_blocks = 2112540;  // measured on an H200 and an H100 (sm_90 rsqrtf); rsqrtf is
                                        // not correctly rounded: other architectures may differ
constexpr u64 ltm_d_blocks = 1ull << 32  /* proven up to here; larger indices not examined */;
constexpr u64 ltm_e_blocks = no_limit;
// The same maps compiled as the papers' binaries were (nvcc's default contraction, rounding
// policy Fused): CPU oracle, verify/test_exact.cpp. Not used by plan(): the library runs
// Pinned. ltm-x is unchanged (its only product, 2*lambda, is exact); ltm-r's fused range
// depends on the device's rsqrtf and comes from the GPU sweep (gpu_exact_range, rounding fma).
constexpr u64 ltm_x_fma_blocks = ltm_x_blocks;
constexpr u64 ltm_n_fma_blocks = 1166628;
}  // namespace limits

// Carmack/Lomont fast inverse square root, three Newton-Raphson steps,
// with every rounding pinned so the host reproduces the device bit for bit;
// R = Fused: each step's 1.5 - (xhalf*y)*y is one FMA, as nvcc compiles the plain C.
template <class R = Pinned> TD_HD float rsqrt_newton3(float x) {
  const float xhalf = fmul_rn(0.5f, x);
  float y = bits_to_float(0x5f3759dfu - (float_to_bits(x) >> 1));
  for (int k = 0; k < 3; ++k)
    y = fmul_rn(y, R::sub_mul(1.5f, fmul_rn(xhalf, y), y));
  return y;
}

// 1/4 + 2*lambda in float (the argument of eq. (2)); U = u32 (narrow) or u64 (wide):
// the same float either way, from the conversion instruction of that width.
// (Fused gives the same float: 2 lambda is exact.)
template <class U, class R = Pinned> TD_HD float ltm_arg(U lambda) { return R::mul_add(2.0f, to_float_rn(lambda), 0.25f); }
template <class U> TD_HD U ltm_floor_row(float s) { return float_floor_nonneg<U>(fsub_rn(s, 0.5f)); }
// A float variant's row i, with tri(i) (the base of the row: j = lambda - tri(i)).
template <class U> TD_HD Root<U> ltm_row(U i) { return Root<U>{i, tri_t(i)}; }

// rsqrtf: the device's approximate reciprocal square root (MUFU.RSQ), the host's
// correctly rounded one (LTM-R, eq. (15): the papers' rsqrtf).
TD_HD float rsqrt_device(float x) {
#if defined(__CUDA_ARCH__)
  return rsqrtf(x);
#else
  return 1.0f / std::sqrt(x);
#endif
}
// The same without rsqrtf's scaling of subnormal arguments (rsqrt.approx.ftz: one
// MUFU.RSQ): for LTM-E's narrow estimate, whose argument is >= 1/4.
TD_HD float sqrt_by_rsqrt_ftz(float x) {
#if defined(__CUDA_ARCH__)
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return fmul_rn(x, r);
#else
  return fmul_rn(x, 1.0f / std::sqrt(x));
#endif
}

struct SqrtX {
  static constexpr const char* name = "ltm-x";
  static constexpr u64 exact_blocks = limits::ltm_x_blocks;
  static constexpr bool host_exact_repro = true;
  template <class U, class R = Pinned> TD_HD static Root<U> row(U l) {
    return ltm_row(ltm_floor_row<U>(fsqrt_rn(ltm_arg<U, R>(l))));
  }
};
struct SqrtN {
  static constexpr const char* name = "ltm-n";
  static constexpr u64 exact_blocks = limits::ltm_n_blocks;
  static constexpr bool host_exact_repro = true;
  template <class U, class R = Pinned> TD_HD static Root<U> row(U l) {
    const float x = ltm_arg<U, R>(l);
    return ltm_row(ltm_floor_row<U>(R::mul_add(x, rsqrt_newton3<R>(x), ltm_eps)));
  }
};
struct SqrtR {
  static constexpr const char* name = "ltm-r";
  static constexpr u64 exact_blocks = limits::ltm_r_blocks;
  // rsqrtf is an approximate special-function instruction on the device; the host
  // evaluates the correctly rounded 1/sqrt instead. Ranges come from the GPU.
  static constexpr bool host_exact_repro = false;
  template <class U, class R = Pinned> TD_HD static Root<U> row(U l) {
    const float x = ltm_arg<U, R>(l);
    return ltm_row(ltm_floor_row<U>(R::mul_add(x, rsqrt_device(x), ltm_eps)));
  }
};
struct SqrtD {
  static constexpr const char* name = "ltm-d";
  static constexpr u64 exact_blocks = limits::ltm_d_blocks;
  static constexpr bool host_exact_repro = true;
  template <class U> TD_HD static Root<U> row(U l) {
    const double x = dadd_rn(dmul_rn(2.0, to_double_rn(l)), 0.25);
    return ltm_row(double_floor_nonneg<U>(dsub_rn(dsqrt_rn(x), 0.5)));
  }
};
// Exact: an estimate within one of the row, then one compare-and-step each way
// (numbers.hpp tri_correct).
//   narrow (u32, lambda < tri(65535)): floor(x * rsqrt(x) - 1/2) in float, the device's
//     approximate MUFU.RSQ. The oracle proves (verify/test_index_paths.cpp, every lambda <
//     2^32) that ANY value within a relative 2^-20 of sqrt(x) gives a row within one,
//     which covers the device's rsqrt (relative error < 2^-22); the GPU sweep checks
//     the device's own values for every lambda < 2^32 (gpu_exact_range).
//   wide (u64, lambda < 2^62): the double estimate of numbers.hpp tri_estimate_wide.
struct SqrtE {
  static constexpr const char* name = "ltm-e";
  static constexpr u64 exact_blocks = limits::ltm_e_blocks;
  static constexpr bool host_exact_repro = true;
  TD_HD static u32 estimate(u32 l) { return ltm_floor_row<u32>(sqrt_by_rsqrt_ftz(ltm_arg(l))); }
  TD_HD static u64 estimate(u64 l) { return tri_estimate_wide(l); }
  template <class U> TD_HD static Root<U> row(U l) { return tri_correct<U>(l, estimate(l)); }
};

template <class Sqrt>
struct LTM {
  static constexpr const char* name = Sqrt::name;
  static constexpr bool blockwise = true;
  using sqrt_policy = Sqrt;
  using Params = LinearPlan;
  static constexpr u64 exact_blocks = Sqrt::exact_blocks;
  // The narrow path: n <= 65535 block rows, so lambda < tri(65535) < 2^31 (a one-row
  // grid), and every row estimate e <= 65535 has e(e+1) < 2^32.
  static constexpr i64 narrow_max_n = 65535;

  // g(lambda), eq. (2): block index -> (block row, block column).
  template <class Index = i64>
  TD_HD static Cell2T<Index> g(uidx<Index> lambda) {
    const Root<uidx<Index>> r = Sqrt::template row<uidx<Index>>(lambda);
    return Cell2T<Index>{Index(r.k), Index(lambda - r.base), true};
  }
  static Params plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    Params p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    const u64 n_grid = tri_root(max_linear_blocks);  // most block rows a linear grid serves
    if (u64(p.n) > n_grid)
      throw unsupported(std::string(name) + ": N=" + std::to_string(N) + " at rho=" + std::to_string(rho) +
                        " needs n(n+1)/2 > 2^46 blocks, more than a CUDA grid holds; N <= " +
                        std::to_string(n_grid * u64(rho)) + " at this rho (a larger rho serves more)");
    p.total = tri(u64(p.n));
    if (p.total > exact_blocks && !allow_inexact) {
      // largest n whose n(n+1)/2 blocks are all exact
      const u64 nok = tri_root(exact_blocks);
      throw unsupported(std::string(name) + ": exact only for n(n+1)/2 <= " + std::to_string(exact_blocks) +
                        " blocks, i.e. N <= " + std::to_string(nok * u64(rho)) + " at rho=" + std::to_string(rho) +
                        " (got N=" + std::to_string(N) + ")");
    }
    Dim3 g;
    linear_grid(p.total, p.gx, g, name);
    p.narrow = p.n <= narrow_max_n && narrow_coords(N, rho);
    return p;
  }
  static Dim3 grid(const Params& p, int) { return linear_grid_dims(p.total, name); }
  static Dim3 block(const Params& p) { return Dim3{u32(p.rho), u32(p.rho), 1}; }
  template <class Index = i64>
  TD_HD static Cell2T<Index> block_cell(const Params& p, int, u32 bx, u32 by) {
    using U = uidx<Index>;
    const U l = linear_block<U>(p.gx, bx, by);
    if constexpr (sizeof(U) == 8) {
      if (l >= p.total) return outside2<Index>();  // the last row of a multi-row grid
    }
    return g<Index>(l);
  }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    return thread_in_block(p.N, p.rho, block_cell<Index>(p, pass, bx, by), tx, ty);
  }
};

using LTM_X = LTM<SqrtX>;
using LTM_N = LTM<SqrtN>;
using LTM_R = LTM<SqrtR>;
using LTM_D = LTM<SqrtD>;
using LTM_E = LTM<SqrtE>;

// ---- the strict variant: blocks strictly below the diagonal ---------------------
// 000 eq. (9) maps lambda to the strictly lower triangle {(i, j) : 0 <= j < i}; as printed, its
// column has a typo (verify/printed_forms.hpp keeps the printed forms, test-only). Exact: the
// strictly lower row of lambda is tri_root(lambda) + 1, its column lambda - i(i-1)/2.
TD_HD Cell2 ltm_strict_exact(u64 lambda) {
  const u64 i = tri_root(lambda) + 1;
  return Cell2{i64(i), i64(lambda) - i64(tri(i - 1)), true};
}

}  // namespace tdmaps
