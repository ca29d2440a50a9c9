// tdmaps/map_utm.hpp — UTM, Avril et al.'s threadwise upper-triangular map, as
// given in 000_dc8ca915cfc23e3c.txt §IV-B: for n elements and linear thread k,
//     a = floor( (-(2n+1) + sqrt(4n^2 - 4n - 8k + 1)) / -2 )
//     b = (a+1) + k - (a-1)(2n-a)/2
// a 1-based pair a < b <= n of the strictly upper triangle. We take n = N+1 and
// transpose, (i, j) = (b-2, a-1), which is the lower triangle with diagonal of
// side N. The square-root argument is evaluated in float as published (that is
// what limits its range); the pair arithmetic is exact 64-bit.
//   UtmSqrtX  plain sqrtf, no repair               ("utm-x")
//   UtmSqrtN  Carmack/Lomont fast sqrt (three Newton steps from 0x5f3759df) and
//             Avril's two repair conditionals       ("utm-n")
// Threads are laid out linearly, rho*rho per block.
// Rounding: row<Index, R> and map_thread<Index, R> take a rounding policy (numbers.hpp); the
// library runs the default Pinned. Fused contracts what nvcc's default -fmad=true fuses in
// the formula written in plain C: (4n)*n - 4n, the -8k term (exact either way) and, in
// utm-n, x*rsqrt(x) - (2n+1); for the papers' ranges only (limits::utm_*_fma_max_N).
#pragma once
#include "plan.hpp"
#include "map_ltm.hpp"
#include "exact_limits.hpp"

namespace tdmaps {

// Largest N for which every N' <= N is mapped exactly (CPU oracle, verify/test_exact.cpp).
namespace limits {
constexpr i64 utm_x_max_N = 4096;
constexpr i64 utm_n_max_N = 5792;
// compiled as the papers' binaries were (rounding policy Fused; not used by plan())
constexpr i64 utm_x_fma_max_N = 4096;
constexpr i64 utm_n_fma_max_N = 5792;
}  // namespace limits

// first linear index of 1-based row a: (a-1)(2n-a)/2
template <class Index> TD_HD Index utm_row_start(Index n, Index a) { return ((a - 1) * (2 * n - a)) / 2; }

template <class Index, class R = Pinned> TD_HD float utm_arg(Index n, Index k) {
  const float nf = float(n), kf = to_float_rn(uidx<Index>(k));
  // 4n^2 - 4n - 8k + 1, left to right, each step rounded to float (Pinned)
  float x = R::mul_sub(fmul_rn(4.0f, nf), nf, fmul_rn(4.0f, nf));
  x = R::sub_mul(x, 8.0f, kf);
  return fadd_rn(x, 1.0f);
}
// the row from the numerator -(2n+1) + sqrt(x)
template <class Index> TD_HD Index utm_row_from_num(float num) {
  const float a = fdiv_rn(num, -2.0f);
  return Index(floorf(a));
}
template <class Index> TD_HD Index utm_row_from_sqrt(Index n, float s) { return utm_row_from_num<Index>(fadd_rn(-float(2 * n + 1), s)); }

struct UtmSqrtX {
  static constexpr const char* name = "utm-x";
  static constexpr i64 max_N = limits::utm_x_max_N;
  template <class Index, class R = Pinned> TD_HD static Index row(Index n, Index k) {
    return utm_row_from_sqrt(n, fsqrt_rn(utm_arg<Index, R>(n, k)));
  }
};
struct UtmSqrtN {
  static constexpr const char* name = "utm-n";
  static constexpr i64 max_N = limits::utm_n_max_N;
  template <class Index, class R = Pinned> TD_HD static Index row(Index n, Index k) {
    const float x = utm_arg<Index, R>(n, k);
    // -(2n+1) + x * rsqrt(x) (Pinned: the product rounded, then the sum)
    Index a = utm_row_from_num<Index>(R::add_mul(-float(2 * n + 1), x, rsqrt_newton3<R>(x)));
    // Avril's two repair conditionals: one step back or forward.
    if (k < utm_row_start(n, a)) --a;
    else if (k >= utm_row_start(n, a + 1)) ++a;
    return a;
  }
};

template <class Sqrt>
struct UTM {
  static constexpr const char* name = Sqrt::name;
  static constexpr bool blockwise = false;
  static constexpr i64 max_N = Sqrt::max_N;
  using Params = LinearPlan;  // total counts threads
  static Params plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    if (N > max_N && !allow_inexact)
      throw unsupported(std::string(name) + ": exact only for N <= " + std::to_string(max_N) +
                        " (got N=" + std::to_string(N) + ")");
    Params p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    p.total = tri(u64(N));  // threads
    Dim3 g;
    linear_grid((p.total + u64(rho) * rho - 1) / (u64(rho) * rho), p.gx, g, name);
    // narrow: thread indices k < tri(N) + rho^2 and the row starts (a-1)(2n-a) <= n^2
    // (n = N+1) fit i32, and the grid is one row (linear_block<u32> is bx)
    p.narrow = p.total + u64(rho) * u64(rho) <= u64(narrow_limit) && (N + 2) * (N + 2) <= narrow_limit;
    return p;
  }
  static Dim3 grid(const Params& p, int) {
    return linear_grid_dims((p.total + u64(p.rho) * p.rho - 1) / (u64(p.rho) * p.rho), name);
  }
  static Dim3 block(const Params& p) { return Dim3{u32(p.rho) * u32(p.rho), 1, 1}; }
  // thread k -> (i, j)
  template <class Index = i64, class R = Pinned>
  TD_HD static Cell2T<Index> map_thread(i64 N, Index k) {
    const Index n = Index(N) + 1;
    const Index a = Sqrt::template row<Index, R>(n, k);
    const Index b = (a + 1) + k - utm_row_start(n, a);
    return Cell2T<Index>{b - 2, a - 1, true};
  }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int, u32 bx, u32 by, u32 tx, u32) {
    using U = uidx<Index>;
    const U k = linear_block<U>(p.gx, bx, by) * (U(p.rho) * U(p.rho)) + tx;
    if (k >= p.total) return outside2<Index>();
    return map_thread<Index>(p.N, Index(k));
  }
};

using UTM_X = UTM<UtmSqrtX>;
using UTM_N = UTM<UtmSqrtN>;

}  // namespace tdmaps
