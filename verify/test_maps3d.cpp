// Coverage and uniqueness of the 3D maps (003_66f856975a7ab3ee.txt) on the
// tetrahedral domain {0 <= x <= y <= z < N}.
#define BOOST_TEST_MODULE maps3d
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "oracle.hpp"

namespace bdata = boost::unit_test::data;
using namespace tdmaps;
using namespace tdmaps::oracle;

// Block level for every n = 1..256 block layers.
BOOST_AUTO_TEST_CASE(bb3_blocks_every_n_up_to_256) {
  std::vector<uint8_t> seen;
  for (i64 n = 1; n <= 256; ++n) {
    const Coverage c = walk3_blocks<BB3>(n, seen);
    if (!c.ok()) BOOST_TEST_FAIL("bb3 n=" << n << ": " << c.str());
    BOOST_TEST_REQUIRE(c.launched_blocks - c.useful_blocks == u64(n * n * n) - tet(u64(n)));
  }
}
BOOST_AUTO_TEST_CASE(tet_e_blocks_every_n_up_to_256) {
  std::vector<uint8_t> seen;
  for (i64 n = 1; n <= 256; ++n) {
    const Coverage c = walk3_blocks<TET_E>(n, seen);
    if (!c.ok()) BOOST_TEST_FAIL("tet-e n=" << n << ": " << c.str());
    BOOST_TEST_REQUIRE(c.launched_blocks == tet(u64(n)));
  }
}

// Thread level for every N = 1..64 and rho in {2, 4, 8} (rho^3 <= 1024).
BOOST_DATA_TEST_CASE(threads_every_N_up_to_64, bdata::make({2, 4, 8}), rho) {
  std::vector<uint8_t> seen;
  for (i64 N = 1; N <= 64; ++N) {
    const Coverage a = walk3<BB3>(N, rho, seen);
    if (!a.ok()) BOOST_TEST_FAIL("bb3 N=" << N << " rho=" << rho << ": " << a.str());
    const Coverage b = walk3<TET_E>(N, rho, seen);
    if (!b.ok()) BOOST_TEST_FAIL("tet-e N=" << N << " rho=" << rho << ": " << b.str());
  }
}

// The exact tetrahedral map as a bijection lambda <-> (x, y, z) for EVERY
// lambda < tet(2048): enumerate layers z, rows y, columns x in order and compare.
BOOST_AUTO_TEST_CASE(tet_e_bijection_every_lambda_below_tet_2048) {
  const u64 layers = 2048;
  std::atomic<u64> bad{0};
  parallel_for(layers, [&](u64 z0, u64 z1) {
    for (u64 z = z0; z < z1; ++z) {
      u64 l = tet(z);
      for (u64 y = 0; y <= z; ++y)
        for (u64 x = 0; x <= y; ++x, ++l) {
          const Cell3 c = TET_E::g(l);
          if (c.x != i64(x) || c.y != i64(y) || c.z != i64(z)) ++bad;
        }
    }
  });
  BOOST_TEST(bad.load() == 0u);
}

// eq. (14) at lambda = 0 takes the square root of -3: the published float formula
// yields NaN there (our conversion maps it to layer 0, which happens to be right).
BOOST_AUTO_TEST_CASE(eq14_at_zero_is_nan) {
  const float rad = 729.0f * 0.0f * 0.0f - 3.0f;
  BOOST_TEST(std::isnan(std::sqrt(rad)));
  BOOST_TEST(TetRootF::layer(u64(0)).k == 0u);
}
