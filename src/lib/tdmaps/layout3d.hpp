// tdmaps/layout3d.hpp — data layouts of the tetrahedral domain (the "pyramid" of
// 003_66f856975a7ab3ee.txt: cells (x, y, z), 0 <= x <= y <= z < N, tet(N) of them):
// the linear layout and the succinct blocked layout.
//
//   LinearLayout3   §III-A, "a typical linear memory organization ... in a major
//                   depth-row order, i.e. z -> y -> x": cell (x, y, z) at
//                   tet(z) + tri(y) + x. Rows have length y + 1 and start at
//                   arbitrary offsets, so a warp's accesses are rarely aligned
//                   (eq. (3)-(8)).
//   BlockedLayout3  §III-A, the "succinct blocked re-organization": blocks of rho^3
//                   cells, each stored contiguously with a local linear order
//                   (tz, ty, tx) and laid out one after another in the order of the
//                   block map g(lambda) (eq. (16)): block (bx, by, bz), bx <= by <= bz,
//                   is block number lambda = tet(bz) + tri(by) + bx and occupies slots
//                   [lambda rho^3, (lambda + 1) rho^3). Blocks on the diagonal region
//                   (bx == by or by == bz) and past N are padded, which keeps every
//                   block aligned (eq. (9)).
//
// Padding (slots that hold no cell), n = ceil(N / rho):
//   P(N, rho) = tet(n) rho^3 - tet(N)
// and, when rho divides N (N = n rho),
//   P = n^2 rho^2 (rho - 1) / 2 + n rho (rho^2 - 1) / 3,
// which is O(n^2 rho^3) as eq. (9) states; the oracle (verify/test_layout3d.cpp)
// checks both forms and P <= n^2 rho^3 for every N <= 96 and rho in {2, 4, 8}.
//
// The nearest-neighbour update the layout study runs over these layouts (the
// stencil experiment) is not part of the map library: src/support/apps/diffusion3d.hpp.
#pragma once
#include "map_3d.hpp"
#include "tet_fast.hpp"

namespace tdmaps {

// ---- linear layout ---------------------------------------------------------------
struct LinearLayout3 {
  static constexpr const char* name = "linear";
  i64 N = 0;
  int rho = 1;  // the block side of the map that drives it (cell = block * rho + thread)
  static LinearLayout3 make(i64 N, int rho) { return LinearLayout3{N, rho}; }
  u64 slots() const { return tet(u64(N)); }
  TD_HD u64 index(i64 x, i64 y, i64 z) const { return tet_t<u64>(u64(z)) + tri_t<u64>(u64(y)) + u64(x); }
  // Slots of the 7-point stencil of the in-domain cell blk * rho + (tx, ty, tz).
  // Neighbours along y and z are tri differences away: tri(y) - tri(y-1) = y,
  // tet(z) - tet(z-1) = tri(z). Entries of absent neighbours are not meaningful.
  TD_HD void stencil(const Cell3& blk, u32 tx, u32 ty, u32 tz, u64 (&ix)[7]) const {
    const u64 x = u64(blk.x) * u64(rho) + tx, y = u64(blk.y) * u64(rho) + ty, z = u64(blk.z) * u64(rho) + tz;
    const u64 i = tet_t<u64>(z) + tri_t<u64>(y) + x;
    ix[0] = i;
    ix[1] = i - 1;
    ix[2] = i + 1;
    ix[3] = i - y;
    ix[4] = i + y + 1;
    ix[5] = i - tri_t<u64>(z);
    ix[6] = i + tri_t<u64>(z + 1);
  }
};

// ---- succinct blocked layout -----------------------------------------------------
struct BlockedLayout3 {
  static constexpr const char* name = "blocked";
  i64 N = 0;
  int rho = 1;
  i64 n = 0;   // blocks per side, ceil(N / rho)
  u64 r3 = 1;  // rho^3 slots per block
  static BlockedLayout3 make(i64 N, int rho) {
    BlockedLayout3 b;
    b.N = N; b.rho = rho; b.n = ceil_div(N, rho); b.r3 = u64(rho) * u64(rho) * u64(rho);
    return b;
  }
  u64 slots() const { return tet(u64(n)) * r3; }
  u64 padding() const { return slots() - tet(u64(N)); }
  // First slot of block (bx, by, bz): its g(lambda) number times rho^3.
  TD_HD u64 block_base(i64 bx, i64 by, i64 bz) const {
    return (tet_t<u64>(u64(bz)) + tri_t<u64>(u64(by)) + u64(bx)) * r3;
  }
  TD_HD u64 local(i64 tx, i64 ty, i64 tz) const { return (u64(tz) * u64(rho) + u64(ty)) * u64(rho) + u64(tx); }
  TD_HD u64 index(i64 x, i64 y, i64 z) const {
    const i64 bx = x / rho, by = y / rho, bz = z / rho;
    return block_base(bx, by, bz) + local(x - bx * rho, y - by * rho, z - bz * rho);
  }
  TD_HD void stencil(const Cell3& b, u32 tx, u32 ty, u32 tz, u64 (&ix)[7]) const {
    const u32 e = u32(rho) - 1;
    const u64 r = u64(rho), r2 = r * r;
    const u64 i = block_base(b.x, b.y, b.z) + local(tx, ty, tz);
    ix[0] = i;
    ix[1] = tx > 0 ? i - 1 : block_base(b.x - 1, b.y, b.z) + local(e, ty, tz);
    ix[2] = tx < e ? i + 1 : block_base(b.x + 1, b.y, b.z) + local(0, ty, tz);
    ix[3] = ty > 0 ? i - r : block_base(b.x, b.y - 1, b.z) + local(tx, e, tz);
    ix[4] = ty < e ? i + r : block_base(b.x, b.y + 1, b.z) + local(tx, 0, tz);
    ix[5] = tz > 0 ? i - r2 : block_base(b.x, b.y, b.z - 1) + local(tx, ty, e);
    ix[6] = tz < e ? i + r2 : block_base(b.x, b.y, b.z + 1) + local(tx, ty, 0);
  }
  // The cell stored in `slot`; `inside` is false for a padding slot (host: oracle, checks).
  Cell3 cell_of(u64 slot) const {
    const Cell3 b = TET_E::g(slot / r3);
    const u64 t = slot % r3;
    const i64 tx = i64(t % u64(rho)), ty = i64((t / u64(rho)) % u64(rho)), tz = i64(t / (u64(rho) * u64(rho)));
    return thread_in_block3(N, rho, b, u32(tx), u32(ty), u32(tz));
  }
};

// Padding in closed form for N = n * rho (see the top of this file).
inline u64 blocked_padding_multiple(u64 n, u64 rho) {
  return n * n * rho * rho * (rho - 1) / 2 + n * rho * (rho * rho - 1) / 3;
}

}  // namespace tdmaps
