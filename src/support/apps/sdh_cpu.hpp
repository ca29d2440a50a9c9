// apps/sdh_cpu.hpp — Spatial Distance Histogram (SDH): the bucket rule shared
// by host and device, the inputs, and the CPU baselines that serve as oracle
// (seed report 004_aba88004bd1c502c.txt: all-pairs distance histogram of N
// points; CPU loop, then a GPU ladder).
//
// The bucket rule (host and device give identical bits):
//   dx = x_i - x_j, dy = y_i - y_j, dz = z_i - z_j            (fsub_rn)
//   s  = (dx*dx + dy*dy) + dz*dz                              (fmul_rn, fadd_rn, this order)
//   d  = sqrt(s)                                              (fsqrt_rn, correctly rounded)
//   q  = d / w                                                (fdiv_rn, correctly rounded)
//   k  = min(trunc(q), B - 1)
// Every operation is an IEEE-754 single-precision operation in round-to-nearest,
// so the host (plain float ops, -ffp-contract=off, SSE) and the device
// (__fsub_rn, __fmul_rn, __fadd_rn, __fsqrt_rn, __fdiv_rn) agree bit for bit.
// s does not depend on the order of the pair (x_i - x_j = -(x_j - x_i) exactly).
//
// Edges: bucket k holds k*w <= d < (k+1)*w, evaluated as above. A distance that
// is exactly on an edge, d == k*w (k*w representable), goes to bucket k: q = k
// exactly because the division is correctly rounded. The last bucket B-1 is
// open-ended: every distance >= (B-1)*w is counted there (clamp). With the default
// bucket count (default_buckets) no pair of points inside the box reaches the clamp.
//
// The device's fast kernel never evaluates sqrt or division per pair: it compares
// s with thresholds T_k = the smallest float s with bucket_unclamped(s) >= k
// (thresholds(), found by bisection over float bit patterns with the rule itself).
// bucket_unclamped is monotone in s, so  k(s) = #{k in 1..B-1 : s >= T_k}  is
// the same function, exactly; fast_bucket() below is its evaluation order.
#pragma once
#include <apps/parallel.hpp>
#include <registry/sdh_rule.hpp>
#include <tdmaps/config.hpp>
#include <tdmaps/numbers.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace tdmaps::sdh {

struct Point {
  float x, y, z;
};

// The classic SDH assignment (USF GPU course, "SDH.cu 10000 500": 10,000 points,
// bucket width 500) places the points uniformly in a cube of side BOX_SIZE = 23000
// and uses (int)(BOX_SIZE * 1.732 / w) + 1 buckets: 80 at w = 500. We keep both.
constexpr float default_box = 23000.0f;
constexpr float default_width = 500.0f;
constexpr u64 default_seed = 0x5d4c0ffee5d4ull;

// ---- the rule (host and device) ---------------------------------------------------
TD_HD float dist2(float ax, float ay, float az, float bx, float by, float bz) {
  const float dx = fsub_rn(ax, bx), dy = fsub_rn(ay, by), dz = fsub_rn(az, bz);
  return fadd_rn(fadd_rn(fmul_rn(dx, dx), fmul_rn(dy, dy)), fmul_rn(dz, dz));
}
TD_HD float dist2(const Point& a, const Point& b) { return dist2(a.x, a.y, a.z, b.x, b.y, b.z); }

