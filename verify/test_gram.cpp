// verify/test_gram.cpp — the CPU oracle of issue #27 (no GPU, no CUTLASS): the tdmaps tile
// scheduler (tdmaps/tiles.hpp) at tile granularity for every tile count the Gram kernels use,
// the condensed (pdist) index, the float64 reference and its error bound (src/support/gram/gram_cpu.hpp),
// and the audit of a peer's triangular index formula, restated from its published form.
#define BOOST_TEST_MODULE gram
#include <boost/test/unit_test.hpp>

#include <tdmaps/tiles.hpp>
#include <gram/gram_cpu.hpp>

#include <cmath>
#include <cstring>
#include <cstdio>
#include <vector>

using namespace tdmaps;

namespace {
// Every block of the map's grid at rho = 1 over c tiles: the inside ones hit each lower tile
// (J <= I < c) exactly once; returns the blocks launched.
template <class M> u64 cover(i64 c) {
  const auto t = TileMap<M>::make(c);
  const Dim3 g = t.grid();
  std::vector<unsigned char> seen(size_t(c) * size_t(c), 0);
  u64 inside = 0, launched = 0;
  for (u32 by = 0; by < g.y; ++by)
    for (u32 bx = 0; bx < g.x; ++bx) {
      ++launched;
      const Cell2T<i64> x = t.tile(bx, by);
      if (!x.inside) continue;
      if (x.i < 0 || x.i >= c || x.j < 0 || x.j > x.i) {
        BOOST_ERROR("c=" << c << ": block (" << bx << "," << by << ") -> tile (" << x.i << "," << x.j << ") outside the lower triangle");
        return launched;
      }
      unsigned char& s = seen[size_t(x.i) * size_t(c) + size_t(x.j)];
      if (s++) {
        BOOST_ERROR("c=" << c << ": tile (" << x.i << "," << x.j << ") launched twice");
        return launched;
      }
      ++inside;
    }
  BOOST_TEST(inside == tri(u64(c)), "c=" << c << ": " << inside << " lower tiles hit, want " << tri(u64(c)));
  BOOST_TEST(launched == t.launched());
  return launched;
}
}  // namespace

// Every tile count up to 600, and those of the timed and verified sizes (N = 129, 300, 1000,
// 1024, 8192, 16384, 32768, 65536, 10^6 at 128-wide tiles: c = 2, 3, 8, 8, 64, 128, 256, 512, 7813).
BOOST_AUTO_TEST_CASE(tile_maps_cover_the_lower_triangle_once) {
  std::vector<i64> cs;
  for (i64 c = 1; c <= 600; ++c) cs.push_back(c);
  for (i64 c : {1024, 4096, 7813}) cs.push_back(c);
  for (i64 c : cs) {
    BOOST_TEST(cover<LTM_E>(c) == tri(u64(c)));
    if (c <= 1024) BOOST_TEST(cover<BB>(c) == u64(c) * u64(c));
  }
}

