// experiments/apps2d/test_apps_host.cpp — CPU checks of the applications' inputs and
// references (no GPU needed; built with the host compiler, -ffp-contract=off):
//   * the pinned float EDM formula (the kernels' edm::distance) stays within the
//     1e-6 relative tolerance of the float64 reference, d = 1..4;
//   * collides() is symmetric and inclusive at contact;
//   * the parallel collision reference equals a plain serial double loop;
//   * the radius rule gives a moderate number of collisions over N = 1024..30720;
//   * the inputs are deterministic and a point does not depend on N.
#include "apps_host.hpp"

#include <cstdio>

using namespace tdmaps;
using namespace tdmaps::apps;

static int failures = 0;
#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      ++failures;                                          \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::printf(__VA_ARGS__);                            \
      std::printf("\n");                                   \
    }                                                      \
  } while (0)

static void edm_tolerance_holds() {
  const i64 N = 4096;
  for (int d = 1; d <= 4; ++d) {
    std::vector<float> x = make_points(N, d);
    // a few nearly equal points, where the difference is smallest
    for (int k = 0; k < d; ++k) x[size_t(k) * N + 1] = std::nextafter(x[size_t(k) * N + 0], 2.0f);
    double worst = 0;
    u64 n = 0;
    for (i64 i = 0; i < N; i += 3)
      for (i64 j = 0; j <= i; j += 2) {
        const double e = rel_error(edm_float(x.data(), N, d, i, j), edm_ref(x.data(), N, d, i, j));
        worst = std::max(worst, e);
        ++n;
      }
    const double e01 = rel_error(edm_float(x.data(), N, d, 1, 0), edm_ref(x.data(), N, d, 1, 0));
    worst = std::max(worst, e01);
    std::printf("edm d=%d: %llu pairs, max rel err of the pinned float formula %.3g (tolerance %.0e)\n", d,
                (unsigned long long)n, worst, edm_tolerance);
    CHECK(worst <= 2.5e-7, "d=%d max rel err %.3g above the 4*2^-24 bound", d, worst);
    CHECK(edm_float(x.data(), N, d, 7, 7) == 0.0f, "diagonal not 0");
  }
  CHECK(rel_error(std::nanf(""), 1.0) > 1, "NaN must fail");
  CHECK(rel_error(1e-30f, 0.0) > 1, "nonzero against 0 must fail");
  CHECK(rel_error(0.0f, 0.0) == 0, "0 against 0 is exact");
}

static void collides_basics() {
  coll::Sphere<3> a{{0.f, 0.f, 0.f}, 0.5f}, b{{1.f, 0.f, 0.f}, 0.5f}, c{{1.f, 0.f, 0.f}, 0.25f};
  CHECK(coll::collides<3>(a, b), "touching spheres collide");
  CHECK(!coll::collides<3>(a, c), "separate spheres do not");
  coll::Sphere<1> p{{0.25f}, 0.125f}, q{{0.5f}, 0.125f}, r{{0.5f}, 0.0625f};
  CHECK(coll::collides<1>(p, q) && coll::collides<1>(q, p), "touching intervals collide");
  CHECK(!coll::collides<1>(p, r), "separate intervals do not");
  const auto s = make_spheres<3>(3000);
  u64 asym = 0;
  for (size_t i = 0; i < s.size(); i += 7)
    for (size_t j = 0; j < s.size(); j += 5) asym += coll::collides<3>(s[i], s[j]) != coll::collides<3>(s[j], s[i]);
  CHECK(asym == 0, "collides() not symmetric in %llu pairs", (unsigned long long)asym);
}

template <int D>
static void reference_matches_serial(i64 N) {
  const auto s = make_spheres<D>(N);
  const CollisionRef r = collision_ref<D>(s);
  std::vector<u32> c(static_cast<size_t>(N), 0u);
  u64 pairs = 0;
  for (i64 i = 0; i < N; ++i)
    for (i64 j = 0; j < i; ++j)
      if (coll::collides<D>(s[size_t(i)], s[size_t(j)])) { ++c[size_t(i)]; ++c[size_t(j)]; ++pairs; }
  CHECK(r.pairs == pairs && r.counts == c, "%dD N=%lld: parallel reference differs from the serial loop", D,
        (long long)N);
  u64 sum = 0;
  for (u32 v : r.counts) sum += v;
  CHECK(sum == 2 * r.pairs, "counts must sum to twice the pairs");
}

template <int D>
static void collision_load(i64 N) {
  const CollisionRef r = collision_ref<D>(make_spheres<D>(N));
  const double per = double(r.pairs) / double(N);
  std::printf("collision %dD N=%-6lld r_max=%.4g: %llu colliding pairs (%.3f per sphere)\n", D, (long long)N,
              double(collision_r_max(D, N)), (unsigned long long)r.pairs, per);
  CHECK(per > 0.1 && per < 2.0, "%dD N=%lld: %.3f pairs per sphere is not moderate", D, (long long)N, per);
}

static void inputs_deterministic() {
  const auto a = make_points(100, 3), b = make_points(50, 3);
  bool same = true;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 50; ++i) same = same && a[size_t(k) * 100 + i] == b[size_t(k) * 50 + i];
  CHECK(same, "a point must not depend on N");
  CHECK(make_points(100, 3) == a, "points must be deterministic");
  for (float v : a) CHECK(v >= 0.0f && v < 1.0f, "point out of [0,1): %g", double(v));
  const auto s = make_spheres<3>(1000);
  const auto t = make_spheres<3>(1000);
  bool eq = true;
  for (size_t i = 0; i < s.size(); ++i)
    eq = eq && s[i].c[0] == t[i].c[0] && s[i].c[1] == t[i].c[1] && s[i].c[2] == t[i].c[2] && s[i].r == t[i].r;
  CHECK(eq, "spheres must be deterministic");
}

int main() {
  edm_tolerance_holds();
  collides_basics();
  reference_matches_serial<3>(1500);
  reference_matches_serial<1>(1500);
  for (i64 N : {1024, 4096, 30720}) {
    collision_load<3>(N);
    collision_load<1>(N);
  }
  inputs_deterministic();
  std::printf(failures ? "%d check(s) failed\n" : "all checks passed\n", failures);
  return failures ? 1 : 0;
}
