// The UTM exact ranges (map_utm.hpp limits::utm_*), proven from row boundaries
// (verify/range_proofs.hpp states the monotonicity argument formula by formula):
//   utm-x  every N <= its limit exact by both ends of every row (the computed row is
//          monotone in k, so this is an exact characterisation), N = limit + 1 not;
//   utm-n  every N <= its limit exact by the band of its Newton square root (max relative
//          error over every float argument, enumerated), any N the band leaves open checked
//          exhaustively; N = limit + 1 not exact.
// Each in both rounding modes (numbers.hpp: Pinned, the library's; Fused, the papers'
// binaries). Cross-checked against the exhaustive search (oracle.hpp utm_exact_for) on every
// N <= 300 and around each limit. The full exhaustive searches (every N, every k: about
// 740 s on two cores) are labelled 'slow' and run in `make verify-full`.
#define BOOST_TEST_MODULE utm_ranges
#include <boost/test/unit_test.hpp>

#include "range_proofs.hpp"

namespace utf = boost::unit_test;
using namespace tdmaps;
using namespace tdmaps::oracle;

namespace {
template <class U, class R>
void proven_range_is(i64 limit, const char* what) {
  const UtmSearch s = utm_last_exact_N_proven<U, R>(limit + 1);
  BOOST_TEST_MESSAGE(what << ": every N <= " << s.last_exact << " proven; " << s.exhaustive
                          << " N checked exhaustively (band too wide); sqrt band delta = " << s.delta);
  BOOST_TEST(s.last_exact == limit, what << ": proven limit " << s.last_exact << ", constant " << limit);
  // the limit is sharp: the exhaustive walk finds a wrong cell at limit + 1
  BOOST_TEST(!(utm_exact_for<U, R>(limit + 1)), what << ": N = limit + 1 is exact");
}
// The boundary proof against the exhaustive search, N = 1..to and around the limit.
template <class U, class R>
void cross_check(i64 to, i64 limit, const char* what) {
  std::vector<i64> Ns;
  for (i64 N = 1; N <= to; ++N) Ns.push_back(N);
  for (i64 N = limit - 3; N <= limit + 3; ++N) Ns.push_back(N);
  u64 proven = 0;
  const UtmArgRange xr = utm_arg_range(limit + 3);
  const double delta = std::is_same_v<U, UTM_N> ? utm_n_sqrt_delta<R>(xr.lo, xr.hi) : 0.0;
  for (i64 N : Ns) {
    const bool ex = utm_exact_for<U, R>(N);
    if constexpr (std::is_same_v<U, UTM_N>) {
      // the band is sufficient: where it proves N, the exhaustive walk agrees
      if (utm_n_proven_by_band<R>(N, delta, xr.lo, xr.hi)) {
        ++proven;
        BOOST_TEST(ex, what << " N=" << N << ": band proves it, exhaustive finds a wrong cell");
      }
    } else {
      BOOST_TEST((utm_exact_by_row_ends<U, R>(N) == ex), what << " N=" << N << ": row ends and exhaustive disagree");
    }
  }
  BOOST_TEST_MESSAGE(what << ": " << Ns.size() << " N cross-checked" << (proven ? ", band proved " : "")
                          << (proven ? std::to_string(proven) : std::string()));
}
}  // namespace

BOOST_AUTO_TEST_CASE(utm_x_pinned_range_by_row_ends) { proven_range_is<UTM_X, Pinned>(limits::utm_x_max_N, "utm-x pinned"); }
BOOST_AUTO_TEST_CASE(utm_x_fma_range_by_row_ends) { proven_range_is<UTM_X, Fused>(limits::utm_x_fma_max_N, "utm-x fma"); }
BOOST_AUTO_TEST_CASE(utm_n_pinned_range_by_band) { proven_range_is<UTM_N, Pinned>(limits::utm_n_max_N, "utm-n pinned"); }
BOOST_AUTO_TEST_CASE(utm_n_fma_range_by_band) { proven_range_is<UTM_N, Fused>(limits::utm_n_fma_max_N, "utm-n fma"); }

BOOST_AUTO_TEST_CASE(row_ends_agree_with_exhaustive_small_N) {
  cross_check<UTM_X, Pinned>(300, limits::utm_x_max_N, "utm-x pinned");
  cross_check<UTM_X, Fused>(300, limits::utm_x_fma_max_N, "utm-x fma");
  cross_check<UTM_N, Pinned>(300, limits::utm_n_max_N, "utm-n pinned");
  cross_check<UTM_N, Fused>(300, limits::utm_n_fma_max_N, "utm-n fma");
}

// The exhaustive searches (every N <= limit + 1, every thread k): make verify-full.
BOOST_AUTO_TEST_CASE(utm_x_pinned_every_N_exhaustive, *utf::label("slow")) {
  BOOST_TEST(utm_last_exact_N<UTM_X>(limits::utm_x_max_N + 1) == limits::utm_x_max_N);
}
BOOST_AUTO_TEST_CASE(utm_x_fma_every_N_exhaustive, *utf::label("slow")) {
  BOOST_TEST((utm_last_exact_N<UTM_X, Fused>(limits::utm_x_fma_max_N + 1)) == limits::utm_x_fma_max_N);
}
BOOST_AUTO_TEST_CASE(utm_n_pinned_every_N_exhaustive, *utf::label("slow")) {
  BOOST_TEST(utm_last_exact_N<UTM_N>(limits::utm_n_max_N + 1) == limits::utm_n_max_N);
}
BOOST_AUTO_TEST_CASE(utm_n_fma_every_N_exhaustive, *utf::label("slow")) {
  BOOST_TEST((utm_last_exact_N<UTM_N, Fused>(limits::utm_n_fma_max_N + 1)) == limits::utm_n_fma_max_N);
}
