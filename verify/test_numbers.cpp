// Triangular and tetrahedral numbers and their exact inverses.
#define BOOST_TEST_MODULE numbers
#include <boost/test/unit_test.hpp>

#include "oracle.hpp"

#include <random>

using namespace tdmaps;

namespace {
// Independent references: binary search with 128-bit products.
u64 tri_root_ref(u64 l) {
  u64 lo = 0, hi = 1ull << 32;
  while (lo < hi) {
    const u64 mid = (lo + hi + 1) / 2;
    if ((unsigned __int128)mid * (mid + 1) / 2 <= l) lo = mid; else hi = mid - 1;
  }
  return lo;
}
u64 tet_root_ref(u64 l) {
  u64 lo = 0, hi = 1ull << 22;
  while (lo < hi) {
    const u64 mid = (lo + hi + 1) / 2;
    if ((unsigned __int128)mid * (mid + 1) * (mid + 2) / 6 <= l) lo = mid; else hi = mid - 1;
  }
  return lo;
}
}  // namespace

BOOST_AUTO_TEST_CASE(small_values) {
  const u64 t[] = {0, 1, 3, 6, 10, 15};
  const u64 T[] = {0, 1, 4, 10, 20, 35};
  for (u64 n = 0; n < 6; ++n) {
    BOOST_TEST(tri(n) == t[n]);
    BOOST_TEST(tet(n) == T[n]);
  }
  for (u64 n = 0; n < 5000; ++n) {
    BOOST_TEST_REQUIRE(tri(n) == n * (n + 1) / 2);
    BOOST_TEST_REQUIRE(tet(n) == n * (n + 1) * (n + 2) / 6);
  }
}

BOOST_AUTO_TEST_CASE(roots_exhaustive_small) {
  for (u64 l = 0; l < 2000000; ++l) {
    BOOST_TEST_REQUIRE(tri_root(l) == tri_root_ref(l));
    BOOST_TEST_REQUIRE(tet_root(l) == tet_root_ref(l));
  }
}

// Random and boundary arguments up to the documented ranges (2^62 and 2^60).
BOOST_AUTO_TEST_CASE(roots_random_and_boundaries_large) {
  std::mt19937_64 rng(12345);
  for (int k = 0; k < 200000; ++k) {
    const u64 a = rng() >> 2, b = rng() >> 4;
    BOOST_TEST_REQUIRE(tri_root(a) == tri_root_ref(a));
    BOOST_TEST_REQUIRE(tet_root(b) == tet_root_ref(b));
  }
  for (u64 i = 1; i < (1ull << 31); i = i * 3 + 1)
    for (u64 d : {0ull, 1ull}) {
      BOOST_TEST_REQUIRE(tri_root(tri(i) - d) == i - d);
    }
  for (u64 z = 1; z < (1ull << 20); z = z * 3 + 1)
    for (u64 d : {0ull, 1ull}) BOOST_TEST_REQUIRE(tet_root(tet(z) - d) == z - d);
}
