// The UTM exact ranges by full search (CI; 740 s measured on two cores, most of it utm-n):
// for each UTM variant and rounding mode (numbers.hpp: Pinned, the library's; Fused, the
// papers' binaries), EVERY N <= its limits:: constant maps every thread k < N(N+1)/2 to the
// k-th cell of the column-major enumeration, and N = constant + 1 does not. (test_exact
// checks only the 16 N below each limit; exact_table writes the same search to the CSV.)
#define BOOST_TEST_MODULE utm_ranges
#include <boost/test/unit_test.hpp>

#include "oracle.hpp"

using namespace tdmaps;
using namespace tdmaps::oracle;

BOOST_AUTO_TEST_CASE(utm_x_pinned_every_N_up_to_limit) {
  BOOST_TEST(utm_last_exact_N<UTM_X>(limits::utm_x_max_N + 1) == limits::utm_x_max_N);
}
BOOST_AUTO_TEST_CASE(utm_x_fma_every_N_up_to_limit) {
  BOOST_TEST((utm_last_exact_N<UTM_X, Fused>(limits::utm_x_fma_max_N + 1)) == limits::utm_x_fma_max_N);
}
BOOST_AUTO_TEST_CASE(utm_n_pinned_every_N_up_to_limit) {
  BOOST_TEST(utm_last_exact_N<UTM_N>(limits::utm_n_max_N + 1) == limits::utm_n_max_N);
}
BOOST_AUTO_TEST_CASE(utm_n_fma_every_N_up_to_limit) {
  BOOST_TEST((utm_last_exact_N<UTM_N, Fused>(limits::utm_n_fma_max_N + 1)) == limits::utm_n_fma_max_N);
}
