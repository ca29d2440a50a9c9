// tdmaps/map_3d.hpp — maps for the tetrahedral domain (3-simplex) of
// 003_66f856975a7ab3ee.txt: cells (x, y, z) with 0 <= x <= y <= z < N,
// tet(N) = N(N+1)(N+2)/6 of them; blocks of rho^3 threads, n = ceil(N/rho).
//   BB3     the bounding cube: n^3 blocks, block (bx, by, bz) kept iff bx <= by <= bz.
//   TET<R>  g(lambda) of eq. (16) over a linear grid of tet(n) blocks:
//              z = floor(v),  v the real root of v^3 + 3v^2 + 2v - 6 lambda = 0 (eq. (13))
//              lambda' = lambda - tet(z)                                         (eq. (15))
//              y = floor(sqrt(1/4 + 2 lambda') - 1/2),  x = lambda' - y(y+1)/2
//           with the layer root R:
//              TetRootF  eq. (14) in float as published (cbrtf, sqrtf; device cbrtf is
//                        not correctly rounded, so its range is measured on the GPU)
//              TetRootE  exact: float estimate + integer correction (numbers.hpp)
// TetRootF::layer<U, R> takes a rounding policy (numbers.hpp): the library runs the default
// Pinned; Fused contracts 729*lambda*lambda - 3 and sqrt(.) + 27*lambda as nvcc's default
// -fmad=true does in eq. (14) written in plain C (for the papers' ranges only).
#pragma once
#include "plan.hpp"
#include "map_ltm.hpp"
#include "exact_limits.hpp"

namespace tdmaps {

struct BB3 {
  static constexpr const char* name = "bb3";
  static constexpr bool blockwise = true;
  using Params = Plan3;  // every 3D map's (plan.hpp)
  static Plan3 plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    (void)allow_inexact;
    if (i64(rho) * rho * rho > 1024) throw unsupported("bb3: rho^3 must be <= 1024 threads (got rho=" + std::to_string(rho) + ")");
    Plan3 p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    if (p.n > 65535) throw unsupported("bb3: n = ceil(N/rho) must be <= 65535 (grid limit); got " + std::to_string(p.n));
    p.total = u64(p.n) * u64(p.n) * u64(p.n);
    p.narrow = narrow_coords(N, rho);
    return p;
  }
  static Dim3 grid(const Plan3& p) { return Dim3{u32(p.n), u32(p.n), u32(p.n)}; }
  static Dim3 block(const Plan3& p) { return Dim3{u32(p.rho), u32(p.rho), u32(p.rho)}; }
  template <class Index = i64>
  TD_HD static Cell3T<Index> block_cell(const Plan3&, u32 bx, u32 by, u32 bz) {
    if (bx > by || by > bz) return outside3<Index>();
    return Cell3T<Index>{Index(bx), Index(by), Index(bz), true};
  }
  template <class Index = i64>
  TD_HD static Cell3T<Index> cell(const Plan3& p, u32 bx, u32 by, u32 bz, u32 tx, u32 ty, u32 tz) {
    return thread_in_block3(p.N, p.rho, block_cell<Index>(p, bx, by, bz), tx, ty, tz);
  }
};

// Leading block indices each layer root maps exactly.
namespace limits {
constexpr u64 tet_f_blocks = 10;  // eq. (14) in float fails at lambda = tet(3) = 10 on the host (CPU oracle); on the
                                  // H200 and H100 it is wrong from lambda = 0 (tet_exact_range_gpu.csv: first_wrong 0)
constexpr u64 tet_e_blocks = 1ull << 60;
}  // namespace limits

// A layer root policy gives, for U = u32 (narrow) and u64 (wide),
//   layer<U>(l) -> {z, tet(z)}   and   row<U>(l') -> {y, tri(y)}.
struct TetRootF {
  static constexpr const char* name = "tet-f";
  static constexpr u64 exact_blocks = limits::tet_f_blocks;
  // eq. (14): v = c / 3^(2/3) + 1 / (3^(1/3) c) - 1,  c = cbrt(sqrt(729 l^2 - 3) + 27 l).
  // At lambda = 0 the radicand is -3 (NaN); the conversion below maps NaN to 0.
  template <class U, class R = Pinned> TD_HD static Root<U> layer(U l) {
    const float lf = to_float_rn(l);
    const float rad = R::mul_sub(fmul_rn(729.0f, lf), lf, 3.0f);
    const float c = cbrtf(R::add_mul(fsqrt_rn(rad), 27.0f, lf));
    const float v = fsub_rn(fadd_rn(fdiv_rn(c, 2.0800838230519041f), fdiv_rn(1.0f, fmul_rn(1.4422495703074083f, c))), 1.0f);
    const U z = float_floor_nonneg<U>(v);
    return Root<U>{z, tet_from_tri(tri_t(z), z)};
  }
  // the 2D part of eq. (16), in float as published
  template <class U> TD_HD static Root<U> row(U l) { return SqrtX::row(l); }
};

// Cube root estimate of the narrow path: 2^(log2(x)/3) with the device's approximate
// MUFU.LG2 / MUFU.EX2 (three instructions); the host takes the libm cube root. Any
// value within a relative 2^-16 of cbrt(x) serves (the oracle's proof), far more than
// the two approximations' error (about 2^-21).
TD_HD float cbrt_estimate(float x) {
#if defined(__CUDA_ARCH__)
  float lg, r;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(lg) : "f"(x));
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(fmul_rn(lg, 0.333333343f)));
  return r;
