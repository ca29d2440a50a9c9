// The index paths of the maps (src/lib/tdmaps/config.hpp, plan.hpp): the estimates that
// the exact roots correct by one step (numbers.hpp tri_correct / tet_correct) are
// proven within one of the answer over each path's whole range, and the narrow
// (u32) root functions equal the wide (u64) ones wherever the narrow path serves.
//   ltm-e narrow  SqrtE::estimate(u32)         map_ltm.hpp, eq. (2) of 000
//   ltm-e wide    tri_estimate_wide            numbers.hpp
//   tet-e narrow  TetRootE::layer_estimate(u32) map_3d.hpp, eq. (13) of 003
//   tet-e wide    tet_estimate_wide            numbers.hpp
// Tests labelled 'slow' run in the meson suite 'slow' (make verify-full) only.
// True rows / layers come from walking tri() / tet() upward, never from a root formula.
#define BOOST_TEST_MODULE index_paths
#include <boost/test/unit_test.hpp>

#include "oracle.hpp"

#include <cmath>
#include <mutex>

namespace utf = boost::unit_test;
using namespace tdmaps;
using namespace tdmaps::oracle;
using u128 = unsigned __int128;

namespace {
// Largest i with tri(i) <= l (a start from the double root, then exact steps).
u64 row_of(u64 l) {
  u64 i = u64(std::sqrt(2.0 * double(l)));
  while (i > 0 && u128(i) * (i + 1) / 2 > l) --i;
  while (u128(i + 1) * (i + 2) / 2 <= l) ++i;
  return i;
}
// Largest z with tet(z) <= l.
u64 layer_of(u64 l) {
  u64 z = u64(std::cbrt(6.0 * double(l)));
  while (z > 0 && u128(z) * (z + 1) * (z + 2) / 6 > l) --z;
  while (u128(z + 1) * (z + 2) * (z + 3) / 6 <= l) ++z;
  return z;
}
// The floats nearest to d from above / below.
float float_at_least(double d) {
  float f = float(d);
  if (double(f) < d) f = std::nextafter(f, INFINITY);
  return f;
}
float float_at_most(double d) {
  float f = float(d);
  if (double(f) > d) f = std::nextafter(f, -INFINITY);
  return f;
}
float float_at_least(long double d) {
  float f = float(d);
  if ((long double)f < d) f = std::nextafter(f, INFINITY);
  return f;
}
float float_at_most(long double d) {
  float f = float(d);
  if ((long double)f > d) f = std::nextafter(f, -INFINITY);
  return f;
}
bool within_one(u64 e, u64 k) { return e + 1 >= k && e <= k + 1; }

// Narrow path limits (map_ltm.hpp LTM::narrow_max_n, map_3d.hpp TET::plan).
constexpr u64 ltm_narrow_lambdas = 2147450880ull;  // tri(65535)
u64 tet_narrow_n() {
  u64 n = 1;
  while (tet(n + 1) < (1ull << 31) && tet(n + 3) < (1ull << 32)) ++n;
  return n;
}

// A failure counter that keeps the smallest failing argument.
struct Fails {
  std::atomic<u64> count{0}, first{~0ull};
  void add(u64 l) {
    ++count;
    u64 cur = first.load();
    while (l < cur && !first.compare_exchange_weak(cur, l)) {}
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(narrow_limits) {
  BOOST_TEST(tri(65535) == ltm_narrow_lambdas);
  BOOST_TEST(tri(65535) < (1ull << 31));
  const u64 n = tet_narrow_n();
  BOOST_TEST_MESSAGE("tet narrow: n <= " << n << ", lambda < tet(n) = " << tet(n));
  BOOST_TEST((tet(n) < (1ull << 31) && tet(n + 2) < (1ull << 32)));
  BOOST_TEST(!(tet(n + 1) < (1ull << 31) && tet(n + 3) < (1ull << 32)));
}

// ---- (a) LTM-E narrow: floor(x rsqrt(x) - 1/2), x = 2 lambda + 1/4 in float ----------------
// For EVERY lambda < 2^32 and every float s' within a relative 2^-20 of sqrt(x) (the
// device's MUFU.RSQ is within 2^-22, the product's rounding adds 2^-24), the estimate
// floor(fsub_rn(s', 1/2)) is i-1, i or i+1. fsub_rn and the floor are monotone, so the
// two extreme floats of the band decide; and the band's ends are monotone in lambda
// (float(lambda), 2x + 1/4, sqrt, the scaling and float_at_least/most all are), so the low
// end at the first lambda of row i and the high end at its last decide the whole row.
// (2^-50 more covers the double sqrt's rounding.) Cross-checked lambda by lambda below 2^24.
namespace {
void ltm_e_band_row_ends(u64 r0, u64 r1, Fails& band) {
  const double m = std::ldexp(1.0, -20) + std::ldexp(1.0, -50);
  const auto s_of = [](u64 l) { return std::sqrt(double(ltm_arg<u32>(u32(l)))); };
  parallel_for(r1 - r0, [&](u64 b, u64 e) {
    for (u64 i = r0 + b; i < r0 + e; ++i) {
      const u64 lo = tri(i);
      if (lo >= (1ull << 32)) return;
      const u64 hi = std::min<u64>(tri(i + 1) - 1, (1ull << 32) - 1);
      const u32 elo = ltm_floor_row<u32>(float_at_least(s_of(lo) * (1 - m)));
      const u32 ehi = ltm_floor_row<u32>(float_at_most(s_of(hi) * (1 + m)));
      if (!within_one(elo, i) || !within_one(ehi, i)) band.add(lo);
    }
  });
}
}  // namespace
BOOST_AUTO_TEST_CASE(ltm_e_narrow_band_within_one_every_lambda_below_2_32) {
  Fails band;
  ltm_e_band_row_ends(0, row_of((1ull << 32) - 1) + 1, band);
  BOOST_TEST(band.count.load() == 0u, "first lambda outside the band: " << band.first.load());
  // the same, lambda by lambda, below 2^24
  const double m = std::ldexp(1.0, -20) + std::ldexp(1.0, -50);
  Fails each;
  parallel_for(1ull << 24, [&](u64 b, u64 e) {
    u64 i = row_of(b), next = tri(i + 1);
    for (u64 l = b; l < e; ++l) {
      if (l >= next) { ++i; next = tri(i + 1); }
      const double s = std::sqrt(double(ltm_arg<u32>(u32(l))));
      if (!within_one(ltm_floor_row<u32>(float_at_least(s * (1 - m))), i) ||
          !within_one(ltm_floor_row<u32>(float_at_most(s * (1 + m))), i))
        each.add(l);
    }
  });
  BOOST_TEST(each.count.load() == 0u, "first lambda outside the band: " << each.first.load());
}

// The host's own estimate (SqrtE::estimate: x * (1/sqrtf(x)), not monotone) through
// SqrtE::row<u32>, for every lambda of the narrow path (lambda < tri(65535)): lambda by lambda
// below 2^24; above, the estimate depends on lambda only through float(lambda), so for each
// float f the lambdas that round to f form an interval [a, b] whose true rows lie between
// row(a) and row(b) (monotone): the estimate within one of both is within one of every row
// between, and the one-step correction then gives the true row.
BOOST_AUTO_TEST_CASE(ltm_e_narrow_host_row_every_narrow_lambda) {
  Fails host;
  parallel_for(1ull << 24, [&](u64 b, u64 e) {
    u64 i = row_of(b), next = tri(i + 1);
    for (u64 l = b; l < e; ++l) {
      if (l >= next) { ++i; next = tri(i + 1); }
      const Root<u32> r = SqrtE::row<u32>(u32(l));
      if (r.k != i || r.base != tri(i)) host.add(l);
    }
  });
  // floats in [2^24, tri(65535)): the lambdas rounding to f are those of the open interval
  // between the midpoints to f's neighbours (ties to even: the midpoints join the even side)
  const u32 fb0 = float_to_bits(16777216.0f), fb1 = float_to_bits(to_float_rn(u32(ltm_narrow_lambdas - 1)));
  std::atomic<u64> covered{0};
  parallel_for(u64(fb1 - fb0) + 1, [&](u64 b, u64 e) {
    u64 c = 0;
    u64 ra = 0, rz = 0;  // true rows of a and z, stepped upward (a and z increase with t)
    bool init = false;
    for (u64 t = b; t < e; ++t) {
      const u32 bits = fb0 + u32(t);
      const u64 x = u64(bits_to_float(bits)), prev = u64(bits_to_float(bits - 1)), next = u64(bits_to_float(bits + 1));
      const bool even = (bits & 1u) == 0;
      const u64 mid_lo = (prev + x) / 2, mid_hi = (x + next) / 2;  // exact: spacings >= 2 are even
      u64 a = even ? mid_lo : mid_lo + 1, z = even ? mid_hi : mid_hi - 1;
      a = std::max<u64>(a, 1ull << 24);
      z = std::min<u64>(z, ltm_narrow_lambdas - 1);
      if (a > z) continue;
      if (to_float_rn(u32(a)) != bits_to_float(bits) || to_float_rn(u32(z)) != bits_to_float(bits)) { host.add(a); continue; }
      const u32 est = SqrtE::estimate(u32(a));
      if (!init) { ra = row_of(a); rz = row_of(z); init = true; }
      while (tri(ra + 1) <= a) ++ra;
      while (tri(rz + 1) <= z) ++rz;
      if (!within_one(est, ra) || !within_one(est, rz)) host.add(a);
      const Root<u32> qa = SqrtE::row<u32>(u32(a)), qz = SqrtE::row<u32>(u32(z));
      if (qa.k != ra || qa.base != tri(ra) || qz.k != rz || qz.base != tri(rz)) host.add(a);
      c += z - a + 1;
    }
    covered += c;
  });
  BOOST_TEST(covered.load() == ltm_narrow_lambdas - (1ull << 24), "every narrow lambda above 2^24 seen once");
  BOOST_TEST(host.count.load() == 0u, "first wrong SqrtE::row<u32>: " << host.first.load());
}

// The same lambda by lambda over every lambda < 2^32 (make verify-full).
BOOST_AUTO_TEST_CASE(ltm_e_narrow_estimate_within_one_every_lambda_below_2_32, *utf::label("slow")) {
  const double m = std::ldexp(1.0, -20) + std::ldexp(1.0, -50);
  Fails band, host;
  parallel_for(1ull << 32, [&](u64 b, u64 e) {
    u64 i = row_of(b), next = tri(i + 1);
    float f = -1.0f;
    u32 elo = 0, ehi = 0, est = 0;
    for (u64 l = b; l < e; ++l) {
      if (l >= next) { ++i; next = tri(i + 1); }
      const float fl = to_float_rn(u32(l));
      if (fl != f) {
        f = fl;
        const double s = std::sqrt(double(ltm_arg<u32>(u32(l))));
        elo = ltm_floor_row<u32>(float_at_least(s * (1 - m)));
        ehi = ltm_floor_row<u32>(float_at_most(s * (1 + m)));
        est = SqrtE::estimate(u32(l));
      }
      if (!within_one(elo, i) || !within_one(ehi, i)) band.add(l);
      if (l < ltm_narrow_lambdas) {
        const Root<u32> r = l < (1u << 24) ? SqrtE::row<u32>(u32(l)) : tri_correct<u32>(u32(l), est);
        if (r.k != i || r.base != tri(i)) host.add(l);
      }
    }
  });
  BOOST_TEST(band.count.load() == 0u, "first lambda outside the band: " << band.first.load());
  BOOST_TEST(host.count.load() == 0u, "first wrong SqrtE::row<u32>: " << host.first.load());
}

// ---- (b) LTM-E wide: tri_estimate_wide, double sqrt(2 lambda + 1/4) - 1/2 -----------------
// Every step is a correctly rounded monotone operation, so the estimate is
// non-decreasing in lambda: within one at both ends of row i (tri(i), tri(i+1) - 1)
// means within one for every lambda of the row. The last row is cut at 2^62 - 1.
namespace {
constexpr u64 wide_tri_limit = 1ull << 62;
// Rows [r0, r1): returns the count of ends where the estimate is not within one, or the
// corrected row is wrong.
u64 tri_wide_row_ends(u64 r0, u64 r1, Fails& f) {
  std::atomic<u64> checked{0};
  parallel_for(r1 - r0, [&](u64 b, u64 e) {
    u64 c = 0;
    for (u64 i = r0 + b; i < r0 + e; ++i) {
      const u64 lo = tri(i);
      if (lo >= wide_tri_limit) break;
      const u64 hi = std::min(tri(i + 1) - 1, wide_tri_limit - 1);
      for (u64 l : {lo, hi}) {
        const u64 est = tri_estimate_wide(l);
        const Root<u64> r = tri_correct<u64>(l, est);
        if (!within_one(est, i) || r.k != i || r.base != lo) f.add(l);
      }
      ++c;
    }
    checked += c;
  });
  return checked.load();
}
const u64 last_wide_row = row_of(wide_tri_limit - 1);  // 3037000499
}  // namespace

BOOST_AUTO_TEST_CASE(ltm_e_wide_estimate_within_one_rows_below_2_26_and_near_2_62) {
  Fails f;
  u64 rows = tri_wide_row_ends(0, 1ull << 26, f);
  rows += tri_wide_row_ends(last_wide_row + 1 - (1ull << 22), last_wide_row + 1, f);
  BOOST_TEST_MESSAGE("ltm-e wide: both ends of " << rows << " rows; last row " << last_wide_row);
  BOOST_TEST(f.count.load() == 0u, "first failing lambda " << f.first.load());
  BOOST_TEST(tri(last_wide_row) < wide_tri_limit);
  BOOST_TEST(tri(last_wide_row + 1) > wide_tri_limit - 1);
}

BOOST_AUTO_TEST_CASE(ltm_e_wide_estimate_within_one_every_row_below_2_62, *utf::label("slow")) {
  Fails f;
  const u64 rows = tri_wide_row_ends(0, last_wide_row + 1, f);
  BOOST_TEST_MESSAGE("ltm-e wide: both ends of every row, " << rows << " rows (lambda < 2^62)");
  BOOST_TEST(rows == last_wide_row + 1);
  BOOST_TEST(f.count.load() == 0u, "first failing lambda " << f.first.load());
}

// ---- (c) TET-E narrow: floor(c - 3/4), c ~ cbrt(fmul_rn(6, float(lambda))) ----------------
// For every layer z of the narrow path and any float c within a relative 2^-16 of
// cbrt(x) (device lg2/ex2: about 2^-21), e is z-1, z or z+1. float(lambda), fmul_rn,
// cbrt, the band's ends, fsub_rn and the floor are all monotone in lambda, so the low
// band end at lambda = tet(z) and the high one at tet(z+1) - 1 decide the layer.
BOOST_AUTO_TEST_CASE(tet_e_narrow_estimate_within_one_every_narrow_layer) {
  const u64 n = tet_narrow_n();
  const long double m = std::ldexp(1.0L, -16) + std::ldexp(1.0L, -60);
  Fails f;
  for (u64 z = 0; z < n; ++z) {
    const u64 lo = tet(z), hi = tet(z + 1) - 1;
    const auto c = [](u64 l) { return std::cbrt((long double)six_lambda(u32(l))); };
    const u32 elo = tet_layer_from_cbrt(float_at_least(c(lo) * (1 - m)));
    const u32 ehi = tet_layer_from_cbrt(float_at_most(c(hi) * (1 + m)));
    if (!within_one(elo, z) || !within_one(ehi, z)) f.add(lo);
    for (u64 l : {lo, hi}) {
      const Root<u32> r = TetRootE::layer<u32>(u32(l));
      if (r.k != z || r.base != tet(z)) f.add(l);
    }
  }
  BOOST_TEST_MESSAGE("tet-e narrow: both ends of layers 0.." << n - 1 << " (lambda < " << tet(n) << ")");
  BOOST_TEST(f.count.load() == 0u, "first failing lambda " << f.first.load());
}

namespace {
// TetRootE::layer<u32>(lambda) = the true layer and layer<u64>, for every lambda < limit.
void tet_e_narrow_exhaustive(u64 limit) {
  Fails f;
  parallel_for(limit, [&](u64 b, u64 e) {
    u64 z = layer_of(b), next = tet(z + 1);
    for (u64 l = b; l < e; ++l) {
      if (l >= next) { ++z; next = tet(z + 1); }
      const Root<u32> r = TetRootE::layer<u32>(u32(l));
      if (r.k != z || r.base != tet(z)) f.add(l);
    }
  });
  BOOST_TEST(f.count.load() == 0u, "first wrong TetRootE::layer<u32>: " << f.first.load());
}
}  // namespace

BOOST_AUTO_TEST_CASE(tet_e_narrow_layer_exact_every_lambda_below_2_25) { tet_e_narrow_exhaustive(1ull << 25); }
BOOST_AUTO_TEST_CASE(tet_e_narrow_layer_exact_every_lambda_below_2_28, *utf::label("slow")) { tet_e_narrow_exhaustive(1ull << 28); }

BOOST_AUTO_TEST_CASE(tet_e_narrow_layer_exact_every_narrow_lambda, *utf::label("slow")) {
  tet_e_narrow_exhaustive(tet(tet_narrow_n()));
}

// ---- (d) TET-E wide: floor(cbrt(double(6 lambda))) - 1, lambda < 2^60 ----------------------
// libm's cbrt is not correctly rounded, so its monotonicity is not taken for granted:
// for both ends of every layer (cut at 2^60 - 1), (1) any value within a relative
// 2^-40 of the real cube root of the double 6 lambda (cbrtl; glibc's cbrt errs by a
// few ulps, about 2^-51) gives an estimate within one; since that band moves
// monotonically with lambda, this covers every lambda of the layer under the only
// assumption that the libm cbrt errs by less than 2^-40 (checked on samples below);
// (2) the real cbrt gives an estimate within one at lambda-1, lambda, lambda+1 and the
// one-step correction gives the true layer there.
BOOST_AUTO_TEST_CASE(tet_e_wide_estimate_within_one_every_layer_below_2_60) {
  constexpr u64 limit = 1ull << 60;
  const long double m = std::ldexp(1.0L, -40) + std::ldexp(1.0L, -60);
  const auto est = [](long double c) -> u64 {
    const u64 f = u64(std::floor(c));
    return f > 0 ? f - 1 : 0;
  };
  const auto x6 = [](u64 l) { return dmul_rn(6.0, to_double_rn(l)); };
  u64 zmax = 0;
  while (tet(zmax + 1) < limit) ++zmax;  // layers 0..zmax hold every lambda < 2^60
  Fails f;
  std::atomic<u64> below_z{0}, above_z{0};
  double worst_cbrt = 0;
  std::mutex mu;
  parallel_for(zmax + 1, [&](u64 b, u64 e) {
    double worst = 0;
    for (u64 z = b; z < e; ++z) {
      const u64 lo = tet(z), hi = std::min(tet(z + 1) - 1, limit - 1);
      if (!within_one(est(std::cbrt((long double)x6(lo)) * (1 - m)), z) ||
          !within_one(est(std::cbrt((long double)x6(hi)) * (1 + m)), z))
        f.add(lo);
      for (u64 l : {lo, hi, lo + 1, hi - 1, lo - (lo > 0), hi + 1}) {
        const u64 zt = l < lo ? z - 1 : l > hi ? z + 1 : z;
        if (l >= limit) continue;
        const u64 en = tet_estimate_wide(l);
        const Root<u64> r = tet_correct<u64>(l, en);
        if (!within_one(en, zt) || r.k != zt || r.base != tet(zt)) f.add(l);
        if (en + 1 == zt) ++below_z; else if (en == zt + 1) ++above_z;
        const long double c = std::cbrt((long double)x6(l));
        if (c > 0) worst = std::max(worst, double(std::fabs((long double)std::cbrt(x6(l)) / c - 1)));
      }
    }
    std::lock_guard<std::mutex> g(mu);
    worst_cbrt = std::max(worst_cbrt, worst);
  });
  BOOST_TEST_MESSAGE("tet-e wide: layers 0.." << zmax << "; estimates z-1: " << below_z.load() << ", z+1: "
                                              << above_z.load() << "; worst libm cbrt relative error "
                                              << worst_cbrt);
  BOOST_TEST(f.count.load() == 0u, "first failing lambda " << f.first.load());
  BOOST_TEST(worst_cbrt < std::ldexp(1.0, -40));
}

// ---- (e) the float maps: narrow root functions equal the wide ones -----------------------
// Over every lambda of each variant's proven exact range that the narrow path serves
// (LTM: lambda < tri(65535); TET: lambda < tet(narrow n)); sampled where marked.
namespace {
template <class F>
u64 count_differences(u64 begin, u64 end, u64 stride, F&& differs) {
  std::atomic<u64> bad{0};
  const u64 count = (end - begin + stride - 1) / stride;
  parallel_for(count, [&](u64 b, u64 e) {
    u64 c = 0;
    for (u64 k = b; k < e; ++k) c += differs(begin + k * stride);
    bad += c;
  });
  return bad.load();
}
template <class S>
bool row_paths_differ(u64 l) {
  const Root<u32> a = S::template row<u32>(u32(l));
  const Root<u64> b = S::template row<u64>(l);
  return a.k != b.k || a.base != b.base;
}
template <class R>
bool layer_paths_differ(u64 l) {
  const Root<u32> a = R::template layer<u32>(u32(l));
  const Root<u64> b = R::template layer<u64>(l);
  return a.k != b.k || a.base != b.base;
}
}  // namespace

BOOST_AUTO_TEST_CASE(float_maps_narrow_equals_wide) {
  BOOST_TEST(count_differences(0, limits::ltm_x_blocks, 1, row_paths_differ<SqrtX>) == 0u);
  BOOST_TEST(count_differences(0, limits::ltm_n_blocks, 1, row_paths_differ<SqrtN>) == 0u);
  BOOST_TEST(count_differences(0, limits::ltm_r_blocks, 1, row_paths_differ<SqrtR>) == 0u);
  // ltm-d: exact below 2^32; the narrow path serves lambda < tri(65535): every lambda
  // below 2^24, then every 97th (all of them in the slow test below)
  BOOST_TEST(count_differences(0, 1ull << 24, 1, row_paths_differ<SqrtD>) == 0u);
  BOOST_TEST(count_differences(1ull << 24, ltm_narrow_lambdas, 97, row_paths_differ<SqrtD>) == 0u);
  // tet-f: exact below 10 only; equal anyway over the first 2^20
  BOOST_TEST(count_differences(0, 1ull << 20, 1, layer_paths_differ<TetRootF>) == 0u);
  // tet-e: the narrow layer is proven exact above; equal to the wide one below 2^24
  BOOST_TEST(count_differences(0, 1ull << 24, 1, layer_paths_differ<TetRootE>) == 0u);
  // tet-fast: exact below 2^42, narrow path below tet(narrow n): every lambda below 2^24,
  // then every 97th; rows (proven below 2^29): every lambda' < 2^26, then every 7th
  const u64 tn = tet(tet_narrow_n());
  BOOST_TEST(count_differences(0, 1ull << 24, 1, layer_paths_differ<TetRootFast>) == 0u);
  BOOST_TEST(count_differences(1ull << 24, tn, 97, layer_paths_differ<TetRootFast>) == 0u);
  BOOST_TEST(count_differences(0, 1ull << 24, 1, row_paths_differ<TetRootFast>) == 0u);
  BOOST_TEST(count_differences(1ull << 24, limits::tet_fast_row_limit, 7, row_paths_differ<TetRootFast>) == 0u);
}

BOOST_AUTO_TEST_CASE(float_maps_narrow_equals_wide_every_narrow_lambda, *utf::label("slow")) {
  BOOST_TEST(count_differences(0, ltm_narrow_lambdas, 1, row_paths_differ<SqrtD>) == 0u);
  BOOST_TEST(count_differences(0, tet(tet_narrow_n()), 1, layer_paths_differ<TetRootE>) == 0u);
  BOOST_TEST(count_differences(0, tet(tet_narrow_n()), 1, layer_paths_differ<TetRootFast>) == 0u);
  BOOST_TEST(count_differences(0, limits::tet_fast_row_limit, 1, row_paths_differ<TetRootFast>) == 0u);
}
