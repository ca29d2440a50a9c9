// The tetrahedral part of 003_66f856975a7ab3ee.txt beyond the published map:
//   * TetRootFast (src/lib/tdmaps/tet_fast.hpp), the cheap exact layer root used as
//     TET<TetRootFast>: proven exact for every lambda < tet(2048) directly, and for
//     every lambda < limits::tet_fast_blocks through every float value its
//     estimate can see; its row function for every lambda' < 2^29; thread-level
//     coverage for every N <= 64, block level for every n <= 256.
//   * the succinct blocked layout of §III-A (src/lib/tdmaps/layout3d.hpp): a bijection
//     between pyramid cells and non-padding slots, padding counted and bounded as
//     eq. (9) states, and the stencil slots the update kernel uses.
//   * the update kernel's per-thread body, emulated on the host over every launched
//     block and thread of BB3 and g(lambda), equals the CPU reference bit for bit
//     (the update: src/support/apps/diffusion3d.hpp).
#define BOOST_TEST_MODULE layout3d
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <tdmaps/layout3d.hpp>
#include <apps/diffusion3d.hpp>

#include "oracle.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace bdata = boost::unit_test::data;
using namespace tdmaps;
using namespace tdmaps::oracle;

// ---- division-free tet / tri --------------------------------------------------------
BOOST_AUTO_TEST_CASE(tet_t_equals_tet_below_2_21) {  // the layouts' slot offsets (numbers.hpp tet_t, tri_t)
  std::atomic<u64> bad{0};
  parallel_for(1u << 21, [&](u64 b, u64 e) {
    for (u64 z = b; z < e; ++z)
      if (tet_t<u64>(z) != tet(z) || tri_t<u64>(z) != tri(z)) ++bad;
  });
  BOOST_TEST(bad.load() == 0u);
}

// tet(z) = tri(z) (z + 2) 3^-1 mod 2^64 for EVERY z with tet(z) < 2^64 (tri exact):
// a division-free tet() for numbers.hpp, proven over its whole domain.
BOOST_AUTO_TEST_CASE(tet_by_inverse_of_3_every_z_with_tet_below_2_64) {
  using u128 = unsigned __int128;
  const auto tet128 = [](u64 z) { return u128(z) * (z + 1) * (z + 2) / 6; };
  u64 zmax = 4000000;
  while (tet128(zmax + 1) >> 64 == 0) ++zmax;  // the last z with tet(z) < 2^64
  BOOST_TEST_MESSAGE("tet(z) < 2^64 for z <= " << zmax);
  std::atomic<u64> bad{0};
  parallel_for(zmax + 1, [&](u64 b, u64 e) {
    for (u64 z = b; z < e; ++z)
      if (tri(z) * (z + 2) * 0xAAAAAAAAAAAAAAABull != u64(tet128(z)) || tet(z) != u64(tet128(z))) ++bad;
  });
  BOOST_TEST(bad.load() == 0u);
}

// ---- the fast layer root --------------------------------------------------------------
BOOST_AUTO_TEST_CASE(cbrt_newton3_accuracy_and_zero) {
  // x = 0 (lambda = 0): the Newton steps overflow to 0 * inf = NaN; the floor
  // conversion maps NaN to 0 on host and device alike, which is layer 0.
  BOOST_TEST(std::isnan(cbrt_newton3(0.0f)));
  BOOST_TEST(tet_fast_layer_estimate(0) == 0u);
  BOOST_TEST(TetRootFast::layer(u64(0)).k == 0u);
  double worst = 0;
  for (u32 b = float_to_bits(1.0f); b < float_to_bits(1e15f); b += 101) {
    const float x = bits_to_float(b);
    worst = std::max(worst, std::fabs(double(cbrt_newton3(x)) / std::cbrt(double(x)) - 1.0));
  }
  BOOST_TEST_MESSAGE("cbrt_newton3: worst relative error " << worst << " (sampled)");
  BOOST_TEST(worst < 5e-7);
}

