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
#pragma once
#include "plan.hpp"
#include "map_ltm.hpp"
#include "exact_limits.hpp"

namespace tdmaps {

struct BB3 {
  static constexpr const char* name = "bb3";
  static constexpr bool blockwise = true;
  static Plan3 plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    (void)allow_inexact;
    if (i64(rho) * rho * rho > 1024) throw unsupported("bb3: rho^3 must be <= 1024 threads (got rho=" + std::to_string(rho) + ")");
    Plan3 p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    if (p.n > 65535) throw unsupported("bb3: n = ceil(N/rho) must be <= 65535 (grid limit); got " + std::to_string(p.n));
    p.total = u64(p.n) * u64(p.n) * u64(p.n);
    return p;
  }
  static Dim3 grid(const Plan3& p) { return Dim3{u32(p.n), u32(p.n), u32(p.n)}; }
  static Dim3 block(const Plan3& p) { return Dim3{u32(p.rho), u32(p.rho), u32(p.rho)}; }
  TD_HD static Cell3 block_cell(const Plan3&, u32 bx, u32 by, u32 bz) {
    if (bx > by || by > bz) return outside3();
    return Cell3{i64(bx), i64(by), i64(bz), true};
  }
  TD_HD static Cell3 cell(const Plan3& p, u32 bx, u32 by, u32 bz, u32 tx, u32 ty, u32 tz) {
    return thread_in_block3(p.N, p.rho, block_cell(p, bx, by, bz), tx, ty, tz);
  }
};

struct TetRootF {
  static constexpr const char* name = "tet-f";
  static constexpr u64 exact_blocks = limits::tet_f_blocks;
  // eq. (14): v = c / 3^(2/3) + 1 / (3^(1/3) c) - 1,  c = cbrt(sqrt(729 l^2 - 3) + 27 l).
  // At lambda = 0 the radicand is -3 (NaN); the conversion below maps NaN to 0.
  TD_HD static u64 layer(u64 l) {
    const float lf = u64_to_float_rn(l);
    const float rad = fsub_rn(fmul_rn(fmul_rn(729.0f, lf), lf), 3.0f);
    const float c = cbrtf(fadd_rn(fsqrt_rn(rad), fmul_rn(27.0f, lf)));
    const float v = fsub_rn(fadd_rn(fdiv_rn(c, 2.0800838230519041f), fdiv_rn(1.0f, fmul_rn(1.4422495703074083f, c))), 1.0f);
    return u64(float_to_i64_floor_nonneg(v));
  }
  // the 2D part of eq. (16), in float as published
  TD_HD static u64 row(u64 l) { return SqrtX::row(l); }
};
struct TetRootE {
  static constexpr const char* name = "tet-e";
  static constexpr u64 exact_blocks = limits::tet_e_blocks;
  TD_HD static u64 layer(u64 l) { return tet_root(l); }
  TD_HD static u64 row(u64 l) { return tri_root(l); }
};

template <class Root>
struct TET {
  static constexpr const char* name = Root::name;
  static constexpr bool blockwise = true;
  using root_policy = Root;
  static constexpr u64 exact_blocks = Root::exact_blocks;
  // g(lambda), eq. (16): block index -> block (x, y, z)
  TD_HD static Cell3 g(u64 l) {
    const u64 z = Root::layer(l);
    const u64 lp = l - tet(z);
    const u64 y = Root::row(lp);
    return Cell3{i64(lp - tri(y)), i64(y), i64(z), true};
  }
  static Plan3 plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    if (i64(rho) * rho * rho > 1024) throw unsupported(std::string(name) + ": rho^3 must be <= 1024 threads (got rho=" + std::to_string(rho) + ")");
    Plan3 p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    p.total = tet(u64(p.n));
    if (p.total > Root::exact_blocks && !allow_inexact) {
      u64 nok = tet_root(Root::exact_blocks);
      if (tet(nok) > Root::exact_blocks) --nok;
      throw unsupported(std::string(name) + ": exact only for tet(n) <= " + std::to_string(Root::exact_blocks) +
                        " blocks, i.e. N <= " + std::to_string(nok * u64(rho)) + " at rho=" + std::to_string(rho) +
                        " (got N=" + std::to_string(N) + "); use tet-e");
    }
    Dim3 g;
    linear_grid(p.total, p.gx, g);
    return p;
  }
  static Dim3 grid(const Plan3& p) {
    Dim3 g; u32 gx;
    linear_grid(p.total, gx, g);
    return g;
  }
  static Dim3 block(const Plan3& p) { return Dim3{u32(p.rho), u32(p.rho), u32(p.rho)}; }
  TD_HD static Cell3 block_cell(const Plan3& p, u32 bx, u32 by, u32) {
    const u64 l = linear_block(p.gx, bx, by);
    if (l >= p.total) return outside3();
    return g(l);
  }
  TD_HD static Cell3 cell(const Plan3& p, u32 bx, u32 by, u32 bz, u32 tx, u32 ty, u32 tz) {
    return thread_in_block3(p.N, p.rho, block_cell(p, bx, by, bz), tx, ty, tz);
  }
};

using TET_F = TET<TetRootF>;
using TET_E = TET<TetRootE>;

}  // namespace tdmaps