// The fused rule (issue #26, the fast-fma rungs): the same differences, then
//   s = fma(dz, dz, fma(dy, dy, dx*dx))                       (fmul_rn, then two fmaf_rn)
// Three roundings instead of five, so s is at least as close to the exact squared distance
// of the float differences (relative error <= 3u, u = 2^-24, against 5u); the host's
// std::fma is correctly rounded, as the device's FFMA is, so both sides give identical bits.
// Every later step (sqrt, division, truncation, clamp; the thresholds T_k) is the pinned
// rule's: the thresholds are a property of s -> bucket, not of how s was computed. The
// two rules put a pair in different buckets only when s lies within a few ulp of an edge
// (counted in verify/test_sdh_cpu.cpp). 6 FP32 instructions per pair instead of 8.
TD_HD float dist2_fma(float ax, float ay, float az, float bx, float by, float bz) {
  const float dx = fsub_rn(ax, bx), dy = fsub_rn(ay, by), dz = fsub_rn(az, bz);
  return ffma_rn(dz, dz, ffma_rn(dy, dy, fmul_rn(dx, dx)));
}
TD_HD float dist2_fma(const Point& a, const Point& b) { return dist2_fma(a.x, a.y, a.z, b.x, b.y, b.z); }

// Which evaluation of s a histogram uses, Rule (pinned, fused, gram) and rule_name: registry/sdh_rule.hpp.
// The pinned or fused rule of a pair (the Gram rule needs the point set's frame: PairRule below).
TD_HD float dist2_by(Rule r, const Point& a, const Point& b) { return r == Rule::fused ? dist2_fma(a, b) : dist2(a, b); }

// The Gram rule (issue #26, the fast-gram rung): s from the Gram form of centred points,
//   c = p - o                                   (fsub_rn per coordinate; o = gram_centre of the set)
//   n = |c|^2                                   (rounded once to float from a double sum, on the host)
//   s = |fma(-2c_i.x, c_j.x, fma(-2c_i.y, c_j.y, fma(-2c_i.z, c_j.z, n_i + n_j)))|
// (fadd_rn, then three fmaf_rn; -2c is exact), then the pinned rule's sqrt, division, truncation
// and clamp, i.e. its thresholds T_k. 4 FP32 instructions per pair instead of 6 (fused) or 8
// (pinned). The host computes c and n once (GramPoint) for both its own loop and the device, so
// host and device agree bit for bit; s does not depend on the order of the pair (n_i + n_j
// commutes; the products -2c_i c_j are the same exact values). The absolute value: s may round
// below 0 for (nearly) coinciding points; |s| is at least as close to the true squared distance.
// The rule depends on the point set through o (and only through it): a histogram of the Gram
// rule is that of one whole set. Its s is a less accurate squared distance than the pinned
// rule's (the rounding errors scale with |c|^2, not with s; verify/test_sdh_cpu.cpp, test
// gram_rule, counts the pairs that land in another bucket than the exact distance's).
struct GramPoint {
  float x, y, z, n;  // c = p - o, n = |c|^2
};
TD_HD float gram_s(float ax, float ay, float az, float an, float bx, float by, float bz, float bn) {
  // a = -2 c_i (exact), an = n_i; b = c_j, bn = n_j; the sign is kept (callers take |s|)
  return ffma_rn(ax, bx, ffma_rn(ay, by, ffma_rn(az, bz, fadd_rn(an, bn))));
}
TD_HD float dist2_gram(const GramPoint& a, const GramPoint& b) {
  return fabsf(gram_s(-2.0f * a.x, -2.0f * a.y, -2.0f * a.z, a.n, b.x, b.y, b.z, b.n));
}
// The centre o of a point set: the middle of its bounding box, rounded to float. Every coordinate
// c = p - o is then exact where p lies in [o/2, 2o] (Sterbenz) and rounded once elsewhere; the
// oracle and the device use the same c, so this rounding is part of the rule.
inline Point gram_centre(const Point* p, i64 N) {
  if (N <= 0) return Point{0, 0, 0};
  Point lo = p[0], hi = p[0];
  for (i64 i = 1; i < N; ++i) {
    lo.x = std::min(lo.x, p[i].x); lo.y = std::min(lo.y, p[i].y); lo.z = std::min(lo.z, p[i].z);
    hi.x = std::max(hi.x, p[i].x); hi.y = std::max(hi.y, p[i].y); hi.z = std::max(hi.z, p[i].z);
  }
  return Point{static_cast<float>(0.5 * (double(lo.x) + double(hi.x))), static_cast<float>(0.5 * (double(lo.y) + double(hi.y))),
               static_cast<float>(0.5 * (double(lo.z) + double(hi.z)))};
}
inline GramPoint gram_point(const Point& p, const Point& o) {
  const float cx = fsub_rn(p.x, o.x), cy = fsub_rn(p.y, o.y), cz = fsub_rn(p.z, o.z);
  const double n = double(cx) * double(cx) + double(cy) * double(cy) + double(cz) * double(cz);
  return GramPoint{cx, cy, cz, static_cast<float>(n)};
}
inline std::vector<GramPoint> gram_points(const Point* p, i64 N) {
  const Point o = gram_centre(p, N);
  std::vector<GramPoint> g(size_t(N > 0 ? N : 0));
  for (i64 i = 0; i < N; ++i) g[size_t(i)] = gram_point(p[i], o);
  return g;
}

