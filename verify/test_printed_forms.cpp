// The papers' formulas as printed, against the forms the library uses (verify/printed_forms.hpp;
// the same values are in verify/results/printed_forms.csv, written by printed_forms):
//   000 eq. (9)    the strictly lower triangle: as printed lambda = 0 lands at (1, -1)
//   000 §IV-B      RB as printed is not a bijection onto the lower triangle; ours is
//   003 eq. (14)   in float: NaN at lambda = 0, wrong from lambda = 10 (pinned and fma)
#define BOOST_TEST_MODULE printed_forms
#include <boost/test/unit_test.hpp>

#include "printed_forms.hpp"
#include "range_proofs.hpp"

using namespace tdmaps;
using namespace tdmaps::oracle;
using namespace tdmaps::oracle::printed;

// eq. (9) as printed: j = lambda - i(i+1)/2 with the strict row i, so every lambda is off
// by -i; the first block lands at (1, -1).
BOOST_AUTO_TEST_CASE(eq9_as_printed_lambda_0_lands_at_1_minus_1) {
  const Cell2 c = ltm_strict_as_printed(0);
  BOOST_TEST(c.i == 1);
  BOOST_TEST(c.j == -1);
  BOOST_TEST(first_wrong_strict([](u64 l) { return ltm_strict_as_printed(l); }, 1ull << 32) == 0u);
  BOOST_TEST(strict_right_count([](u64 l) { return ltm_strict_as_printed(l); }, 4096) == 0u);
}

// eq. (9) with the column from the strict row start i(i-1)/2, the row still in float: right
// below lambda = 10619135 and wrong there (sqrtf rounding; the same lambda as ltm-x).
BOOST_AUTO_TEST_CASE(eq9_column_fixed_float_wrong_from_10619135) {
  BOOST_TEST(first_wrong_strict([](u64 l) { return ltm_strict_float(l); }, 1ull << 32) == 10619135u);
}

// The library's strict form (row tri_root(lambda) + 1): a bijection for every lambda < 2^32.
// tri_root is exact (test_exact, test_index_paths) and non-decreasing, so the strict row is
// right at both ends of every row iff everywhere, and the column lambda - tri(r) then lies in
// [0, r]: row ends below 2^32, every lambda below 2^26 (every lambda below 2^32 in
// make verify-full).
BOOST_AUTO_TEST_CASE(eq9_exact_bijection_every_lambda_below_2_32) {
  BOOST_TEST(first_wrong_row_monotone([](u64 l) { return u64(ltm_strict_exact(l).i) - 1; }, 1ull << 32) == (1ull << 32));
  BOOST_TEST(first_wrong_strict([](u64 l) { return ltm_strict_exact(l); }, 1ull << 26) == (1ull << 26));
}
BOOST_AUTO_TEST_CASE(eq9_exact_bijection_every_lambda_below_2_32_exhaustive, *boost::unit_test::label("slow")) {
  BOOST_TEST(first_wrong_strict([](u64 l) { return ltm_strict_exact(l); }, 1ull << 32) == (1ull << 32));
}

// RB as printed in 000 §IV-B (N even; N/2 columns, N+1 rows): in or above the diagonal
// j = N - i - 1 = ty < N/2, so those tri(N/2) threads land on cells (N-ty-1, ty) that the
// lower part already covers, and the tri(N/2) cells with j >= N/2 are never reached: not a
// bijection for any even N (first: N = 2).
BOOST_AUTO_TEST_CASE(rb_as_printed_not_a_bijection) {
  BOOST_TEST(first_bad_even_N(2048, walk_rb_as_printed) == 2);
  u64 bad = 0;
  for (i64 N = 2; N <= 512; N += 2) {
    const RectWalk v = walk_rb_as_printed(N);
    const u64 h = tri(u64(N / 2));
    if (v.c.duplicates != h || v.c.missing != h || v.c.out_of_domain != 0) {
      ++bad;
      BOOST_TEST_MESSAGE("rb as printed N=" << N << ": " << v.c.str());
    }
  }
  BOOST_TEST(bad == 0u);
}

// Read with j = N - tx - 1, the printed rectangle is a bijection for every even N <= 2048.
BOOST_AUTO_TEST_CASE(rb_printed_with_j_from_tx_bijection_even_N_up_to_2048) {
  BOOST_TEST(first_bad_even_N(2048, walk_rb_j_from_tx) == 0);
}

// Our RB (map_rb.hpp): a bijection for every N <= 512 and 2040..2048, even and odd, at rho 16
// (every N <= 2048 in make verify-full; test_maps2d walks rho 8 and 32 too).
BOOST_AUTO_TEST_CASE(rb_ours_bijection_every_N_up_to_512_and_near_2048) {
  std::vector<uint8_t> seen;
  i64 bad = 0;
  for (i64 N = 1; N <= 2048; N = N == 512 ? 2040 : N + 1) bad += !walk2<RB>(N, 16, seen).ok();
  BOOST_TEST(bad == 0);
}
BOOST_AUTO_TEST_CASE(rb_ours_bijection_every_N_up_to_2048, *boost::unit_test::label("slow")) {
  std::vector<uint8_t> seen;
  i64 bad = 0;
  for (i64 N = 1; N <= 2048; ++N) bad += !walk2<RB>(N, 16, seen).ok();
  BOOST_TEST(bad == 0);
}

// eq. (14) in float, both rounding modes: at lambda = 0 the radicand 729*0 - 3 is -3 and its
// square root NaN (the layer comes out 0 only because float_floor_nonneg maps NaN to 0);
// the first wrong layer is at lambda = 10 (limits::tet_f_blocks, test_exact).
BOOST_AUTO_TEST_CASE(eq14_float_nan_at_0_wrong_from_10) {
  for (const float rad : {eq14_radicand<Pinned>(0), eq14_radicand<Fused>(0)}) {
    BOOST_TEST(rad == -3.0f);
    BOOST_TEST(std::isnan(fsqrt_rn(rad)));
  }
  BOOST_TEST(TetRootF::layer(u64(0)).k == 0u);
  BOOST_TEST((TetRootF::layer<u64, Fused>(u64(0)).k) == 0u);
  BOOST_TEST(eq14_first_wrong<Pinned>(tet(2048)) == 10u);
  BOOST_TEST(eq14_first_wrong<Fused>(tet(2048)) == 10u);
  BOOST_TEST(TetRootF::layer(u64(10)).k == 2u);  // layer 3 starts at tet(3) = 10
}
