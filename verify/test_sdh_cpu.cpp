// SDH on the CPU (apps/sdh_cpu.hpp): the bucket rule and its edges, the
// threshold form that the fast GPU kernel evaluates (exactly the rule), the
// estimate-and-correct step under a worst-case approximate square root, and the
// single- against the multi-threaded baseline.
#define BOOST_TEST_MODULE sdh_cpu
#include <boost/test/unit_test.hpp>

#include "oracle.hpp"

#include <apps/sdh_cpu.hpp>

#include <cmath>
#include <random>

using namespace tdmaps;
using namespace tdmaps::sdh;

namespace {
float next_up(float f) { return bits_float(float_bits(f) + 1); }
float next_down(float f) { return bits_float(float_bits(f) - 1); }

// The fast kernel's steps, with the device's sqrt.approx replaced by sqrt(s) scaled by
// (1 + rel), |rel| up to 2^-13 (the bound of the proof in sdh_cpu.hpp; the hardware's
// approximate square root is within a few ulp, ~2^-22).
u32 fast_with_error(float s, double rel, float c, const std::vector<float>& thr, u32 B) {
  const float y = static_cast<float>(std::sqrt(double(s)) * (1.0 + rel));
  return fast_bucket(s, y, c, thr.data(), B);
}
}  // namespace

BOOST_AUTO_TEST_CASE(rule_basics) {
  BOOST_TEST(default_buckets(23000.0f, 500.0f) == 80u);  // (int)(23000 * 1.732 / 500) + 1
  BOOST_TEST(default_buckets(10000.0f, 500.0f) == 35u);
  BOOST_TEST(pair_count(2) == 1u);
  BOOST_TEST(pair_count(1000000) == 499999500000ull);
  // the squared distance does not depend on the order of the pair
  std::mt19937 g(7);
  std::uniform_real_distribution<float> u(0.0f, 23000.0f);
  for (int t = 0; t < 100000; ++t) {
    const Point a{u(g), u(g), u(g)}, b{u(g), u(g), u(g)};
    BOOST_TEST_REQUIRE(float_bits(dist2(a, b)) == float_bits(dist2(b, a)));
  }
  BOOST_TEST(dist2(Point{0, 0, 0}, Point{0, 0, 0}) == 0.0f);
  BOOST_TEST(bucket(0.0f, 500.0f, 80) == 0u);
}

BOOST_AUTO_TEST_CASE(edges_go_to_the_upper_bucket) {
  // exact distances: (300, 400, 0) -> 500; (0, 0, 1000); (200, 300, 600) -> 700
  BOOST_TEST(bucket(dist2(Point{0, 0, 0}, Point{300, 400, 0}), 500.0f, 80) == 1u);
  BOOST_TEST(bucket(dist2(Point{0, 0, 0}, Point{0, 0, 1000}), 500.0f, 80) == 2u);
  BOOST_TEST(bucket(dist2(Point{0, 0, 0}, Point{200, 300, 600}), 100.0f, 80) == 7u);
  BOOST_TEST(bucket(dist2(Point{0, 0, 0}, Point{200, 300, 600}), 700.0f, 80) == 1u);
  // every edge k*w with k*w and (k*w)^2 exact: at the edge -> k. (One float below
  // (k w)^2 may still be bucket k: sqrt rounds it back up to k w. Where the rule
  // steps is exactly the threshold T_k, tested below.)
  for (float w : {500.0f, 100.0f, 0.5f, 0.25f, 3.0f, 1.0f, 7.0f}) {
    for (u32 k = 1; k < 200; ++k) {
      const float d = float(k) * w;
      const float s = d * d;
      if (double(s) != double(d) * double(d)) continue;  // (k w)^2 not exact in float
      BOOST_TEST_REQUIRE(bucket(s, w, 1000) == k, "w=" << w << " k=" << k);
      const std::vector<float> thr = thresholds(w, k + 1);
      BOOST_TEST_REQUIRE(thr[k] <= s);
      BOOST_TEST_REQUIRE(bucket(next_down(thr[k]), w, 1000) == k - 1, "w=" << w << " k=" << k);
    }
  }
  // clamp: everything at or beyond (B-1)*w goes to B-1
  BOOST_TEST(bucket(dist2(Point{0, 0, 0}, Point{0, 0, 1e6f}), 500.0f, 80) == 79u);
  BOOST_TEST(bucket(dist2(Point{0, 0, 0}, Point{0, 0, 1500}), 500.0f, 3) == 2u);
  BOOST_TEST(bucket(dist2(Point{0, 0, 0}, Point{0, 0, 1499}), 500.0f, 3) == 2u);
  BOOST_TEST(bucket(dist2(Point{0, 0, 0}, Point{0, 0, 999}), 500.0f, 3) == 1u);
  BOOST_TEST(bucket(std::numeric_limits<float>::infinity(), 500.0f, 80) == 79u);
  // no pair inside the default box reaches the clamp
  const float box = 23000.0f;
  const float d2 = dist2(Point{box, box, box}, Point{0, 0, 0});
  BOOST_TEST(bucket_unclamped(d2, 500.0f) == 79u);
}