// s of pair (i, j) of one point set by any rule (the Gram rule's frame taken from the whole set).
class PairRule {
 public:
  PairRule(Rule r, const Point* p, i64 N) : rule_(r), p_(p) {
    if (r == Rule::gram) g_ = gram_points(p, N);
  }
  float s(i64 i, i64 j) const {
    if (rule_ == Rule::gram) return dist2_gram(g_[size_t(i)], g_[size_t(j)]);
    return dist2_by(rule_, p_[i], p_[j]);
  }
  Rule rule() const { return rule_; }
  const std::vector<GramPoint>& gram() const { return g_; }

 private:
  Rule rule_;
  const Point* p_;
  std::vector<GramPoint> g_;
};

// Truncation of 0 <= q < 2^31 to an integer (cvt.rzi.u32 on the device).
TD_HD u32 trunc_u32(float q) {
#if defined(__CUDA_ARCH__)
  return __float2uint_rz(q);
#else
  return static_cast<u32>(q);
#endif
}

constexpr u32 bucket_saturation = 1u << 30;

// Bucket of squared distance s with no upper clamp; saturates at 2^30 (also for inf).
TD_HD u32 bucket_unclamped(float s, float w) {
  const float q = fdiv_rn(fsqrt_rn(s), w);
  if (!(q < 1073741824.0f)) return bucket_saturation;
  return trunc_u32(q);
}
// The rule: bucket of squared distance s among B buckets of width w.
TD_HD u32 bucket(float s, float w, u32 B) {
  const u32 k = bucket_unclamped(s, w);
  return k < B ? k : B - 1;
}

// ---- the threshold form used by the fast GPU kernel ------------------------------
// Estimate: y ~ sqrt(s) (the device's sqrt.approx.ftz.f32, whose relative error is
// a few ulp; the argument below tolerates up to 2^-13), c = (1 - 2^-11) / w rounded
// to float. est_bits returns the bits of the float rd(y*c + 1.5*2^23) =
// 0x4B400000 + floor(y*c) for y*c < 2^22 (one FFMA.RM on the device; the host
// computes the exact product in double, which is the same value). For y*c >= 2^22
// both give a value above 0x4B400000 + 2^22 - 1 (only ever used under the clamp,
// which then selects B - 1).
// With q = d / w (the rule's quotient: two roundings, relative error <= 2^-23) and
// |sqrt.approx error| <= e:
//   y*c / q <= (1 - 2^-11)(1 + e)(1 + 2^-24) / (1 - 2^-24)^2 < 1 for e < 2^-11.1,
//     so k0 = floor(y*c) <= k (the true bucket, unclamped);
//   y*c / q >= 1 - 2^-11 - e - 2^-22, so y*c > q - 1 while q (2^-11 + e + 2^-22) < 1,
//     which holds for q < 1500 and e <= 2^-13: then k0 >= k - 1.
// Hence k = k0 + [s >= T_{k0+1}] for every bucket below B <= 1500. Clamped (true
// bucket >= B - 1): k0 >= B - 2 by the same bound, so the comparison with T_{B-1}
// (or T_B = +inf) again gives B - 1.
constexpr u32 est_magic_bits = 0x4B400000u;  // bits of 12582912.0f = 1.5 * 2^23
constexpr double est_margin = 1.0 / 2048.0;  // 2^-11
constexpr u32 fast_max_buckets = 1500;       // the estimate is proven for B <= 1500

