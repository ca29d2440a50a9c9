// apps/diffusion3d.hpp — the nearest-neighbour update the layout study (the stencil
// experiment, experiments/maps3d) runs over the layouts of tdmaps/layout3d.hpp, host
// and device: the neighbourhood, the update of one cell and of one thread of the
// update kernel, the initial values, the checksum and the CPU reference.
//
// The update (a diffusion step): out[c] = (in[c] + sum of in[c'] over the in-domain
// 6-neighbours c' of c) / (1 + their number), the sum taken in the fixed order
// -x, +x, -y, +y, -z, +z with pinned rounding, so every layout, map and the CPU
// reference produce the same bits.
#pragma once
#include <tdmaps/layout3d.hpp>

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

// ---- one thread of the update kernel -----------------------------------------------
// Thread (tx, ty, tz) of the block whose block coordinate the map gave as `b` (any
// blockwise map: cell = b * rho + t, plan.hpp thread_in_block3). The GPU kernel
// (src/support/gpu/tet.cuh) and the host emulation of the oracle both call this.
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
