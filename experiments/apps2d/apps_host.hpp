// experiments/apps2d/apps_host.hpp — the applications' inputs and CPU references
// (host only; compiles with g++ as well as nvcc, see test_apps_host.cpp).
//
//   EDM        points uniform in [0,1)^d, feature k of point i a pure function of
//              (seed, k, i), so a point does not depend on N. Reference: float64
//              distance of the float inputs (edm_ref), independent of the
//              device's float arithmetic.
//   collision  centres uniform in the unit box [0,1)^D, radii r = u * r_max with u
//              uniform in [0,1) and
//                 3D: r_max = 0.5 * N^(-1/3)   1D: r_max = 0.5 / N
//              Ignoring the box walls, a pair collides with probability
//              2*pi*r_max^3 (3D: E[(u+v)^3] = 3/2 times the volume 4/3*pi*r_max^3)
//              or 2*r_max (1D), so the expected number of colliding pairs is about
//              pi/8 * N ~ 0.39 N in 3D and 0.5 N in 1D (a little fewer with the
//              walls): roughly one collision per sphere at every N, a moderate
//              load that neither vanishes nor explodes over N = 1024..30720.
//              Reference: the same collides() predicate the kernels evaluate (pinned
//              rounding, fixed order), pair by pair, so counts must match exactly.
#pragma once
#include <apps/parallel.hpp>
#include <gpu/collision.cuh>
#include <gpu/edm.cuh>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace tdmaps::apps {

// ---- deterministic random numbers (SplitMix64) --------------------------------------
inline u64 splitmix64(u64 x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
// Uniform in [0, 1) with 24 random bits (every value exactly a float).
inline float u01(u64 h) { return float(h >> 40) * (1.0f / 16777216.0f); }
inline u64 hash3(u64 seed, u64 a, u64 b) { return splitmix64(splitmix64(seed ^ splitmix64(a)) ^ b); }

constexpr u64 edm_seed = 0x0edf00d5eedull;
constexpr u64 collision_seed = 0xc011de5eedull;
constexpr double collision_c3 = 0.5;  // r_max = c3 * N^(-1/3) in 3D
constexpr double collision_c1 = 0.5;  // r_max = c1 / N in 1D

// ---- host parallelism: the harness's (src/support/apps/parallel.hpp), at most 32 threads ----------
inline unsigned host_workers() { return bench::host_workers(32); }
template <class F>
void parallel_for(u64 count, F&& f) { bench::parallel_for(count, std::forward<F>(f), host_workers()); }

// ---- EDM --------------------------------------------------------------------------------
// SoA: feature k of point i at [k*N + i].
inline std::vector<float> make_points(i64 N, int d) {
  std::vector<float> x(size_t(N) * size_t(d));
  for (int k = 0; k < d; ++k)
    for (i64 i = 0; i < N; ++i) x[size_t(k) * size_t(N) + size_t(i)] = u01(hash3(edm_seed, u64(k), u64(i)));
  return x;
}
// The float64 reference distance of points i and j.
inline double edm_ref(const float* pts, i64 N, int d, i64 i, i64 j) {
  double s = 0;
  for (int k = 0; k < d; ++k) {
    const double t = double(pts[size_t(k) * size_t(N) + size_t(i)]) - double(pts[size_t(k) * size_t(N) + size_t(j)]);
    s += t * t;
  }
  return std::sqrt(s);
}
// The device's pinned float evaluation, on the host (same function as the kernels).
inline float edm_float(const float* pts, i64 N, int d, i64 i, i64 j) {
  auto at = [&](int k, i64 r) { return pts[size_t(k) * size_t(N) + size_t(r)]; };
  switch (d) {
    case 1: { const float a[1] = {at(0, i)}, b[1] = {at(0, j)}; return edm::distance<1>(a, b); }
    case 2: { const float a[2] = {at(0, i), at(1, i)}, b[2] = {at(0, j), at(1, j)}; return edm::distance<2>(a, b); }
    case 3: {
      const float a[3] = {at(0, i), at(1, i), at(2, i)}, b[3] = {at(0, j), at(1, j), at(2, j)};
      return edm::distance<3>(a, b);
    }
    default: {
      const float a[4] = {at(0, i), at(1, i), at(2, i), at(3, i)}, b[4] = {at(0, j), at(1, j), at(2, j), at(3, j)};
      return edm::distance<4>(a, b);
    }
  }
}
// Relative error of a computed distance against the reference; 0 == 0 is exact,
// anything against a zero reference, NaN or infinity is +infinity.
inline double rel_error(float got, double ref) {
  if (!std::isfinite(got)) return HUGE_VAL;
  if (ref == 0) return got == 0.0f ? 0.0 : HUGE_VAL;
  return std::fabs(double(got) - ref) / ref;
}
constexpr double edm_tolerance = 1e-6;

// ---- collision --------------------------------------------------------------------------
inline float collision_r_max(int D, i64 N) {
  return D == 3 ? float(collision_c3 / std::cbrt(double(N))) : float(collision_c1 / double(N));
}
template <int D>
std::vector<coll::Sphere<D>> make_spheres(i64 N) {
  std::vector<coll::Sphere<D>> s(static_cast<size_t>(N));
  const float rmax = collision_r_max(D, N);
  for (i64 i = 0; i < N; ++i) {
    for (int k = 0; k < D; ++k) s[size_t(i)].c[k] = u01(hash3(collision_seed + D, u64(i), u64(k)));
    s[size_t(i)].r = u01(hash3(collision_seed + D, u64(i), 7)) * rmax;
  }
  return s;
}
struct CollisionRef {
  std::vector<u32> counts;
  u64 pairs = 0;
};
// All pairs i > j, rows handed out in chunks (bench::parallel_chunks: balanced triangle).
template <int D>
CollisionRef collision_ref(const std::vector<coll::Sphere<D>>& s) {
  const i64 N = i64(s.size());
  const unsigned w = host_workers();
  std::vector<std::vector<u32>> part(w, std::vector<u32>(static_cast<size_t>(N), 0u));
  std::vector<u64> pairs(w, 0);
  bench::parallel_chunks(
      u64(N), 16,
      [&](unsigned t, u64 b, u64 e) {
        u32* c = part[t].data();
        u64 n = 0;
        for (i64 i = i64(b); i < i64(e); ++i)
          for (i64 j = 0; j < i; ++j)
            if (coll::collides<D>(s[size_t(i)], s[size_t(j)])) { ++c[i]; ++c[j]; ++n; }
        pairs[t] += n;
      },
      w);
  CollisionRef r;
  r.counts.assign(size_t(N), 0);
  for (unsigned t = 0; t < w; ++t) {
    r.pairs += pairs[t];
    for (i64 i = 0; i < N; ++i) r.counts[size_t(i)] += part[t][size_t(i)];
  }
  return r;
}

}  // namespace tdmaps::apps