// Every lambda < tet(512) (22 million), against layer-by-layer enumeration; tet(2048) (1.4e9) in
// make verify-full. The float argument below covers [tet(512), limit).
BOOST_AUTO_TEST_CASE(tet_fast_layer_exact_every_lambda_below_tet_512) {
  const u64 limit = tet(512);
  BOOST_TEST(first_wrong_layer([](u64 l) { return TetRootFast::layer(l).k; }, limit) == limit);
}
BOOST_AUTO_TEST_CASE(tet_fast_layer_exact_every_lambda_below_tet_2048, *boost::unit_test::label("slow")) {
  const u64 limit = tet(2048);
  BOOST_TEST(first_wrong_layer([](u64 l) { return TetRootFast::layer(l).k; }, limit) == limit);
}

// Beyond: the estimate e depends on lambda only through x = float(6 lambda). For
// every float x that 6 lambda can round to (lambda in [tet(512), tet_fast_blocks)),
// take the integers s that round to x (round to nearest, ties to even: the open
// interval between the midpoints to the neighbouring floats, the midpoints included
// when x's mantissa is even), the lambdas with 6 lambda in it, and the true layers
// z_lo, z_hi of the smallest and largest of them. The integer check turns e into
// the right z for all of them iff z_hi <= e <= z_lo + 1. True layers come from
// walking tet() upward, never from a root formula.
BOOST_AUTO_TEST_CASE(tet_fast_layer_exact_every_lambda_below_limit_via_every_float) {
  const u64 l_begin = tet(512), l_end = limits::tet_fast_blocks;
  const u32 b_begin = float_to_bits(u64_to_float_rn(6 * l_begin));
  const u32 b_end = float_to_bits(u64_to_float_rn(6 * (l_end - 1))) + 1;
  BOOST_TEST_REQUIRE(u64_to_float_rn(6 * l_begin) > 33554432.0f);  // x >= 2^25: float spacing >= 4 on both sides
  std::atomic<u64> bad{0}, checked_floats{0}, covered{0};
  std::atomic<u32> max_e{0};
  parallel_for(b_end - b_begin, [&](u64 i0, u64 i1) {
    u64 z = 0;
    bool z_init = false;
    u64 n_bad = 0, n_floats = 0, n_lambda = 0;
    u32 me = 0;
    for (u64 i = i0; i < i1; ++i) {
      const u32 bits = b_begin + u32(i);
      const float xf = bits_to_float(bits);
      const u64 x = u64(xf), prev = u64(bits_to_float(bits - 1)), next = u64(bits_to_float(bits + 1));
      const bool even = (bits & 1u) == 0;
      const u64 mid_lo = (prev + x) / 2, mid_hi = (x + next) / 2;  // exact: spacings are even
      const u64 s_lo = even ? mid_lo : mid_lo + 1, s_hi = even ? mid_hi : mid_hi - 1;
      u64 l_lo = (s_lo + 5) / 6, l_hi = s_hi / 6;
      l_lo = std::max(l_lo, l_begin);
      l_hi = std::min(l_hi, l_end - 1);
      if (l_lo > l_hi) continue;
      // The preimage really is x, and nothing just outside it is.
      if (u64_to_float_rn(6 * l_lo) != xf || u64_to_float_rn(6 * l_hi) != xf || u64_to_float_rn(s_lo - 1) == xf ||
          u64_to_float_rn(s_hi + 1) == xf) {
        ++n_bad;
        continue;
      }
      if (!z_init) { z = tet_root(l_lo); z_init = true; }
      while (tet(z) > l_lo) --z;  // tet_root is only a starting point
      while (tet(z + 1) <= l_lo) ++z;
      const u64 z_lo = z;
      u64 z_hi = z;
      while (tet(z_hi + 1) <= l_hi) ++z_hi;
      const u32 e = tet_fast_layer_estimate(6 * l_lo);
      if (!(u64(e) >= z_hi && u64(e) <= z_lo + 1)) ++n_bad;
      me = std::max(me, e);
      ++n_floats;
      n_lambda += l_hi - l_lo + 1;
    }
    bad += n_bad;
    checked_floats += n_floats;
    covered += n_lambda;
    u32 cur = max_e.load();
    while (me > cur && !max_e.compare_exchange_weak(cur, me)) {}
  });
  BOOST_TEST_MESSAGE("tet-fast layer: " << checked_floats.load() << " floats, " << covered.load()
                                        << " lambdas, largest estimate " << max_e.load());
  BOOST_TEST(bad.load() == 0u);
  BOOST_TEST(covered.load() == l_end - l_begin);  // every lambda of the range seen exactly once
  // e (e + 1) must fit 32 bits in tet6_small: e < 2^15 - 2.
  BOOST_TEST(max_e.load() < 32766u);
}