inline float fast_scale(float w) { return static_cast<float>((1.0 - est_margin) / static_cast<double>(w)); }

TD_HD u32 est_bits(float y, float c) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(__fmaf_rd(y, c, 12582912.0f));
#else
  const double p = static_cast<double>(y) * static_cast<double>(c);  // exact: 24 x 24 bits
  if (!(p < 4194304.0)) return est_magic_bits + (1u << 22);
  return est_magic_bits + static_cast<u32>(p);
#endif
}

// Reference evaluation of the threshold form (thr as built by thresholds()) for a
// finite s; the GPU kernel runs the same steps on a shared-memory copy of thr (the
// host refuses point sets whose squared distances could overflow).
TD_HD u32 fast_bucket(float s, float y, float c, const float* thr, u32 B) {
  u32 b = est_bits(y, c);
  const u32 lim = est_magic_bits + (B - 1);
  b = b < lim ? b : lim;
  const u32 k0 = b - est_magic_bits;
  return k0 + (s >= thr[k0 + 1] ? 1u : 0u);
}

inline float bits_float(u32 b) { float f; std::memcpy(&f, &b, 4); return f; }
inline u32 float_bits(float f) { u32 b; std::memcpy(&b, &f, 4); return b; }

// ---- the bracket: a two-sided estimate (the fast-gram2 rung, issue #26) ---------------------
// The rung decides a pair with no threshold load: y = sqrt.approx.ftz(s) and two FFMA.RM give
//   k_lo = floor(y * c_lo),  k_hi = floor(y * c_hi)        (est_bits: the bits M + k)
// with c_lo * w <= 1 - 3u - 2^-40 and c_hi * w >= 1 + 4u + 2^-40 (u = 2^-24, bracket_scales). For every
// float s >= 0, with K = trunc(fdiv_rn(fsqrt_rn(s), w)) (the rule before its clamp), the lemma
//   k_lo <= K <= k_hi,   and k_hi <= k_lo + 1 while y c_hi < 2^20,
// so where k_lo == k_hi the rule's bucket is min(k_hi, B - 1), and otherwise it is the threshold
// form's k_lo + [s >= T_{k_lo+1}] (fast_bucket with c = c_lo). Proof. e = 2^-23 bounds the relative
// error of sqrt.approx.f32 over the positive finite range (PTX ISA 9.1, section 9.7.3.15, "sqrt";
// gpu_verify_sdh checks every positive normal float on the device). s = 0 or subnormal: ftz gives
// y = 0, k_lo = k_hi = 0, and K = 0 since sqrt(s) < 1.1e-19 < w (validate: w >= 1e-18). s normal:
// d = RN(sqrt s) has |d - sqrt s| <= u d, q = RN(d / w), Q = sqrt(s) / w.
//   K <= k_hi: if K >= 1, q >= K (an integer, a float), so d / w >= K (1 - u) (a real x rounds to
//     K or above only from at least the midpoint below K, >= K (1 - u)); sqrt s >= d (1 - u), so
//     Q >= K (1 - u)^2, and y c_hi >= Q (1 - e)(1 + 4u + 2^-40) >= K (1 - u)^2 (1 - 2u)(1 + 4u + 2^-40)
//     = K (1 - 11u^2 + 2^-40 (1 - 4u) + O(u^3)) > K  (2^-40 = 256 u^2).
//   k_lo <= K: q < K + 1, so d / w < K + 1 (rounding is monotone and K + 1 is a float);
//     sqrt s <= d (1 + u), so Q < (K + 1)(1 + u), and y c_lo <= Q (1 + e)(1 - 3u - 2^-40)
//     < (K + 1)(1 + u)(1 + 2u)(1 - 3u - 2^-40) = (K + 1)(1 - 7u^2 - ...) < K + 1.
//   k_hi - k_lo <= 1: y (c_hi - c_lo) <= y c_hi * 2^-20 (the scales' ratio) < 1 for y c_hi < 2^20.
// The FFMA.RM adds M = 1.5 * 2^23 to the exact product and rounds down, so its bits are M + k
// exactly for y c < 2^22, and at least M + 2^22 above (equal bits there: K >= 2^22 > B - 1).
// The bracket is 7u to 11u wide (relative; the scales' own rounding adds up to 4u), so about
// 9u q of the pairs of quotient q are ambiguous (about 1.6 in 10^5 at q = 30): those are replayed.
constexpr double sqrt_approx_rel_err = 0x1p-23;  // PTX ISA: sqrt.approx.f32, the whole positive range
constexpr double bracket_lo = 1.0 - 3 * 0x1p-24 - 0x1p-40;  // c_lo * w <= 1 - 3u - 2^-40
constexpr double bracket_hi = 1.0 + 4 * 0x1p-24 + 0x1p-40;  // c_hi * w >= 1 + 4u + 2^-40
struct BracketScales {
  float lo, hi;
};
// The largest float c_lo with c_lo * w <= bracket_lo and the smallest c_hi with c_hi * w >=
// bracket_hi (float x float products are exact in double, and both bounds are doubles).
inline BracketScales bracket_scales(float w) {
  const double wd = static_cast<double>(w);
  float lo = static_cast<float>(bracket_lo / wd), hi = static_cast<float>(bracket_hi / wd);
  while (double(lo) * wd > bracket_lo) lo = std::nextafter(lo, 0.0f);
  while (double(std::nextafter(lo, INFINITY)) * wd <= bracket_lo) lo = std::nextafter(lo, INFINITY);
  while (double(hi) * wd < bracket_hi) hi = std::nextafter(hi, INFINITY);
  while (double(std::nextafter(hi, 0.0f)) * wd >= bracket_hi) hi = std::nextafter(hi, 0.0f);
  return BracketScales{lo, hi};
}
// The rung's decision for one pair, as the device takes it (its software model; y is whatever
// sqrt.approx returned): one bucket when the bracket's ends agree, else the exact replay.
TD_HD u32 bracket_bucket(float s, float y, BracketScales c, const float* thr, u32 B) {
  const u32 lo = est_bits(y, c.lo), hi = est_bits(y, c.hi);
  if (lo == hi) {
    const u32 k = hi - est_magic_bits;
    return k < B ? k : B - 1;
  }
  return fast_bucket(s, y, c.lo, thr, B);
}
// An upper bound on every Gram-rule s of a set whose largest norm n (GramPoint::n) is nmax:
// |s| <= (n_i + n_j + 2 |c_i| |c_j|)(1 + u)^4 (four roundings; Cauchy-Schwarz), |c|^2 <= n (1 + 2u)
// (n rounded once from a double sum), so |s| <= 4 nmax (1 + u)^6 < 4 nmax (1 + 2^-20).
inline double gram_s_bound(double nmax) { return 4.0 * nmax * (1.0 + 0x1p-20); }
// The largest k_hi any pair of such a set can reach: floor(sqrt(bound) (1 + e) c_hi), rounded up
// in double (a generous 2^-40). The rung's table then needs k_hi_max + 1 rows without a clamp.
inline double bracket_k_hi_max(double nmax, BracketScales c) {
  return std::floor(std::sqrt(gram_s_bound(nmax)) * (1.0 + sqrt_approx_rel_err) * double(c.hi) * (1.0 + 0x1p-40));
}