// The fused histogram split over GPUs x chunks (multi_hist --app gram): the LTM-E tiles' blocks
// [0, c(c+1)/2) (the used ones: TileMap::useful) cut by tdmaps/partition.hpp's lambda_range into W
// ranges, each launched as a TileRange of its own grid: together the ranges' blocks hit every lower tile exactly once, each as
// the whole grid's block lambda does (tile(block_at(grid, lambda))), for every W <= 64 on small c and
// the worker counts 1, 2, 3, 7, 8, 13, 16, 64 on the larger ones.
BOOST_AUTO_TEST_CASE(tile_ranges_split_the_lower_tiles_once) {
  std::vector<i64> cs;
  for (i64 c = 1; c <= 40; ++c) cs.push_back(c);
  for (i64 c : {64, 79, 128, 257, 600}) cs.push_back(c);
  for (i64 c : cs) {
    const auto t = TileMap<LTM_E>::make(c);
    const u64 total = TileMap<LTM_E>::useful(c);
    BOOST_TEST(total == t.launched());  // a one-row grid
    std::vector<u32> workers;
    if (c <= 40)
      for (u32 G = 1; G <= max_workers; ++G) workers.push_back(G);
    else
      workers = {1, 2, 3, 7, 8, 13, 16, 64};
    for (u32 G : workers) {
      std::vector<unsigned char> seen(size_t(c) * size_t(c), 0);
      u64 inside = 0;
      for (u32 g = 0; g < G; ++g) {
        const LambdaRange r = lambda_range<u64>(total, G, g);
        const auto tr = TileRange<LTM_E>::make(t, r.begin, r.end);
        BOOST_TEST(tr.launched() == r.size());
        const Dim3 gr = tr.grid();
        u64 l = 0;
        for (u32 by = 0; by < gr.y; ++by)
          for (u32 bx = 0; bx < gr.x; ++bx, ++l) {
            const Cell2T<i64> x = tr.tile(bx, by);
            if (l >= r.size()) {  // an empty range's one block
              BOOST_TEST(!x.inside);
              continue;
            }
            const Dim3 b = block_at<u64>(t.grid(), r.begin + l);
            const Cell2T<i64> want = t.tile(b.x, b.y);
            if (!x.inside || x.i != want.i || x.j != want.j || x.i >= c || x.j > x.i) {
              BOOST_ERROR("c=" << c << " G=" << G << " g=" << g << ": block " << l << " of the range -> (" << x.i << "," << x.j
                               << "), the grid's block " << r.begin + l << " -> (" << want.i << "," << want.j << ")");
              return;
            }
            if (seen[size_t(x.i) * size_t(c) + size_t(x.j)]++) {
              BOOST_ERROR("c=" << c << " G=" << G << ": tile (" << x.i << "," << x.j << ") hit twice");
              return;
            }
            ++inside;
          }
      }
      BOOST_TEST(inside == tri(u64(c)), "c=" << c << " G=" << G << ": " << inside << " tiles hit, want " << tri(u64(c)));
    }
  }
  // ranges past the map's blocks are refused
  const auto t = TileMap<LTM_E>::make(8);
  BOOST_CHECK_THROW(TileRange<LTM_E>::make(t, 0, 37), unsupported);
  BOOST_CHECK_THROW(TileRange<LTM_E>::make(t, 5, 4), unsupported);
}

// N = 10^7 at 128-wide tiles (c = 78125: the 64-bit path, 3.05e9 tiles): the first and last blocks of
// each worker's range of the used tiles, and a range of more than 2^31 blocks (a multi-row grid, whose
// tail is outside). The whole grid has 3 rows of 2^30 blocks, its last row's tail outside: splitting
// the used tiles, not the grid, keeps the workers' shares equal.
BOOST_AUTO_TEST_CASE(tile_ranges_at_ten_million_points) {
  const i64 c = 78125;
  const auto t = TileMap<LTM_E>::make(c);
  const u64 total = TileMap<LTM_E>::useful(c);
  BOOST_TEST(total == 3051796875ull);
  BOOST_TEST(t.launched() == 3ull << 30);
  for (u32 G : {1u, 8u, 64u})
    for (u32 g = 0; g < G; ++g) {
      const LambdaRange r = lambda_range<u64>(total, G, g);
      const auto tr = TileRange<LTM_E>::make(t, r.begin, r.end);
      const Dim3 gr = tr.grid();
      for (u64 l : {u64(0), u64(1), r.size() / 2, r.size() - 1}) {
        const Cell2T<i64> x = tr.tile(u32(l % tr.gx), u32(l / tr.gx));
        const Cell2 want = LTM_E::g(r.begin + l);
        BOOST_TEST((x.inside && x.i == want.i && x.j == want.j), "G=" << G << " g=" << g << " block " << l);
      }
      const u64 blocks = u64(gr.x) * gr.y;
      BOOST_TEST(blocks >= r.size());
      if (blocks > r.size()) BOOST_TEST(!tr.tile(gr.x - 1, gr.y - 1).inside);  // the last row's tail
    }
}

BOOST_AUTO_TEST_CASE(condensed_index_is_pdist_order) {
  for (i64 N : {2, 3, 7, 128, 129, 300}) {
    i64 k = 0;
    for (i64 a = 0; a < N; ++a)
      for (i64 b = a + 1; b < N; ++b) BOOST_TEST_REQUIRE(gram_cpu::condensed_index(N, a, b) == k++);
    BOOST_TEST(k == N * (N - 1) / 2);
  }
}