BOOST_AUTO_TEST_CASE(thresholds_are_the_rule) {
  std::mt19937 g(11);
  for (float w : {500.0f, 123.456f, 1.0f, 0.1f, 3.0f, 7777.7f, 1e-3f}) {
    for (u32 B : {1u, 2u, 20u, 80u, 400u, 4000u}) {
      const std::vector<float> thr = thresholds(w, B);
      BOOST_TEST_REQUIRE(thr.size() == size_t(B) + 1);
      BOOST_TEST_REQUIRE(std::isinf(thr[B]));
      for (u32 k = 1; k < B; ++k) {
        BOOST_TEST_REQUIRE(thr[k] > (k > 1 ? thr[k - 1] : 0.0f));
        // T_k is the first float at which the rule reaches k
        BOOST_TEST_REQUIRE(bucket_unclamped(thr[k], w) >= k);
        BOOST_TEST_REQUIRE(bucket_unclamped(next_down(thr[k]), w) < k);
      }
      // count form == rule around every threshold and at random points
      auto count_form = [&](float s) {
        u32 k = 0;
        while (k + 1 < B && s >= thr[k + 1]) ++k;
        return k;
      };
      const u32 step = B > 500 ? 37 : 1;
      for (u32 k = 1; k < B; k += step) {
        float s = thr[k];
        for (int t = 0; t < 64; ++t) s = next_down(s);
        for (int t = 0; t < 128; ++t, s = next_up(s))
          BOOST_TEST_REQUIRE(count_form(s) == bucket(s, w, B), "w=" << w << " B=" << B << " s=" << s);
      }
      const double smax = double(w) * double(B + 2) * double(w) * double(B + 2);
      std::uniform_real_distribution<double> u(0.0, std::sqrt(smax));
      for (int t = 0; t < 2000; ++t) {
        const double d = u(g);
        const float s = float(d * d);
        BOOST_TEST_REQUIRE(count_form(s) == bucket(s, w, B));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(estimate_and_correct) {
  // The fast kernel's single comparison is exact when the estimate errs by a relative
  // 2^-13 either way, at and around every threshold, clamped or not.
  std::mt19937 g(5);
  const double rels[] = {0.0, 0x1p-13, -0x1p-13, 0x1p-22, -0x1p-22};
  for (float w : {500.0f, 123.456f, 1.0f, 3.0f, 0.1f}) {
    const float c = fast_scale(w);
    for (u32 B : {1u, 3u, 20u, 80u, 1000u, fast_max_buckets}) {
      const std::vector<float> thr = thresholds(w, B);
      const u32 step = B > 200 ? 7 : 1;
      for (u32 k = 1; k <= B; k += step) {
        const float edge = k < B ? thr[k] : float(double(w) * w * double(B) * B * 4.0);  // beyond: clamped region
        float s = edge;
        for (int t = 0; t < 8; ++t) s = next_down(s);
        for (int t = 0; t < 16; ++t, s = next_up(s))
          for (double rel : rels)
            BOOST_TEST_REQUIRE(fast_with_error(s, rel, c, thr, B) == bucket(s, w, B),
                               "w=" << w << " B=" << B << " k=" << k << " s=" << s << " rel=" << rel);
      }
      std::uniform_real_distribution<double> u(0.0, double(w) * (B + 3));
      for (int t = 0; t < 3000; ++t) {
        const double d = u(g);
        const float s = float(d * d);
        const double rel = std::ldexp(std::uniform_real_distribution<double>(-1.0, 1.0)(g), -13);
        BOOST_TEST_REQUIRE(fast_with_error(s, rel, c, thr, B) == bucket(s, w, B));
      }
      // far beyond the last bucket (clamp): the host estimate saturates like the device's
      for (float s : {1e20f, 3e38f, std::numeric_limits<float>::max()})
        BOOST_TEST_REQUIRE(fast_with_error(s, 0.0, c, thr, B) == B - 1);
    }
  }
  // s = 0 and tiny s
  const std::vector<float> thr = thresholds(500.0f, 80);
  BOOST_TEST(fast_bucket(0.0f, 0.0f, fast_scale(500.0f), thr.data(), 80) == 0u);
  BOOST_TEST(fast_bucket(1e-40f, 0.0f, fast_scale(500.0f), thr.data(), 80) == 0u);
}

BOOST_AUTO_TEST_CASE(single_equals_multi_threaded) {
  const auto pts = uniform_points(2600);
  // prefix property of the generator
  const auto small = uniform_points(100);
  for (size_t i = 0; i < small.size(); ++i)
    BOOST_TEST_REQUIRE((small[i].x == pts[i].x && small[i].y == pts[i].y && small[i].z == pts[i].z));
  for (const auto& p : pts) {
    BOOST_TEST_REQUIRE((p.x >= 0.0f && p.x <= default_box && p.y >= 0.0f && p.y <= default_box && p.z >= 0.0f &&
                        p.z <= default_box));
  }
  struct Cfg { i64 N; float w; u32 B; };
  const Cfg cfgs[] = {{2, 500, 80}, {3, 500, 80}, {17, 500, 80}, {1000, 500, 80}, {2600, 500, 80},
                      {2600, 500, 20}, {2600, 123.456f, default_buckets(default_box, 123.456f)}, {1000, 500, 1}};
  for (const Cfg& c : cfgs) {
    std::vector<u64> st(c.B), mt(c.B);
    cpu_st(pts.data(), c.N, c.w, c.B, st.data());
    BOOST_TEST_REQUIRE(hist_sum(st) == pair_count(c.N));
    for (unsigned th : {1u, 2u, 3u, 7u}) {
      cpu_mt(pts.data(), c.N, c.w, c.B, mt.data(), th);
      BOOST_TEST_REQUIRE(mt == st, "N=" << c.N << " w=" << c.w << " B=" << c.B << " threads=" << th);
    }
  }
}

// The fused rule (fast-fma rungs): s = fma(dz, dz, fma(dy, dy, dx*dx)) on the same float
// differences. Checked: (1) its error against the exact squared norm of the differences is within
// 3 roundings (u = 2^-24; the pinned rule's within 5), pair by pair; (2) the threshold form gives
// the rule's bucket for fused s too (the thresholds belong to s -> bucket, not to how s is computed);
// (3) single- and multi-threaded fused histograms agree; (4) the two rules differ only for pairs
// whose s lies within the rules' combined error of an edge, and that count is printed.
BOOST_AUTO_TEST_CASE(fused_rule) {
  const auto pts = uniform_points(2000);
  const float w = 500.0f;
  const u32 B = default_buckets(default_box, w);
  const auto thr = thresholds(w, B);
  const float c = fast_scale(w);
  const double u = std::ldexp(1.0, -24);
  u64 differ = 0, near_edge = 0, pairs = 0;
  for (size_t i = 0; i < pts.size(); ++i)
    for (size_t j = i + 1; j < pts.size(); ++j) {
      const Point a = pts[i], b = pts[j];
      const double dx = double(a.x - b.x), dy = double(a.y - b.y), dz = double(a.z - b.z);  // exact float differences
      const double ex = dx * dx + dy * dy + dz * dz;  // rounding 2^-53: far below the bounds tested
      const float sf = dist2_fma(a, b), sp = dist2(a, b);
      BOOST_TEST_REQUIRE(std::fabs(double(sf) - ex) <= 3.0001 * u * ex);
      BOOST_TEST_REQUIRE(std::fabs(double(sp) - ex) <= 5.0001 * u * ex);
      const u32 kf = bucket(sf, w, B);
      BOOST_TEST_REQUIRE(fast_bucket(sf, float(std::sqrt(double(sf))), c, thr.data(), B) == kf);
      ++pairs;
      if (kf != bucket(sp, w, B)) {
        ++differ;
        // a difference needs an edge T_k between the two values of s
        const float lo = std::min(sf, sp), hi = std::max(sf, sp);
        bool edge = false;
        for (u32 k = 1; k < B; ++k) edge = edge || (lo < thr[k] && thr[k] <= hi);
        BOOST_TEST_REQUIRE(edge);
        ++near_edge;
      }
    }
  BOOST_TEST_MESSAGE("fused vs pinned rule: " << differ << " of " << pairs << " pairs in another bucket");
  BOOST_TEST(differ <= pairs / 100000);  // within a few ulp of an edge only: rare
  std::vector<u64> st(B), mt(B);
  cpu_st(pts.data(), i64(pts.size()), w, B, st.data(), Rule::fused);
  BOOST_TEST(hist_sum(st) == pair_count(i64(pts.size())));
  for (unsigned th : {1u, 3u}) {
    cpu_mt(pts.data(), i64(pts.size()), w, B, mt.data(), th, Rule::fused);
    BOOST_TEST(mt == st);
  }
  (void)near_edge;
}

// The Gram rule (fast-gram): s = |fma(-2c_i.x, c_j.x, fma(-2c_i.y, c_j.y, fma(-2c_i.z, c_j.z, n_i + n_j)))|
// on points centred on their bounding box's middle. Checked: (1) the centre and the Gram points
// (c = p - o, n = |c|^2) as defined; (2) s is symmetric in the pair; (3) pair by pair, |s - exact|
// <= u (17 Pc + 4.1 sqrt(exact Pc)) (u = 2^-24, Pc = max |c|^2: the centring's rounding, n's, the
// FADD's and the three FMAs'; the exact squared distance of the original float points in double);
// (4) the threshold form gives the rule's bucket for Gram s too; (5) single- and multi-threaded Gram
// histograms agree, and PairRule gives the same s; (6) how many pairs land in another bucket than
// the exact distance's, against the pinned and fused rules' counts (printed; bounded here, measured
// at the benchmark's sizes by experiments/sdh/gram_accuracy).
BOOST_AUTO_TEST_CASE(gram_rule) {
  const auto pts = uniform_points(2000);
  const i64 N = i64(pts.size());
  const float w = 500.0f;
  const u32 B = default_buckets(default_box, w);
  const auto thr = thresholds(w, B);
  const float c = fast_scale(w);
  const double u = std::ldexp(1.0, -24);
  const Point o = gram_centre(pts.data(), N);
  const auto g = gram_points(pts.data(), N);
  double Pc = 0;
  for (i64 i = 0; i < N; ++i) {
    const GramPoint q = g[size_t(i)];
    BOOST_TEST_REQUIRE(float_bits(q.x) == float_bits(pts[size_t(i)].x - o.x));
    BOOST_TEST_REQUIRE(float_bits(q.z) == float_bits(pts[size_t(i)].z - o.z));
    BOOST_TEST_REQUIRE(float_bits(q.n) == float_bits(float(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z)));
    Pc = std::max(Pc, double(q.n));
  }
  BOOST_TEST(std::fabs(o.x - 0.5f * default_box) < 10.0f);  // the middle of the box the points fill
  const PairRule pr(Rule::gram, pts.data(), N);
  u64 pairs = 0, differ_gram = 0, differ_pinned = 0, differ_fused = 0, gram_vs_pinned = 0;
  for (i64 i = 0; i < N; ++i)
    for (i64 j = i + 1; j < N; ++j) {
      const Point a = pts[size_t(i)], b = pts[size_t(j)];
      const double dx = double(a.x - b.x), dy = double(a.y - b.y), dz = double(a.z - b.z);  // exact float differences
      const double ex = dx * dx + dy * dy + dz * dz;
      const float sg = dist2_gram(g[size_t(i)], g[size_t(j)]);
      BOOST_TEST_REQUIRE(float_bits(sg) == float_bits(dist2_gram(g[size_t(j)], g[size_t(i)])));
      BOOST_TEST_REQUIRE(float_bits(sg) == float_bits(pr.s(i, j)));
      BOOST_TEST_REQUIRE(std::fabs(double(sg) - ex) <= u * (17.0 * Pc + 4.1 * std::sqrt(ex * Pc)));
      const u32 kg = bucket(sg, w, B);
      BOOST_TEST_REQUIRE(fast_bucket(sg, float(std::sqrt(double(sg))), c, thr.data(), B) == kg);
      const u32 ke = u32(std::min(std::floor(std::sqrt(ex) / double(w)), double(B - 1)));
      const u32 kp = bucket(dist2(a, b), w, B), kf = bucket(dist2_fma(a, b), w, B);
      ++pairs;
      differ_gram += kg != ke;
      differ_pinned += kp != ke;
      differ_fused += kf != ke;
      gram_vs_pinned += kg != kp;
    }
  BOOST_TEST_MESSAGE("pairs in another bucket than the exact distance's, of " << pairs << ": gram " << differ_gram
                     << ", pinned " << differ_pinned << ", fused " << differ_fused << "; gram vs pinned " << gram_vs_pinned);
  BOOST_TEST(differ_gram <= pairs / 10000);  // within the Gram error of an edge only: rare
  BOOST_TEST(differ_pinned <= pairs / 10000);
  std::vector<u64> st(B), mt(B);
  cpu_st(pts.data(), N, w, B, st.data(), Rule::gram);
  BOOST_TEST(hist_sum(st) == pair_count(N));
  for (unsigned th : {1u, 3u}) {
    cpu_mt(pts.data(), N, w, B, mt.data(), th, Rule::gram);
    BOOST_TEST(mt == st);
  }
  // nearly coinciding points: the Gram s may round below 0; |s| is counted in bucket 0
  const Point q0{11500.0f, 11500.0f, 11500.0f};
  const std::vector<Point> two = {q0, Point{11500.001f, 11500.0f, 11500.0f}, Point{0.0f, 0.0f, 0.0f}};
  const PairRule p2(Rule::gram, two.data(), 3);
  BOOST_TEST(p2.s(0, 1) >= 0.0f);
  BOOST_TEST(bucket(p2.s(0, 1), w, B) == 0u);
}

// fast-gram2's bracket (apps/sdh_cpu.hpp, "the bracket"): for every y the PTX ISA's bound on
// sqrt.approx.f32 allows (every float within a relative 2^-23 of sqrt(s)), k_lo <= K <= k_hi <=
// k_lo + 1 and the kernel's decision (bracket_bucket) is the rule's bucket; at and around every
// threshold, at random s, past the last bucket, for s = 0 and subnormal s (ftz: y = 0), and for
// bucket widths from 1e-18 to 1e30. Then the Gram bound: every pair's s and k_hi stay below
// gram_s_bound and bracket_k_hi_max; and the share of ambiguous pairs at the benchmark's points.
namespace {
// Every float y with |y - sqrt(s)| <= 2^-23 sqrt(s) (the values sqrt.approx.f32 may return).
std::vector<float> allowed_y(float s) {
  const double r = std::sqrt(double(s)), lo = r * (1.0 - sqrt_approx_rel_err), hi = r * (1.0 + sqrt_approx_rel_err);
  std::vector<float> ys;
  float y = static_cast<float>(lo);
  while (double(y) < lo) y = next_up(y);
  while (double(next_down(y)) >= lo && next_down(y) > 0.0f) y = next_down(y);
  for (; double(y) <= hi; y = next_up(y)) ys.push_back(y);
  return ys;
}
}  // namespace

BOOST_AUTO_TEST_CASE(bracket) {
  const u32 M = est_magic_bits;
  std::mt19937 g(29);
  u64 checked = 0;
  for (float w : {500.0f, 123.456f, 1.0f, 3.0f, 0.1f, 7777.7f, 1e-3f, 1e-18f, 1e30f, 5.0f}) {
    const BracketScales c = bracket_scales(w);
    // the scales: the bounds hold, and the next float would break them
    BOOST_TEST_REQUIRE(double(c.lo) * w <= bracket_lo);
    BOOST_TEST_REQUIRE(double(next_up(c.lo)) * w > bracket_lo);
    BOOST_TEST_REQUIRE(double(c.hi) * w >= bracket_hi);
    BOOST_TEST_REQUIRE(double(next_down(c.hi)) * w < bracket_hi);
    BOOST_TEST_REQUIRE(double(c.lo) / double(c.hi) >= 1.0 - 0x1p-20);
    auto check = [&](float s, const std::vector<float>& thr, u32 B) {
      const u32 K = bucket_unclamped(s, w);
      for (float y : allowed_y(s)) {
        const u32 klo = est_bits(y, c.lo) - M, khi = est_bits(y, c.hi) - M;
        if (K < (1u << 22)) {
          BOOST_TEST_REQUIRE(klo <= K, "w=" << w << " s=" << s << " y=" << y);
          BOOST_TEST_REQUIRE(K <= khi, "w=" << w << " s=" << s << " y=" << y);
          if (khi < (1u << 20)) BOOST_TEST_REQUIRE(khi <= klo + 1);
        }
        BOOST_TEST_REQUIRE(bracket_bucket(s, y, c, thr.data(), B) == bucket(s, w, B), "w=" << w << " B=" << B << " s=" << s);
        ++checked;
      }
    };
    for (u32 B : {1u, 3u, 20u, 80u, 1000u, fast_max_buckets}) {
      const std::vector<float> thr = thresholds(w, B);
      const u32 step = B > 200 ? 7 : 1;
      for (u32 k = 1; k <= B; k += step) {
        const float edge = k < B ? thr[k] : float(double(w) * w * double(B) * B * 4.0);
        if (!std::isfinite(edge) || edge <= 0.0f) continue;
        float s = edge;
        for (int t = 0; t < 8; ++t) s = next_down(s);
        for (int t = 0; t < 16; ++t, s = next_up(s)) check(s, thr, B);
      }
      std::uniform_real_distribution<double> u(0.0, double(w) * (B + 3));
      for (int t = 0; t < 2000; ++t) {
        const double d = u(g);
        const float s = float(d * d);
        if (std::isfinite(s)) check(s, thr, B);
      }
      // s = 0 and subnormal s: sqrt.approx.ftz gives 0; the rule gives bucket 0 (w >= 1e-18)
      for (float s : {0.0f, 1e-45f, 1e-40f, 1.1e-38f})
        BOOST_TEST_REQUIRE(bracket_bucket(s, 0.0f, c, thr.data(), B) == bucket(s, w, B));
    }
  }
  BOOST_TEST_MESSAGE("bracket: " << checked << " (s, y) checked");
  // the Gram bound: every pair's |s| and every k_hi allowed stay within the host's bounds
  const auto pts = uniform_points(2000);
  const i64 N = i64(pts.size());
  const auto gp = gram_points(pts.data(), N);
  double nmax = 0;
  for (const auto& q : gp) nmax = std::max(nmax, double(q.n));
  const float w = 500.0f;
  const BracketScales c = bracket_scales(w);
  const double kmax = bracket_k_hi_max(nmax, c);
  BOOST_TEST(kmax <= 79.0);  // no row past the default 80 buckets: the benchmark's table is unchanged
  u64 pairs = 0, ambiguous = 0;
  for (i64 i = 0; i < N; ++i)
    for (i64 j = i + 1; j < N; ++j) {
      const float s = dist2_gram(gp[size_t(i)], gp[size_t(j)]);
      BOOST_TEST_REQUIRE(double(s) <= gram_s_bound(nmax));
      const std::vector<float> ys = allowed_y(s);
      BOOST_TEST_REQUIRE(double(est_bits(ys.back(), c.hi) - M) <= kmax);
      const float y = float(std::sqrt(double(s)));  // the correctly rounded root as a stand-in for the device's
      ++pairs;
      ambiguous += est_bits(y, c.lo) != est_bits(y, c.hi);
    }
  BOOST_TEST_MESSAGE("bracket: " << ambiguous << " of " << pairs << " pairs ambiguous at w = 500 (replayed on the device)");
  BOOST_TEST(ambiguous * 20000 <= pairs);  // rare: under 5 in 10^5
}

BOOST_AUTO_TEST_CASE(lattice_edges) {
  // 11^3 lattice, spacing 100: squared distances 10^4 * integer, exact; w = 100 puts
  // every pair whose integer is a perfect square exactly on an edge.
  const auto pts = lattice_points(11, 100.0f);
  const i64 N = i64(pts.size());
  const u32 B = bucket_unclamped(max_dist2(pts.data(), N), 100.0f) + 1;
  std::vector<u64> st(B), mt(B), ref(B, 0);
  cpu_st(pts.data(), N, 100.0f, B, st.data());
  cpu_mt(pts.data(), N, 100.0f, B, mt.data(), 3);
  // independent reference: integer arithmetic, floor(sqrt(m)) by integer search
  for (i64 i = 0; i < N; ++i)
    for (i64 j = i + 1; j < N; ++j) {
      const long dx = std::lround(pts[size_t(i)].x - pts[size_t(j)].x) / 100;
      const long dy = std::lround(pts[size_t(i)].y - pts[size_t(j)].y) / 100;
      const long dz = std::lround(pts[size_t(i)].z - pts[size_t(j)].z) / 100;
      const long m = dx * dx + dy * dy + dz * dz;
      long r = 0;
      while ((r + 1) * (r + 1) <= m) ++r;
      ++ref[size_t(std::min<long>(r, long(B) - 1))];
    }
  BOOST_TEST(st == ref);
  BOOST_TEST(mt == ref);
}

BOOST_AUTO_TEST_CASE(bad_input) {
  BOOST_TEST(validate(1000, 500.0, 80).empty());
  BOOST_TEST(!validate(1, 500.0, 80).empty());
  BOOST_TEST(!validate(1000, 0.0, 80).empty());
  BOOST_TEST(!validate(1000, -5.0, 80).empty());
  BOOST_TEST(!validate(1000, std::nan(""), 80).empty());
  BOOST_TEST(!validate(1000, 500.0, 0).empty());
  BOOST_TEST(!validate(1000, 1e-30, 80).empty());
}