#else
  return float(std::cbrt(double(x)));
#endif
}

// 6 lambda in float, the argument of the narrow cube root (pinned rounding).
TD_HD float six_lambda(u32 l) { return fmul_rn(6.0f, to_float_rn(l)); }
// The layer estimate floor(c + 1/4) - 1 (0 when negative) from c ~ cbrt(6 lambda):
// TetRootE's narrow path and TetRootFast (tet_fast.hpp) share it.
TD_HD u32 tet_layer_from_cbrt(float c) { return float_floor_nonneg<u32>(fsub_rn(c, 0.75f)); }

// Exact: an estimate within one of the layer (row), then one compare-and-step each way
// (numbers.hpp tet_correct / tri_correct).
//   narrow (u32, tet(n+1) < 2^32): e = floor(cbrt(6 lambda) + 1/4) - 1 from float
//     6 lambda; cbrt(6 lambda) lies in [z + 0.81, z + 2) (tet_fast.hpp), so with any
//     estimate within a relative 2^-16 e is z-1, z or z+1 (the oracle checks both ends
//     of every layer, verify/test_index_paths.cpp); rows as LTM-E's narrow path.
//   wide (u64, lambda < 2^60): numbers.hpp tet_root / tri_root estimates in double.
struct TetRootE {
  static constexpr const char* name = "tet-e";
  static constexpr u64 exact_blocks = limits::tet_e_blocks;
  TD_HD static u32 layer_estimate(u32 l) { return tet_layer_from_cbrt(cbrt_estimate(six_lambda(l))); }
  TD_HD static u64 layer_estimate(u64 l) { return tet_estimate_wide(l); }
  template <class U> TD_HD static Root<U> layer(U l) { return tet_correct<U>(l, layer_estimate(l)); }
  template <class U> TD_HD static Root<U> row(U l) { return SqrtE::row(l); }
};

template <class RootP>
struct TET {
  static constexpr const char* name = RootP::name;
  static constexpr bool blockwise = true;
  using root_policy = RootP;
  using Params = Plan3;
  static constexpr u64 exact_blocks = RootP::exact_blocks;
  // g(lambda), eq. (16): block index -> block (x, y, z)
  template <class Index = i64>
  TD_HD static Cell3T<Index> g(uidx<Index> l) {
    using U = uidx<Index>;
    const Root<U> z = RootP::template layer<U>(l);   // eq. (13)-(14)
    const U lp = l - z.base;                          // eq. (15)
    const Root<U> y = RootP::template row<U>(lp);    // eq. (16), the 2D part
    return Cell3T<Index>{Index(lp - y.base), Index(y.k), Index(z.k), true};
  }
  static Plan3 plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    if (i64(rho) * rho * rho > 1024) throw unsupported(std::string(name) + ": rho^3 must be <= 1024 threads (got rho=" + std::to_string(rho) + ")");
    Plan3 p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    const u64 n_grid = tet_root(max_linear_blocks);
    if (u64(p.n) > n_grid)
      throw unsupported(std::string(name) + ": N=" + std::to_string(N) + " at rho=" + std::to_string(rho) +
                        " needs tet(n) > 2^46 blocks, more than a CUDA grid holds; N <= " +
                        std::to_string(n_grid * u64(rho)) + " at this rho");
    p.total = tet(u64(p.n));
    if (p.total > RootP::exact_blocks && !allow_inexact) {
      const u64 nok = tet_root(RootP::exact_blocks);
      throw unsupported(std::string(name) + ": exact only for tet(n) <= " + std::to_string(RootP::exact_blocks) +
                        " blocks, i.e. N <= " + std::to_string(nok * u64(rho)) + " at rho=" + std::to_string(rho) +
                        " (got N=" + std::to_string(N) + ")");
    }
    Dim3 g;
    linear_grid(p.total, p.gx, g, name);
    // narrow: a one-row grid (tet(n) < 2^31) and every layer estimate e <= n + 1 has
    // tet(e + 1) < 2^32 (tet(n + 2) < 2^32 covers it), so the u32 corrections are exact
    p.narrow = p.total < (1ull << 31) && tet(u64(p.n) + 2) < (1ull << 32) && narrow_coords(N, rho);
    return p;
  }
  static Dim3 grid(const Plan3& p) { return linear_grid_dims(p.total, name); }
  static Dim3 block(const Plan3& p) { return Dim3{u32(p.rho), u32(p.rho), u32(p.rho)}; }
  template <class Index = i64>
  TD_HD static Cell3T<Index> block_cell(const Plan3& p, u32 bx, u32 by, u32) {
    using U = uidx<Index>;
    const U l = linear_block<U>(p.gx, bx, by);
    if constexpr (sizeof(U) == 8) {
      if (l >= p.total) return outside3<Index>();
    }
    return g<Index>(l);
  }
  template <class Index = i64>
  TD_HD static Cell3T<Index> cell(const Plan3& p, u32 bx, u32 by, u32 bz, u32 tx, u32 ty, u32 tz) {
    return thread_in_block3(p.N, p.rho, block_cell<Index>(p, bx, by, bz), tx, ty, tz);
  }
};

using TET_F = TET<TetRootF>;
using TET_E = TET<TetRootE>;

}  // namespace tdmaps
