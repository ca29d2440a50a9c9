// tdmaps/layout3d.hpp — data layouts of the tetrahedral domain (the "pyramid" of
// 003_66f856975a7ab3ee.txt: cells (x, y, z), 0 <= x <= y <= z < N, tet(N) of them)
// and the nearest-neighbour update the layout study runs over them (host and device).
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
// The update (a diffusion step): out[c] = (in[c] + sum of in[c'] over the in-domain
// 6-neighbours c' of c) / (1 + their number), the sum taken in the fixed order
// -x, +x, -y, +y, -z, +z with pinned rounding, so every layout, map and the CPU
// reference produce the same bits.
#pragma once
#include "map_3d.hpp"
#include "tet_fast.hpp"

namespace tdmaps {

// ---- neighbourhood --------------------------------------------------------------
// Bit q set when neighbour q of (x, y, z) lies in the domain; order -x, +x, -y, +y, -z, +z.
TD_HD unsigned stencil_mask(i64 x, i64 y, i64 z, i64 N) {
  return unsigned(x >= 1) | unsigned(x + 1 <= y) << 1 | unsigned(y - 1 >= x) << 2 | unsigned(y + 1 <= z) << 3 |
         unsigned(z - 1 >= y) << 4 | unsigned(z + 1 < N) << 5;
}

// The diffusion update of one cell: ix[0] the cell's slot, ix[1 + q] neighbour q's.
// `in` is a pointer, or anything with in[slot] (the CPU checksum reads cell_value).
template <class In>
TD_HD float diffuse(const In& in, const u64 (&ix)[7], unsigned mask) {
  float s = in[ix[0]];
  int k = 1;
  for (int q = 0; q < 6; ++q)
    if (mask & (1u << q)) {
      s = fadd_rn(s, in[ix[q + 1]]);
      ++k;
    }
  return fdiv_rn(s, float(k));
}

// Initial value of the cell whose linear (z -> y -> x) index is i: a hash in [0, 1).
TD_HD float cell_value(u64 i) {
  u64 h = i + 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  return fmul_rn(float(u32(h >> 40)), 5.9604644775390625e-8f);  // 24 bits * 2^-24
}

// The initial values seen as an array indexed by linear slot (no memory).
struct CellValues {
  TD_HD float operator[](u64 i) const { return cell_value(i); }
};

// One cell's term of the order-independent, position-sensitive checksum of a field:
// sum over cells of bits(value) * (2 * linear index + 1), mod 2^64.
TD_HD u64 checksum_term(float v, u64 linear_index) { return u64(float_to_bits(v)) * (2u * linear_index + 1u); }

// ---- linear layout ---------------------------------------------------------------
struct LinearLayout3 {
  static constexpr const char* name = "linear";
  i64 N = 0;
  int rho = 1;  // the block side of the map that drives it (cell = block * rho + thread)
  static LinearLayout3 make(i64 N, int rho) { return LinearLayout3{N, rho}; }
  u64 slots() const { return tet(u64(N)); }
  TD_HD u64 index(i64 x, i64 y, i64 z) const { return tet_small(u64(z)) + tri_small(u64(y)) + u64(x); }
  // Slots of the 7-point stencil of the in-domain cell blk * rho + (tx, ty, tz).
  // Neighbours along y and z are tri differences away: tri(y) - tri(y-1) = y,
  // tet(z) - tet(z-1) = tri(z). Entries of absent neighbours are not meaningful.
  TD_HD void stencil(const Cell3& blk, u32 tx, u32 ty, u32 tz, u64 (&ix)[7]) const {
    const u64 x = u64(blk.x) * u64(rho) + tx, y = u64(blk.y) * u64(rho) + ty, z = u64(blk.z) * u64(rho) + tz;
    const u64 i = tet_small(z) + tri_small(y) + x;
    ix[0] = i;
    ix[1] = i - 1;
    ix[2] = i + 1;
    ix[3] = i - y;
    ix[4] = i + y + 1;
    ix[5] = i - tri_small(z);
    ix[6] = i + tri_small(z + 1);
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
    return (tet_small(u64(bz)) + tri_small(u64(by)) + u64(bx)) * r3;
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

// ---- one thread of the update kernel -----------------------------------------------
// Thread (tx, ty, tz) of the block whose block coordinate the map gave as `b` (any
// blockwise map: cell = b * rho + t, plan.hpp thread_in_block3). The GPU kernel
// (src/gpu/tet.cuh) and the host emulation of the oracle both call this.
template <class L>
TD_HD void diffuse_thread(const L& lay, const Cell3& b, u32 tx, u32 ty, u32 tz, const float* in, float* out) {
  const Cell3 c = thread_in_block3(lay.N, lay.rho, b, tx, ty, tz);
  if (!c.inside) return;
  u64 ix[7];
  lay.stencil(b, tx, ty, tz, ix);
  out[ix[0]] = diffuse(in, ix, stencil_mask(c.x, c.y, c.z, lay.N));
}

// ---- CPU reference of one update, in the linear layout, layers [z0, z1) -----------
inline void diffuse_reference(i64 N, const float* in, float* out, i64 z0, i64 z1) {
  const LinearLayout3 L = LinearLayout3::make(N, 1);
  for (i64 z = z0; z < z1; ++z)
    for (i64 y = 0; y <= z; ++y)
      for (i64 x = 0; x <= y; ++x) {
        u64 ix[7];
        L.stencil(Cell3{x, y, z, true}, 0, 0, 0, ix);
        out[ix[0]] = diffuse(in, ix, stencil_mask(x, y, z, N));
      }
}

// Checksum of one update's output over layers [z0, z1), straight from the initial
// values (no arrays: usable at any N).
inline u64 diffuse_reference_checksum(i64 N, i64 z0, i64 z1) {
  const LinearLayout3 L = LinearLayout3::make(N, 1);
  const CellValues in{};
  u64 sum = 0;
  for (i64 z = z0; z < z1; ++z)
    for (i64 y = 0; y <= z; ++y)
      for (i64 x = 0; x <= y; ++x) {
        u64 ix[7];
        L.stencil(Cell3{x, y, z, true}, 0, 0, 0, ix);
        sum += checksum_term(diffuse(in, ix, stencil_mask(x, y, z, N)), ix[0]);
      }
  return sum;
}

}  // namespace tdmaps