BOOST_AUTO_TEST_CASE(reference_and_bound) {
  const int d = 16;
  const i64 N = 200;
  const auto X = gram_cpu::points(N, d, 27);
  for (float v : X) BOOST_TEST_REQUIRE((v >= 0.0f && v < 1.0f));
  BOOST_TEST(gram_cpu::d2_exact(X.data(), d, 5, 5) == 0.0);
  BOOST_TEST(gram_cpu::d2_exact(X.data(), d, 3, 9) == gram_cpu::d2_exact(X.data(), d, 9, 3));
  // the bound orders the precisions as their roundoff; 3xtf32 within 10x of FP32
  BOOST_TEST(gram_cpu::bound_coef("bf16", d) > gram_cpu::bound_coef("tf32", d));
  BOOST_TEST(gram_cpu::bound_coef("tf32", d) > gram_cpu::bound_coef("3xtf32", d));
  BOOST_TEST(gram_cpu::bound_coef("3xtf32", d) < 10 * gram_cpu::bound_coef("fp32", 3 * d));
  BOOST_TEST(std::isnan(gram_cpu::bound_coef("fp8", d)));
  // the float64 histogram counts every pair once
  const auto h = gram_cpu::histogram(X.data(), N, d, std::sqrt(double(d)) / 64, 64, 0.0);
  std::uint64_t total = 0;
  for (auto c : h.counts) total += c;
  BOOST_TEST(total == std::uint64_t(N * (N - 1) / 2));
  // the Gram form's rounding, emulated in float for TF32 inputs, stays within the bound
  auto tf32 = [](float x) {  // round to nearest, 10-bit mantissa
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    u = (u + 0x1000u) & ~0x1FFFu;
    std::memcpy(&x, &u, 4);
    return x;
  };
  double worst = 0;
  for (i64 i = 0; i < N; ++i)
    for (i64 j = 0; j <= i; ++j) {
      float ni = 0, nj = 0, dot = 0;
      for (int k = 0; k < d; ++k) {
        const float a = tf32(X[size_t(i * d + k)]), b = tf32(X[size_t(j * d + k)]);
        ni += a * a;
        nj += b * b;
        dot += a * b;
      }
      const double g = std::fmax(double(ni + nj - 2.0f * dot), 0.0);
      worst = std::fmax(worst, std::fabs(g - gram_cpu::d2_exact(X.data(), d, i, j)) / gram_cpu::scale(X.data(), d, i, j));
    }
  BOOST_TEST(worst <= gram_cpu::bound_coef("tf32", d));
  BOOST_TEST_MESSAGE("tf32 emulated: worst err/S " << worst << ", bound " << gram_cpu::bound_coef("tf32", d));
}

// Peers' index formulas, restated from their published descriptions, against the exact
// inverse: the first condensed index each gets wrong (audit of issue #27 item 6).
// torch.pdist (ATen DistanceKernel.cu): the row of condensed index k among n points in double,
//   i = floor(n2 - sqrt(n2^2 - 1 - 2k)), n2 = n - 1/2;  j = k - n i + i(i+1)/2 + i + 1.
// Searched at every row's first and last index (where a floor goes wrong first), for n = 2^10 .. 2^28
// and the timed sizes: "first wrong" is the first among the indices checked.
namespace {
i64 pdist_row_torch(i64 n, i64 k) {
  const double n2 = double(n) - 0.5;
  return i64(std::floor(n2 - std::sqrt(n2 * n2 - 1 - 2.0 * double(k))));
}
// Exact: the row a with start(a) <= k < start(a+1), start(a) = a n - a(a+1)/2.
i64 row_start(i64 n, i64 a) { return a * n - a * (a + 1) / 2; }
}  // namespace
BOOST_AUTO_TEST_CASE(peer_pdist_row_formula_audit) {
  for (i64 n : {i64(1) << 10, i64(1) << 14, i64(32768), i64(65536), i64(1) << 20, i64(1000000), i64(1) << 22, i64(1) << 24,
                i64(1) << 26, i64(100000000), i64(1) << 28}) {
    i64 first_wrong = -1;
    for (i64 a = 0; a + 1 < n && first_wrong < 0; ++a) {
      const i64 s = row_start(n, a);
      for (i64 k : {s, s + (n - a - 2)})  // first and last index of row a
        if (k >= row_start(n, a) && k < row_start(n, a + 1) && pdist_row_torch(n, k) != a) {
          first_wrong = k;
          break;
        }
    }
    if (first_wrong < 0)
      std::printf("torch.pdist fp64 row formula, n = %lld: right at every row's first and last index\n", (long long)n);
    else
      std::printf("torch.pdist fp64 row formula, n = %lld: first wrong condensed index %lld\n", (long long)n, (long long)first_wrong);
    // found: right for every n searched up to 10^8; at n = 2^28 already row 0's last index, k = n - 2, is
    // given row 1 (n2^2 = 2^56 - 2^28 + 1/4 is not a double)
    if (n < (i64(1) << 28)) BOOST_TEST(first_wrong == -1);
    else BOOST_TEST(first_wrong == n - 2);
  }
}