// thr[0..B]: thr[0] = 0 (unused), thr[k] = smallest float s >= 0 with
// bucket_unclamped(s, w) >= k for 1 <= k < B, thr[B] = +inf (the clamp: no
// estimate ever steps past B - 1). Bisection over the bit patterns of the
// non-negative floats, which are ordered like the values; the rule is monotone.
inline std::vector<float> thresholds(float w, u32 B) {
  std::vector<float> thr(size_t(B) + 1, 0.0f);
  const u32 inf_bits = 0x7f800000u;
  for (u32 k = 1; k < B; ++k) {
    u32 lo = 0, hi = inf_bits;  // bucket_unclamped(inf) saturates, so hi satisfies
    if (k >= bucket_saturation) { thr[k] = std::numeric_limits<float>::infinity(); continue; }
    while (lo < hi) {
      const u32 mid = lo + (hi - lo) / 2;
      if (bucket_unclamped(bits_float(mid), w) >= k) hi = mid; else lo = mid + 1;
    }
    thr[k] = bits_float(lo);
  }
  thr[B] = std::numeric_limits<float>::infinity();
  return thr;
}

// ---- inputs -------------------------------------------------------------------------
inline u64 splitmix64(u64& state) {
  u64 z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// N points uniform in [0, box]^3: each coordinate is (24 random bits) * (box / 2^24),
// one float multiplication (box / 2^24 is exact). Point i depends only on (seed, i)
// through a sequential stream, so the first M points of a set of N are the set of M.
inline std::vector<Point> uniform_points(i64 N, float box = default_box, u64 seed = default_seed) {
  std::vector<Point> p(size_t(N > 0 ? N : 0));
  u64 st = seed;
  const float scale = box * (1.0f / 16777216.0f);
  auto coord = [&] { return static_cast<float>(splitmix64(st) >> 40) * scale; };
  for (auto& q : p) {
    q.x = coord();
    q.y = coord();
    q.z = coord();
  }
  return p;
}
// A cubic lattice of side m (m^3 points) with spacing h: every squared distance is
// h^2 * integer, exact in float while it stays below 2^24, so many pairs sit exactly
// on bucket edges (e.g. h = 100, w = 500: (300, 400, 0) is at distance 500).
inline std::vector<Point> lattice_points(int m, float h) {
  std::vector<Point> p;
  p.reserve(size_t(m) * m * m);
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b)
      for (int c = 0; c < m; ++c) p.push_back(Point{h * float(a), h * float(b), h * float(c)});
  return p;
}