// Row: every lambda' < 2^29 (covers every layer below the limit: tri(z + 1) <= 2^29).
BOOST_AUTO_TEST_CASE(tet_fast_row_exact_every_lambda_below_2_29) {
  BOOST_TEST(tri(tet_root(limits::tet_fast_blocks) + 1) <= limits::tet_fast_row_limit);
  BOOST_TEST(first_wrong_row([](u64 l) { return TetRootFast::row(l).k; }, limits::tet_fast_row_limit) ==
             limits::tet_fast_row_limit);
}

BOOST_AUTO_TEST_CASE(tet_fast_g_equals_tet_e_g_below_tet_512) {
  const u64 limit = tet(512);
  std::atomic<u64> bad{0};
  parallel_for(limit, [&](u64 b, u64 e) {
    for (u64 l = b; l < e; ++l) {
      const Cell3 p = TET_FAST::g(l), q = TET_E::g(l);
      if (p.x != q.x || p.y != q.y || p.z != q.z) ++bad;
    }
  });
  BOOST_TEST(bad.load() == 0u);
}

namespace {
void tet_fast_blocks(i64 top) {
  std::vector<uint8_t> seen;
  std::vector<i64> ns;
  for (i64 n = 1; n <= top; ++n) ns.push_back(n);
  if (top < 255) ns.insert(ns.end(), {255, 256});
  for (i64 n : ns) {
    const Coverage c = walk3_blocks<TET_FAST>(n, seen);
    if (!c.ok()) BOOST_TEST_FAIL("tet-fast n=" << n << ": " << c.str());
    BOOST_TEST_REQUIRE(c.launched_blocks == tet(u64(n)));
  }
}
}  // namespace
BOOST_AUTO_TEST_CASE(tet_fast_blocks_every_n_up_to_96_and_256) { tet_fast_blocks(96); }
BOOST_AUTO_TEST_CASE(tet_fast_blocks_every_n_up_to_256, *boost::unit_test::label("slow")) { tet_fast_blocks(256); }

BOOST_DATA_TEST_CASE(tet_fast_threads_every_N_up_to_64, bdata::make({2, 4, 8}), rho) {
  std::vector<uint8_t> seen;
  for (i64 N = 1; N <= 64; ++N) {
    const Coverage c = walk3<TET_FAST>(N, rho, seen);
    BOOST_TEST_REQUIRE(c.ok(), "tet-fast N=" << N << " rho=" << rho << ": " << c.str());
  }
}

BOOST_AUTO_TEST_CASE(tet_fast_plan_range) {
  // tet(n) <= 2^42 blocks: n <= 29770.
  BOOST_TEST(tet(29770) <= limits::tet_fast_blocks);
  BOOST_TEST(tet(29771) > limits::tet_fast_blocks);
  BOOST_CHECK_NO_THROW(TET_FAST::plan(29770 * 8, 8));
  BOOST_CHECK_THROW(TET_FAST::plan(29770 * 8 + 1, 8), unsupported);
  BOOST_CHECK_NO_THROW(TET_FAST::plan(29770 * 8 + 1, 8, /*allow_inexact=*/true));
  BOOST_CHECK_THROW(TET_FAST::plan(100, 11), unsupported);  // 11^3 > 1024
}

// ---- layouts ------------------------------------------------------------------------
// Linear: index is the position in z -> y -> x enumeration.
BOOST_AUTO_TEST_CASE(linear_layout_is_enumeration_order) {
  for (i64 N = 1; N <= 96; ++N) {
    const LinearLayout3 L = LinearLayout3::make(N, 1);
    u64 k = 0;
    bool ok = true;
    for (i64 z = 0; z < N; ++z)
      for (i64 y = 0; y <= z; ++y)
        for (i64 x = 0; x <= y; ++x, ++k) ok &= L.index(x, y, z) == k;
    BOOST_TEST_REQUIRE(ok, "N=" << N);
    BOOST_TEST_REQUIRE(k == L.slots());
  }
}