// PyTorch tril_indices / triu_indices (ATen TensorFactories.cu, "resolve_root_int", as its comments describe
// it): the row of linear index x of the lower triangle (offset 0: row i holds i + 1 cells, b = 1, c = -8x)
// is floor((-b + sqrt(b^2 - 4c)) / 2) with the root in double; where the double square of that root is not
// the integer b^2 - 4c again, a binary search over [res - e, res + e + 1), e = ceil(sqrt(|v - floor(sr)^2|)),
// for the largest m with (b + m) m <= 2x repairs it. Searched: every row start and its neighbours for every
// row i < 2^22, and rows on a geometric sweep (ratio 1.0001) up to i = 2^31 (x near 2^61): "first wrong" is
// the first among the indices checked.
namespace {
i64 tril_row_torch(i64 x) {
  const i64 b = 1, v = b * b + 8 * x;
  const double sr = std::sqrt(double(v));
  i64 res = i64(std::floor((double(-b) + sr) / 2));
  if (v != i64(sr * sr)) {
    const i64 llsr = i64(std::floor(sr));
    const i64 e = i64(std::ceil(std::sqrt(std::fabs(double(v - llsr * llsr)))));
    i64 l = res > e ? res - e : 0, r = res + e + 1;
    const i64 x2 = 2 * x;
    while (l + 1 < r) {
      const i64 m = (l + r) / 2;
      if ((b + m) * m > x2) r = m;
      else l = m;
    }
    res = l;
  }
  return res;
}
}  // namespace
BOOST_AUTO_TEST_CASE(peer_tril_indices_root_audit) {
  i64 first_wrong = -1, checked = 0;
  auto check = [&](i64 i) {  // row i starts at tri(i) = i(i+1)/2
    const i64 s = i * (i + 1) / 2;
    for (i64 x : {s - 1, s, s + 1}) {
      if (x < 0) continue;
      const i64 want = x < s ? i - 1 : i;
      ++checked;
      if (tril_row_torch(x) != want && (first_wrong < 0 || x < first_wrong)) first_wrong = x;
    }
  };
  for (i64 i = 1; i < (i64(1) << 22); ++i) check(i);
  for (double i = double(1 << 22); i < double(i64(1) << 31); i *= 1.0001) check(i64(i));
  if (first_wrong < 0)
    std::printf("torch tril_indices root + fallback: right at every one of %lld indices checked (rows up to 2^31)\n", (long long)checked);
  else
    std::printf("torch tril_indices root + fallback: first wrong linear index %lld\n", (long long)first_wrong);
  // found: right below 2^60; the first wrong index checked is just past 2^60, where b^2 - 4c = 1 + 8x
  // overflows int64 (a limit of the formula's integer arithmetic, not of the root)
  BOOST_TEST(first_wrong > (i64(1) << 60));
  BOOST_TEST(first_wrong < (i64(1) << 60) + (i64(1) << 47));
  // ours on the rows where it fails, and below: LTM-E's g (64-bit path) gives every row exactly
  for (i64 i : {i64(1) << 22, i64(1) << 28, i64(1518500249), (i64(1) << 31) - 1})
    for (i64 x : {i * (i + 1) / 2 - 1, i * (i + 1) / 2, i * (i + 1) / 2 + 1}) {
      const i64 want = x < i * (i + 1) / 2 ? i - 1 : i;
      BOOST_TEST(LTM_E::g<i64>(u64(x)).i == want);
    }
}
