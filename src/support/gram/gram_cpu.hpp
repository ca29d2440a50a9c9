// src/support/gram/gram_cpu.hpp — the float64 CPU oracle of the Gram / distance kernels (issue #27) and
// their error bound per precision. Plain C++17 (no CUDA): verify/test_gram.cpp tests it without
// a GPU; experiments/gram/bench_gram checks every GPU output against it.
//
// Error bound. For points x_i, x_j (float) and S = (|x_i| + |x_j|)^2, each kernel's d^2 satisfies
//     |d2_gpu - d2_exact| <= c_P * S,   c_P = 3 u_P + (K + 4) 2^-23,
// where u_P is the unit roundoff of the inputs the tensor cores see (tf32 2^-11, bf16 2^-8,
// fp16 2^-11, 3xtf32 2^-21: the dropped small*small product and the rounding of small; cuBLAS
// FP32: 0) and K the length of the dot product the tensor cores sum (3d for 3xtf32). Why: the
// kernel computes the distance of the rounded points exactly up to the FP32 sums, |x~ - x| <=
// u |x| per point, so |d~^2 - d^2| <= (2u + u^2) S; the three FP32 dot products (two norms and
// x_i.x_j, each summed in at most K + 2 FP32 steps, one more for the combination) add at most
// (K + 4) 2^-23 S (2^-23 rather than 2^-24: the tensor cores' internal sums may truncate). That model of the
// tensor cores' accumulation (mma.sync on sm80, wgmma on sm90: neither's internal order and rounding is documented)
// is an assumption; the exact mode's guarantee rests on it, and bench_gram's checks against float64 (every kernel,
// precision and output, adversarial points included) are what vouch for it.
// The bound is relative to S, not to d^2: the Gram form loses every digit of d^2 for close
// points (d^2 << S); that is the price of running the distance as a GEMM, stated here and
// measured by bench_gram (column err_vs_f64 = max |d2_gpu - d2_exact| / S over the pairs checked).
// A sqrt output d satisfies |d_gpu - d| <= sqrt(c_P S) + 2^-23 d.
#pragma once
#include <results/gram_bound.hpp>  // c_P's terms per precision
#include <results/gram_names.hpp>  // the precisions' names (gram.csv's vocabulary)
#include <tdmaps/config.hpp>  // TD_HD

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace gram_cpu {

using i64 = std::int64_t;

// Deterministic points in [0, 1)^d (splitmix64), N x d row-major float.
inline std::vector<float> points(i64 N, int d, std::uint64_t seed) {
  std::vector<float> x(size_t(N) * size_t(d));
  std::uint64_t s = seed;
  for (auto& v : x) {
    s += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    v = float(double(z >> 40) / double(1ull << 24));  // 24-bit grid in [0, 1)
  }
  return x;
}

// |x_i - x_j|^2 in float64 (the differences of floats are exact in double here)
inline double d2_exact(const float* X, int d, i64 i, i64 j) {
  double s = 0;
  for (int k = 0; k < d; ++k) {
    const double t = double(X[i * d + k]) - double(X[j * d + k]);
    s += t * t;
  }
  return s;
}
inline double norm(const float* X, int d, i64 i) {
  double s = 0;
  for (int k = 0; k < d; ++k) s += double(X[i * d + k]) * double(X[i * d + k]);
  return std::sqrt(s);
}
// S = (|x_i| + |x_j|)^2, the scale of the bound
inline double scale(const float* X, int d, i64 i, i64 j) {
  const double a = norm(X, d, i) + norm(X, d, j);
  return a * a;
}

// c_P of the header: |d2_gpu - d2| <= c_P * S; NaN for a precision without one. Its terms (u_P, K) are declared once
// in results/gram_bound.hpp, which the Python package and experiments/layouts.py export.
inline double bound_coef(const std::string& prec, int d) { return gram::bound::coef(prec, d); }

// Condensed (pdist / SciPy) index of the pair a < b among N points: the one copy, for this oracle and every
// kernel (gram_kernels.cuh, gram_sm90.cuh, gram_sm90_evt.cu, gram_api.cu); test_gram proves it is SciPy's order.
TD_HD i64 condensed_index(i64 N, i64 a, i64 b) { return N * a - a * (a + 1) / 2 + (b - a - 1); }

// Uniform histogram of the distances of the pairs i > j in float64: counts[floor(d / w)] for
// d < buckets * w; `edge` counts the pairs within `tol` of a bucket edge (where a GPU result
// within the bound may land in the neighbouring bucket).
struct Hist {
  std::vector<std::uint64_t> counts;
  std::uint64_t edge = 0;
};
inline Hist histogram(const float* X, i64 N, int d, double w, int buckets, double tol_d) {
  Hist h;
  h.counts.assign(size_t(buckets), 0);
  for (i64 i = 1; i < N; ++i)
    for (i64 j = 0; j < i; ++j) {
      const double r = std::sqrt(d2_exact(X, d, i, j));
      const double q = r / w;
      const double b = std::floor(q);
      if (b < buckets) ++h.counts[size_t(b)];
      if ((q - b) * w < tol_d || (b + 1 - q) * w < tol_d) ++h.edge;
    }
  return h;
}

// The exact mode's references (gram_exact.hpp): the float64 distance d = sqrt(d2_exact) of the pairs
// i > j, bucketed by the edges alone (edges[b] <= d < edges[b+1], the last bucket closed: NumPy's
// rule), counted within eps (d <= eps, point i gets one for every j != i), and their least / largest.
inline std::vector<std::uint64_t> edge_histogram(const float* X, i64 N, int d, const std::vector<double>& edges) {
  const int bins = int(edges.size()) - 1;
  std::vector<std::uint64_t> h(size_t(bins > 0 ? bins : 0), 0);
  for (i64 i = 1; i < N; ++i)
    for (i64 j = 0; j < i; ++j) {
      const double r = std::sqrt(d2_exact(X, d, i, j));
      if (!(r >= edges.front() && r <= edges.back())) continue;
      const int b = int(std::upper_bound(edges.begin(), edges.end(), r) - edges.begin()) - 1;
      ++h[size_t(std::min(b, bins - 1))];
    }
  return h;
}
struct RadiusCounts {
  std::vector<std::uint64_t> per_point;
  std::uint64_t pairs = 0;
};
inline RadiusCounts radius_counts(const float* X, i64 N, int d, double eps) {
  RadiusCounts c;
  c.per_point.assign(size_t(N), 0);
  for (i64 i = 1; i < N; ++i)
    for (i64 j = 0; j < i; ++j)
      if (std::sqrt(d2_exact(X, d, i, j)) <= eps) {
        ++c.per_point[size_t(i)];
        ++c.per_point[size_t(j)];
        ++c.pairs;
      }
  return c;
}
inline void distance_range(const float* X, i64 N, int d, double& lo, double& hi) {
  lo = INFINITY;
  hi = 0;
  for (i64 i = 1; i < N; ++i)
    for (i64 j = 0; j < i; ++j) {
      const double r = std::sqrt(d2_exact(X, d, i, j));
      lo = std::min(lo, r);
      hi = std::max(hi, r);
    }
}
// The eps count's float64 reference (d^2 <= eps2, per point and in total) and, per point, the pairs
// whose d^2 lies within the precision's bound (coef S, gram_cpu's c_P) of eps2: a GPU count within the
// bound may differ from `want` there, and only there. bench_gram's check of the count output.
struct CountReference {
  std::vector<std::uint64_t> want, near;
  std::uint64_t want_total = 0, near_total = 0;
  // the GPU's counts (per point, total) are within the bound of this reference
  template <class V> bool admits(const V& got, std::uint64_t got_total, i64* bad_point) const {
    for (size_t i = 0; i < want.size(); ++i) {
      const std::uint64_t g = std::uint64_t(got[i]), w = want[i];
      if ((g > w ? g - w : w - g) > near[i]) {
        if (bad_point) *bad_point = i64(i);
        return false;
      }
    }
    if (bad_point) *bad_point = -1;
    return (got_total > want_total ? got_total - want_total : want_total - got_total) <= near_total;
  }
};
inline CountReference count_reference(const float* X, i64 N, int d, double eps2, double coef) {
  CountReference c;
  c.want.assign(size_t(N), 0);
  c.near.assign(size_t(N), 0);
  for (i64 i = 1; i < N; ++i)
    for (i64 j = 0; j < i; ++j) {
      const double e = d2_exact(X, d, i, j);
      if (e <= eps2) ++c.want[size_t(i)], ++c.want[size_t(j)], ++c.want_total;
      if (std::fabs(e - eps2) <= coef * scale(X, d, i, j) * 1.01 + std::ldexp(eps2, -22))
        ++c.near[size_t(i)], ++c.near[size_t(j)], ++c.near_total;
    }
  return c;
}

// x_i.x_j in float64
inline double dot_exact(const float* X, int d, i64 i, i64 j) {
  double s = 0;
  for (int k = 0; k < d; ++k) s += double(X[i * d + k]) * double(X[j * d + k]);
  return s;
}

// A GPU histogram H against the float64 one (counts h, `edge` pairs near a bucket edge): the pairs
// H counts, the pairs h holds, and the pairs in another bucket (the sum of |H - h|). Within the
// bound (ok): the same pair count, and at most the edge pairs moved, each out of one bucket and into
// its neighbour (2 edge). bench_gram's check and multi_hist --app gram's.
struct HistCompare {
  std::uint64_t got = 0, want = 0, moved = 0, edge = 0;
  bool ok() const { return got == want && moved <= 2 * edge; }
};
template <class V, class W> HistCompare compare(const V& H, const W& h, std::uint64_t edge) {
  HistCompare c;
  c.edge = edge;
  for (size_t b = 0; b < H.size() || b < h.size(); ++b) {
    const std::uint64_t x = b < H.size() ? std::uint64_t(H[b]) : 0, y = b < h.size() ? std::uint64_t(h[b]) : 0;
    c.got += x;
    c.want += y;
    c.moved += x > y ? x - y : y - x;
  }
  return c;
}

}  // namespace gram_cpu