// Blocked: cells -> slots injective into [0, slots), the rest is padding, cell_of
// inverts it, padding = tet(n) rho^3 - tet(N) (= the closed form when rho | N) and
// <= n^2 rho^3, the term eq. (9) adds to T_n.
BOOST_DATA_TEST_CASE(blocked_layout_bijection_every_N_up_to_96, bdata::make({2, 4, 8}), rho) {
  for (i64 N = 1; N <= 96; ++N) {
    const BlockedLayout3 B = BlockedLayout3::make(N, rho);
    const u64 slots = B.slots();
    std::vector<uint8_t> used(slots, 0);
    u64 dup = 0, range = 0, wrong_inverse = 0;
    for (i64 z = 0; z < N; ++z)
      for (i64 y = 0; y <= z; ++y)
        for (i64 x = 0; x <= y; ++x) {
          const u64 s = B.index(x, y, z);
          if (s >= slots) { ++range; continue; }
          if (used[s]) ++dup;
          used[s] = 1;
          const Cell3 c = B.cell_of(s);
          if (!c.inside || c.x != x || c.y != y || c.z != z) ++wrong_inverse;
        }
    u64 padding = 0, padding_claimed = 0;
    for (u64 s = 0; s < slots; ++s)
      if (!used[s]) {
        ++padding;
        padding_claimed += B.cell_of(s).inside;
      }
    BOOST_TEST_REQUIRE(dup == 0u, "N=" << N << " rho=" << rho);
    BOOST_TEST_REQUIRE(range == 0u, "N=" << N << " rho=" << rho);
    BOOST_TEST_REQUIRE(wrong_inverse == 0u, "N=" << N << " rho=" << rho);
    BOOST_TEST_REQUIRE(padding_claimed == 0u, "N=" << N << " rho=" << rho);
    BOOST_TEST_REQUIRE(padding == B.padding());
    BOOST_TEST_REQUIRE(padding == tet(u64(B.n)) * u64(rho) * rho * rho - tet(u64(N)));
    BOOST_TEST_REQUIRE(padding <= u64(B.n) * u64(B.n) * u64(rho) * rho * rho, "N=" << N << " rho=" << rho);
    if (N % rho == 0) BOOST_TEST_REQUIRE(padding == blocked_padding_multiple(u64(B.n), u64(rho)));
    // Every block starts on a multiple of rho^3 slots (alignment, eq. (9)).
    BOOST_TEST_REQUIRE(B.block_base(0, 0, B.n - 1) % B.r3 == 0u);
  }
}

// The closed form for large n too (exact integer arithmetic, no enumeration).
BOOST_AUTO_TEST_CASE(blocked_padding_closed_form_large) {
  for (u64 rho : {2u, 4u, 8u, 10u})
    for (u64 n = 1; n <= 4096; ++n)
      BOOST_TEST_REQUIRE(blocked_padding_multiple(n, rho) == tet(n) * rho * rho * rho - tet(n * rho));
}

// Stencil slots: for every in-domain cell and every in-domain neighbour, the slot the
// kernel computes from (block, thread) equals the layout's index of that neighbour.
template <class L>
u64 stencil_errors(i64 N, int rho) {
  const L lay = L::make(N, rho);
  u64 bad = 0;
  const i64 d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
  for (i64 z = 0; z < N; ++z)
    for (i64 y = 0; y <= z; ++y)
      for (i64 x = 0; x <= y; ++x) {
        const Cell3 b{x / rho, y / rho, z / rho, true};
        u64 ix[7];
        lay.stencil(b, u32(x % rho), u32(y % rho), u32(z % rho), ix);
        if (ix[0] != lay.index(x, y, z)) ++bad;
        const unsigned m = stencil_mask(x, y, z, N);
        for (int q = 0; q < 6; ++q) {
          const i64 a = x + d[q][0], bb = y + d[q][1], c = z + d[q][2];
          const bool in = a >= 0 && a <= bb && bb <= c && c < N;
          if (in != bool(m & (1u << q))) ++bad;
          if (in && ix[q + 1] != lay.index(a, bb, c)) ++bad;
        }
      }
  return bad;
}
BOOST_DATA_TEST_CASE(stencil_slots_every_N_up_to_40, bdata::make({1, 2, 4, 8}), rho) {
  for (i64 N = 1; N <= 40; ++N) {
    BOOST_TEST_REQUIRE(stencil_errors<LinearLayout3>(N, rho) == 0u, "linear N=" << N << " rho=" << rho);
    BOOST_TEST_REQUIRE(stencil_errors<BlockedLayout3>(N, rho) == 0u, "blocked N=" << N << " rho=" << rho);
  }
}