// Squared distance bound: every pair's s is <= this (rounded ops are monotone, and
// |x_i - x_j| <= max x - min x holds after rounding too).
inline float max_dist2(const Point* p, i64 N) {
  if (N <= 0) return 0.0f;
  Point lo = p[0], hi = p[0];
  for (i64 i = 1; i < N; ++i) {
    lo.x = std::min(lo.x, p[i].x); lo.y = std::min(lo.y, p[i].y); lo.z = std::min(lo.z, p[i].z);
    hi.x = std::max(hi.x, p[i].x); hi.y = std::max(hi.y, p[i].y); hi.z = std::max(hi.z, p[i].z);
  }
  return dist2(hi, lo);
}

// Buckets that cover every distance inside a cube of side `box` without clamping:
// the bucket of the cube's diagonal, plus one. (80 for box 23000, w 500, as the
// classic assignment's (int)(23000 * 1.732 / 500) + 1.)
inline u32 default_buckets(float box, float w) {
  const u32 k = bucket_unclamped(dist2(box, box, box, 0.0f, 0.0f, 0.0f), w);
  return k >= bucket_saturation ? bucket_saturation : k + 1;
}

// One line naming what is wrong with (N, w, B), or "" if acceptable. The bucket
// width must be a finite float in [1e-18, 1e30] so that the fast kernel's estimate
// stays in the normal range (the rule itself needs only w > 0).
inline std::string validate(i64 N, double w, i64 B) {
  if (N < 2) return "N must be >= 2 (got " + std::to_string(N) + ")";
  if (N > i64(0x7fffffff)) return "N must be < 2^31 (got " + std::to_string(N) + ")";
  if (!(w > 0.0) || !std::isfinite(w)) return "bucket width must be a positive finite number (got " + std::to_string(w) + ")";
  if (w < 1e-18 || w > 1e30) return "bucket width must be in [1e-18, 1e30] (got " + std::to_string(w) + ")";
  if (B < 1) return "buckets must be >= 1 (got " + std::to_string(B) + ")";
  if (B > i64(1) << 24) return "buckets must be <= 2^24 (got " + std::to_string(B) + ")";
  return "";
}

