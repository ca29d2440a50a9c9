// tdmaps/map_rec.hpp — REC, the recursive partition of Ries et al.
// (000_dc8ca915cfc23e3c.txt §IV-B, Fig. 4), with the block placement computed
// arithmetically instead of from a constant-memory table.
//
// N = m * 2^k with m a multiple of rho, k >= 1. In blocks: n = N/rho = mb * 2^k,
// where we take k as large as possible (mb odd). The lower triangle splits into
// 2^k diagonal triangles of side mb and, for each level l = 1..k, 2^(k-l)
// off-diagonal squares of side s = mb * 2^(l-1) blocks, square q sitting at
// block rows [2qs + s, 2qs + 2s) and columns [2qs, 2qs + s).
//   pass 0      the diagonal pass: grid (mb, n); block (bx, by) -> square q = by/mb,
//               (q*mb + by%mb, q*mb + bx), discarded when bx > by%mb
//   pass l>=1   level l: grid (s, n/2); square q = by/s, r = by%s ->
//               (2qs + s + r, 2qs + bx)
// Every other N is refused, never silently half covered.
#pragma once
#include "plan.hpp"

namespace tdmaps {

struct REC {
  static constexpr const char* name = "rec";
  static constexpr bool blockwise = true;
  using Params = RecPlan;
  static Params plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    (void)allow_inexact;
    const std::string need = "rec: needs N = m*2^k with k >= 1 and m a multiple of rho=" + std::to_string(rho);
    if (N % rho != 0) throw unsupported(need + " (N=" + std::to_string(N) + " is not a multiple of rho)");
    Params p;
    p.N = N; p.rho = rho; p.n = N / rho;
    i64 mb = p.n; int k = 0;
    while (mb % 2 == 0) { mb /= 2; ++k; }
    if (k == 0) throw unsupported(need + " (N/rho=" + std::to_string(p.n) + " is odd, so k=0)");
    if (p.n > 65535) throw unsupported("rec: N/rho must be <= 65535 (grid y limit); got " + std::to_string(p.n));
    p.rec_mb = mb; p.passes = k + 1;  // k recursion levels and the diagonal pass
    p.narrow = narrow_coords(N, rho);
    return p;
  }
  static Dim3 grid(const Params& p, int pass) {
    if (pass == 0) return Dim3{u32(p.rec_mb), u32(p.n), 1};
    const i64 s = p.rec_mb << (pass - 1);
    return Dim3{u32(s), u32(p.n / 2), 1};
  }
  static Dim3 block(const Params& p) { return Dim3{u32(p.rho), u32(p.rho), 1}; }
  template <class Index = i64>
  TD_HD static Cell2T<Index> block_cell(const Params& p, int pass, u32 bx, u32 by) {
    using U = uidx<Index>;  // the divisions are unsigned: cheaper than signed ones
    if (pass == 0) {
      const U mb = U(p.rec_mb), q = U(by) / mb, r = U(by) - q * mb;
      if (U(bx) > r) return outside2<Index>();
      return Cell2T<Index>{Index(q * mb + r), Index(q * mb + bx), true};
    }
    const U s = U(p.rec_mb) << (pass - 1);
    const U q = U(by) / s, r = U(by) - q * s;
    return Cell2T<Index>{Index(2 * q * s + s + r), Index(2 * q * s + bx), true};
  }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    return thread_in_block(p.N, p.rho, block_cell<Index>(p, pass, bx, by), tx, ty);
  }
};

}  // namespace tdmaps