// ---- the update kernel, emulated on the host over the whole launch ---------------------
// Every launched block and thread of map M (grid, block, block_cell exactly as the
// GPU kernel uses them) runs diffuse_thread on layout L; the result, read back cell
// by cell, must equal the linear CPU reference bit for bit, and padding slots must
// keep their initial (NaN) content.
template <class M, class L>
std::string emulate_update(i64 N, int rho) {
  const L lay = L::make(N, rho);
  const LinearLayout3 lin = LinearLayout3::make(N, 1);
  const u64 cells = tet(u64(N));
  std::vector<float> ref_in(cells), ref_out(cells);
  for (u64 i = 0; i < cells; ++i) ref_in[i] = cell_value(i);
  diffuse_reference(N, ref_in.data(), ref_out.data(), 0, N);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> in(lay.slots(), nan), out(lay.slots(), nan);
  for (i64 z = 0; z < N; ++z)
    for (i64 y = 0; y <= z; ++y)
      for (i64 x = 0; x <= y; ++x) in[lay.index(x, y, z)] = ref_in[lin.index(x, y, z)];
  const Plan3 p = M::plan(N, rho);
  const Dim3 g = M::grid(p), bd = M::block(p);
  for (u32 bz = 0; bz < g.z; ++bz)
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        const Cell3 b = M::block_cell(p, bx, by, bz);
        if (!b.inside) continue;
        for (u32 tz = 0; tz < bd.z; ++tz)
          for (u32 ty = 0; ty < bd.y; ++ty)
            for (u32 tx = 0; tx < bd.x; ++tx) diffuse_thread(lay, b, tx, ty, tz, in.data(), out.data());
      }
  u64 wrong = 0, written = 0;
  for (i64 z = 0; z < N; ++z)
    for (i64 y = 0; y <= z; ++y)
      for (i64 x = 0; x <= y; ++x) {
        const float a = out[lay.index(x, y, z)], r = ref_out[lin.index(x, y, z)];
        if (std::memcmp(&a, &r, sizeof a) != 0) ++wrong;
      }
  for (float v : out) written += !std::isnan(v);
  if (wrong) return std::to_string(wrong) + " cells differ";
  if (written != cells) return std::to_string(written - cells) + " padding slots written";
  return "";
}
BOOST_DATA_TEST_CASE(update_emulation_matches_reference, bdata::make({2, 4, 8}), rho) {
  for (i64 N : {1, 2, 3, 5, 8, 13, 17, 24, 31, 33, 47}) {
    std::string e;
    e = emulate_update<BB3, LinearLayout3>(N, rho);
    BOOST_TEST(e.empty(), "bb3 linear N=" << N << " rho=" << rho << ": " << e);
    e = emulate_update<BB3, BlockedLayout3>(N, rho);
    BOOST_TEST(e.empty(), "bb3 blocked N=" << N << " rho=" << rho << ": " << e);
    e = emulate_update<TET_E, LinearLayout3>(N, rho);
    BOOST_TEST(e.empty(), "tet-e linear N=" << N << " rho=" << rho << ": " << e);
    e = emulate_update<TET_FAST, BlockedLayout3>(N, rho);
    BOOST_TEST(e.empty(), "tet-fast blocked N=" << N << " rho=" << rho << ": " << e);
  }
}