// ---- CPU baselines (the oracle) ----------------------------------------------------
// The report's single-threaded loop: every pair i < j, one bucket each.
inline void cpu_st(const Point* p, i64 N, float w, u32 B, u64* hist, Rule rule = Rule::pinned) {
  std::fill(hist, hist + B, u64(0));
  if (rule == Rule::gram) {
    const std::vector<GramPoint> g = gram_points(p, N);
    for (i64 i = 0; i < N; ++i)
      for (i64 j = i + 1; j < N; ++j) ++hist[bucket(dist2_gram(g[size_t(i)], g[size_t(j)]), w, B)];
    return;
  }
  for (i64 i = 0; i < N; ++i) {
    const Point a = p[i];
    if (rule == Rule::fused)
      for (i64 j = i + 1; j < N; ++j) ++hist[bucket(dist2_fma(a, p[j]), w, B)];
    else
      for (i64 j = i + 1; j < N; ++j) ++hist[bucket(dist2(a, p[j]), w, B)];
  }
}

inline unsigned cpu_threads() { return bench::host_workers(1024); }

// The same loop on `threads` threads (0 = all cores): rows handed out in chunks of
// 16 from a shared counter (row i has N-1-i pairs; bench::parallel_chunks), a private
// 64-bit histogram per thread, summed at the end.
inline void cpu_mt(const Point* p, i64 N, float w, u32 B, u64* hist, unsigned threads = 0, Rule rule = Rule::pinned) {
  if (threads == 0) threads = cpu_threads();
  std::vector<std::vector<u64>> part(threads, std::vector<u64>(B, 0));
  const std::vector<GramPoint> g = rule == Rule::gram ? gram_points(p, N) : std::vector<GramPoint>();
  bench::parallel_chunks(
      u64(N), 16,
      [&](unsigned t, u64 b, u64 e) {
        u64* h = part[t].data();
        for (i64 i = i64(b); i < i64(e); ++i) {
          const Point a = p[i];
          if (rule == Rule::gram)
            for (i64 j = i + 1; j < N; ++j) ++h[bucket(dist2_gram(g[size_t(i)], g[size_t(j)]), w, B)];
          else if (rule == Rule::fused)
            for (i64 j = i + 1; j < N; ++j) ++h[bucket(dist2_fma(a, p[j]), w, B)];
          else
            for (i64 j = i + 1; j < N; ++j) ++h[bucket(dist2(a, p[j]), w, B)];
        }
      },
      threads);
  std::fill(hist, hist + B, u64(0));
  for (const auto& h : part)
    for (u32 k = 0; k < B; ++k) hist[k] += h[k];
}

// N(N-1)/2 without overflow for N < 2^32.
inline u64 pair_count(i64 N) { return N < 2 ? 0 : tri(u64(N - 1)); }

inline u64 hist_sum(const std::vector<u64>& h) {
  u64 s = 0;
  for (u64 v : h) s += v;
  return s;
}

}  // namespace tdmaps::sdh
