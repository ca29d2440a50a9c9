// verify/test_gram.cpp — the CPU oracle of issue #27 (no GPU, no CUTLASS): the tdmaps tile
// scheduler (tdmaps/tiles.hpp) at tile granularity for every tile count the Gram kernels use,
// the condensed (pdist) index, the float64 reference and its error bound (src/support/gram/gram_cpu.hpp),
// the audit of peers' triangular index formulas, restated from their published forms (gram/peer_formulas.hpp),
// and the family's vocabulary (results/gram_names.hpp): every name composed there parses back to what composed it.
#define BOOST_TEST_MODULE gram
#include <boost/test/unit_test.hpp>

#include <tdmaps/tiles.hpp>
#include <gram/gram_cpu.hpp>
#include <gram/gram_limits.hpp>
#include <gram/peer_formulas.hpp>
#include <results/gram_names.hpp>

#include <cmath>
#include <cstring>
#include <cstdio>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
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
// The banded order (banded_tile, the CUTLASS 3 scheduler's LowerTriangleScheduler<M, G>): every lambda of
// [0, c(c+1)/2) gets a lower tile, each tile once, for band heights G = 1..17 and c = 1..40, then every 13th c to
// 300 (short last bands included), and a band's tiles are consecutive lambdas.
// The proof's steps at large c (tiles.hpp, banded_tile): at every band's first and last lambda, the first and last
// lambda of its body, and their neighbours, the tile is in that band, below the diagonal, where the mixed-radix /
// triangle order puts it, for c up to LTM-E's tile counts of N = 10^6 .. 10^7 points and G = 8 (the scheduler's)
// and 5 (a short last band).
BOOST_AUTO_TEST_CASE(banded_tile_order_at_the_band_boundaries_of_large_c) {
  for (i64 G : {5, 8})
    for (i64 c : {7813, 65535, 65536, 78125}) {
      const auto t = TileMap<LTM_E>::make(c);
      const Dim3 g = t.grid();
      for (i64 b0 = 0; b0 < c; b0 += G) {
        const i64 rows = c - b0 < G ? c - b0 : G;
        const u64 first = tri(u64(b0)), body = u64(rows) * u64(b0), end = first + body + tri(u64(rows));
        for (u64 l : {first, first + 1, first + body - 1, first + body, first + body + 1, end - 1}) {
          if (l < first || l >= end) continue;
          const Dim3 b = block_at<u64>(g, l);
          const Cell2T<i64> x = banded_tile(t.tile(b.x, b.y), l, c, G);
          const u64 mu = l - first;
          Cell2T<i64> want;
          if (mu < body) {
            const u64 s = mu / (u64(rows) * u64(G)), local = mu % (u64(rows) * u64(G));
            want = Cell2T<i64>{b0 + i64(local % u64(rows)), i64(s) * G + i64(local / u64(rows)), true};
          } else {
            u64 r = 0;
            while (tri(r + 1) <= mu - body) ++r;  // the band's triangle row, by counting (G is small)
            want = Cell2T<i64>{b0 + i64(r), b0 + i64(mu - body - tri(r)), true};
          }
          if (!x.inside || x.i != want.i || x.j != want.j || x.j > x.i || x.i / G != b0 / G) {
            BOOST_ERROR("G=" << G << " c=" << c << ": lambda " << l << " -> (" << x.i << "," << x.j << "), want (" << want.i << ","
                             << want.j << ")");
            return;
          }
        }
      }
    }
}

BOOST_AUTO_TEST_CASE(banded_tile_order_covers_the_lower_triangle_once) {
  for (i64 G = 1; G <= 17; ++G)
    for (i64 c = 1; c <= 300; c += (c < 40 ? 1 : 13)) {
      const auto t = TileMap<LTM_E>::make(c);
      const Dim3 g = t.grid();
      std::vector<unsigned char> seen(size_t(c) * size_t(c), 0);
      i64 band = 0;
      for (u64 l = 0; l < tri(u64(c)); ++l) {
        const Dim3 b = block_at<u64>(g, l);
        const Cell2T<i64> x = banded_tile(t.tile(b.x, b.y), l, c, G);
        if (!x.inside || x.i < 0 || x.i >= c || x.j < 0 || x.j > x.i) {
          BOOST_ERROR("G=" << G << " c=" << c << ": lambda " << l << " -> (" << x.i << "," << x.j << ") outside");
          return;
        }
        if (seen[size_t(x.i) * size_t(c) + size_t(x.j)]++) {
          BOOST_ERROR("G=" << G << " c=" << c << ": tile (" << x.i << "," << x.j << ") twice");
          return;
        }
        if (x.i / G < band) {
          BOOST_ERROR("G=" << G << " c=" << c << ": lambda " << l << " goes back to band " << x.i / G);
          return;
        }
        band = x.i / G;
      }
    }
}

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
// tail is outside). The whole grid has 2 rows of 1,525,898,438 blocks (linear_grid), its last block
// outside: splitting the used tiles, not the grid, keeps the workers' shares equal.
BOOST_AUTO_TEST_CASE(tile_ranges_at_ten_million_points) {
  const i64 c = 78125;
  const auto t = TileMap<LTM_E>::make(c);
  const u64 total = TileMap<LTM_E>::useful(c);
  BOOST_TEST(total == 3051796875ull);
  BOOST_TEST(t.launched() == 3051796876ull);  // 2 x ceil(total / 2): one block outside
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

// Peers' index formulas, restated from their published descriptions (src/support/gram/peer_formulas.hpp,
// the one copy; experiments/gram/peer_index_audit writes experiments/results/cpu/peer_index_audit.csv from
// the same search), against the exact inverse: the first index each gets wrong (issue #27 item 6).
// Searched at every row's first and last index (and neighbours), a proof for the formulas whose row is
// monotone in the index; "first wrong" is the first among the indices checked.
// torch.pdist: the row of condensed index k among n points in double, for n = 2^10 .. 2^28.
BOOST_AUTO_TEST_CASE(peer_pdist_row_formula_audit) {
  for (i64 n : {i64(1) << 10, i64(1) << 14, i64(32768), i64(65536), i64(1) << 20, i64(1000000), i64(1) << 22, i64(1) << 24,
                i64(1) << 26, i64(100000000), i64(1) << 27, i64(1) << 28}) {
    peers::FirstWrong fw;
    peers::boundary_search(fw, 0, n - 1, n * (n - 1) / 2, [n](i64 a) { return peers::pdist_row_start(n, a); },
                           [n](i64 k) { return peers::pdist_row(n, k); });
    std::printf("torch.pdist fp64 row formula, n = %lld: first wrong condensed index %lld\n", (long long)n, (long long)fw.index);
    // found: right for every n searched up to 10^8; from n = 2^27 row 0's last index, k = n - 2, is given
    // row 1 (n2^2 = n^2 - n + 1/4 is no longer a double)
    if (n <= 100000000) BOOST_TEST(fw.index == -1);
    else BOOST_TEST((fw.index == n - 2 && fw.got == 1 && fw.want == 0));
  }
  // every condensed index at n = 4096 (the row-boundary proof's cross-check)
  peers::FirstWrong ex;
  const i64 n = 4096;
  peers::exhaustive_search(ex, n * (n - 1) / 2, [n](i64 a) { return peers::pdist_row_start(n, a); },
                           [n](i64 k) { return peers::pdist_row(n, k); });
  BOOST_TEST(ex.index == -1);
}

// PyTorch tril_indices / triu_indices, root + fallback: every row start and its neighbours for every row
// i < 2^22, rows on a geometric sweep (ratio 1.0001) up to i = 2^32 - 1 (x near 2^63), x = 2^60 +- 2.
BOOST_AUTO_TEST_CASE(peer_tril_indices_root_audit) {
  peers::FirstWrong fw;
  const i64 i64max = std::numeric_limits<i64>::max();
  peers::boundary_search(fw, 1, i64(1) << 22, i64max, peers::tri_start, peers::tril_row);
  for (double i = double(1 << 22); i < double((i64(1) << 32) - 1); i *= 1.0001)
    peers::boundary_search(fw, i64(i), i64(i) + 1, i64max, peers::tri_start, peers::tril_row);
  for (i64 x = (i64(1) << 60) - 2; x <= (i64(1) << 60) + 2; ++x) fw.see(x, peers::tril_row(x), i64(tri_root(u64(x))));
  std::printf("torch tril_indices root + fallback: first wrong linear index %lld of %llu checked\n", (long long)fw.index,
              (unsigned long long)fw.checked);
  // found: right below 2^60; from x = 2^60 on b^2 - 4c = 1 + 8x overflows int64 (a limit of the formula's
  // integer arithmetic, not of the root): no defined row
  BOOST_TEST(fw.index == (i64(1) << 60));
  BOOST_TEST(fw.got == peers::undefined_row);
  BOOST_TEST(fw.want == 1518500249);
  peers::FirstWrong ex;
  peers::exhaustive_search(ex, i64(1) << 22, peers::tri_start, peers::tril_row);
  BOOST_TEST(ex.index == -1);
  // ours on the rows where it fails, and below: LTM-E's g (64-bit path) gives every row exactly
  for (i64 i : {i64(1) << 22, i64(1) << 28, i64(1518500249), (i64(1) << 31) - 1})
    for (i64 x : {i * (i + 1) / 2 - 1, i * (i + 1) / 2, i * (i + 1) / 2 + 1}) {
      const i64 want = x < i * (i + 1) / 2 ? i - 1 : i;
      BOOST_TEST(LTM_E::g<i64>(u64(x)).i == want);
    }
}

// QuACK's TriangularTileScheduler (triangular_idx_to_coord), fp32: with the correctly rounded sqrtf the
// first wrong tile index is the first of row 4096 (the float argument 2 idx + 2.25 rounds down, and the
// root lands on 4096.5); with sqrt.approx.f32 (relative error <= 2^-23) the bound admits a wrong row
// already at idx = 0 (row 0's last index: the exact root 1.5 and the float above it both lie within
// the bound). Ours (TileMap<LTM_E>, the kernels' call) is right at every row boundary of the same range.
BOOST_AUTO_TEST_CASE(peer_quack_fp32_audit) {
  const i64 limit = i64(1) << 31, rows = 65536;
  peers::FirstWrong rn, ex, ap, ours;
  const auto row = [](i64 x) { return peers::quack_row_rn(i32(x)); };
  peers::boundary_search(rn, 1, rows, limit, peers::tri_start, row);
  BOOST_TEST(rn.index == 8390656);  // tri(4096)
  BOOST_TEST((rn.got == 4095 && rn.want == 4096));
  peers::exhaustive_search(ex, i64(1) << 24, peers::tri_start, row);
  BOOST_TEST(ex.index == rn.index);
  peers::boundary_search_bound(ap, 1, rows, limit, peers::tri_start,
                               [](i64 x, i64 want) { return peers::quack_approx_admitted_row(i32(x), want); });
  BOOST_TEST((ap.index == 0 && ap.got == 1 && ap.want == 0));
  // away from a row's last index the bound admits no other row (row 100's first index)
  BOOST_TEST(peers::quack_approx_admitted_row(i32(peers::tri_start(100)), 100) == 100);
  const auto t = TileMap<LTM_E>::make(65535);
  const u32 gx = t.grid().x;
  peers::boundary_search(ours, 1, rows, i64(t.launched()), peers::tri_start, [&](i64 l) {
    const Cell2T<i64> c = t.tile(u32(u64(l) % gx), u32(u64(l) / gx));
    return c.inside && peers::tri_start(c.i) + c.j == l ? c.i : peers::undefined_row;
  });
  BOOST_TEST(ours.index == -1);
}

// The exact mode's references (gram_cpu.hpp; gram_exact.cu must equal them bit for bit, bench_gram checks
// that on a GPU): NumPy's edge rule, counts within eps, the distance range.
BOOST_AUTO_TEST_CASE(exact_mode_references) {
  // three points on a line: distances 1 (0-1), 2 (1-2), 3 (0-2)
  const std::vector<float> X{0.0f, 1.0f, 3.0f};
  const std::vector<std::uint64_t> h = gram_cpu::edge_histogram(X.data(), 3, 1, {1.0, 2.0, 3.0});
  BOOST_TEST(h.size() == 2u);
  BOOST_TEST(h[0] == 1u);  // [1, 2): d = 1
  BOOST_TEST(h[1] == 2u);  // [2, 3], the last bucket closed: d = 2 and d = 3
  const std::vector<std::uint64_t> outside = gram_cpu::edge_histogram(X.data(), 3, 1, {1.5, 2.5});
  BOOST_TEST(outside[0] == 1u);  // only d = 2; 1 and 3 outside
  const std::vector<std::uint64_t> tied = gram_cpu::edge_histogram(X.data(), 3, 1, {1.0, 2.0, 2.0, 3.0});
  BOOST_TEST((tied[0] == 1u && tied[1] == 0u && tied[2] == 2u));  // an empty bucket between equal edges
  const gram_cpu::RadiusCounts c = gram_cpu::radius_counts(X.data(), 3, 1, 2.0);  // d <= 2: pairs 0-1, 1-2
  BOOST_TEST(c.pairs == 2u);
  BOOST_TEST((c.per_point[0] == 1u && c.per_point[1] == 2u && c.per_point[2] == 1u));
  double lo = 0, hi = 0;
  gram_cpu::distance_range(X.data(), 3, 1, lo, hi);
  BOOST_TEST((lo == 1.0 && hi == 3.0));
  BOOST_TEST(gram_cpu::dot_exact(X.data(), 1, 1, 2) == 3.0);
  // the count's reference: d^2 <= 4 (pairs 0-1, 1-2); with coef 0 only the pair at d^2 = 4 exactly is near
  const gram_cpu::CountReference r = gram_cpu::count_reference(X.data(), 3, 1, 4.0, 0.0);
  BOOST_TEST((r.want_total == 2u && r.near_total == 1u));
  BOOST_TEST((r.near[0] == 0u && r.near[1] == 1u && r.near[2] == 1u));
  i64 bad = 0;
  BOOST_TEST(r.admits(std::vector<unsigned>{1, 2, 1}, 2, &bad));
  BOOST_TEST(r.admits(std::vector<unsigned>{1, 1, 0}, 1, &bad));  // the pair at eps moved: allowed
  BOOST_TEST(!r.admits(std::vector<unsigned>{0, 1, 1}, 1, &bad));  // point 0's pair is not near eps
  BOOST_TEST(bad == 0);
}

// Issue #37 item 1: what sm90-evt refuses (gram::sm90_evt_refusal, host-only: run() answers a refused request with
// cudaErrorInvalidValue). Its fused reductions (the visitor tree's root, nothing stored) run in every precision at
// any N; its stored distances are TF32 and, lower / mirror, N % 4 == 0; minmax is not built.
BOOST_AUTO_TEST_CASE(sm90_evt_refusal_reductions_every_precision) {
  for (gram::Prec p : gram::kPrecs)
    for (gram::Out o : {gram::Out::hist, gram::Out::count, gram::Out::hist_exact, gram::Out::count_exact})
      for (long long N : {2ll, 129ll, 1000000ll}) {
        BOOST_TEST_INFO(gram::name(p) << " " << gram::name(o) << " N=" << N);
        BOOST_TEST(gram::sm90_evt_reduction(o));
        BOOST_TEST(gram::sm90_evt_refusal(p, o, N).empty());
      }
  BOOST_TEST(!gram::sm90_evt_reduction(gram::Out::minmax));
  BOOST_TEST(!gram::sm90_evt_refusal(gram::Prec::tf32, gram::Out::minmax, 128).empty());
  BOOST_TEST(gram::sm90_evt_refusal(gram::Prec::tf32, gram::Out::lower, 128).empty());
  BOOST_TEST(!gram::sm90_evt_refusal(gram::Prec::tf32, gram::Out::lower, 129).empty());  // TMA's 16-byte rows of D
  BOOST_TEST(gram::sm90_evt_refusal(gram::Prec::tf32, gram::Out::condensed, 129).empty());
  for (gram::Prec p : {gram::Prec::tf32x3, gram::Prec::bf16, gram::Prec::fp16})
    BOOST_TEST(!gram::sm90_evt_refusal(p, gram::Out::lower, 128).empty());
  BOOST_TEST(gram::sm90_evt_refusal(gram::Prec::bf16, gram::Out::mirror, 128, true).empty());  // the product
  BOOST_TEST(!gram::sm90_evt_refusal(gram::Prec::bf16, gram::Out::hist, 128, true).empty());   // mirror-written only
}

// Issue #39: the vocabulary is composed and parsed in one header (results/gram_names.hpp). Every impl name
// (scheduler x kernel, the whole-square sm90-evt row included) parses back to its (Sched, Kernel) and no two
// collide; every precision, kernel and output name parses back to itself; the peers' impls are none of ours.
BOOST_AUTO_TEST_CASE(vocabulary_round_trips) {
  std::set<std::string> impls;
  for (gram::Sched s : gram::kScheds)
    for (gram::Kernel k : gram::kKernels) {
      const std::string impl = gram::impl_name(s, k);
      gram::Sched ps = s == gram::Sched::ltm_e ? gram::Sched::bb : gram::Sched::ltm_e;
      gram::Kernel pk = k == gram::Kernel::classic ? gram::Kernel::sm80_8w : gram::Kernel::classic;
      BOOST_TEST_INFO(impl);
      BOOST_TEST(gram::impl_of(impl, ps, pk));
      BOOST_TEST((ps == s && pk == k));
      BOOST_TEST(impls.insert(impl).second);
    }
  // the names gram.csv holds (experiments/results/*/gram.csv)
  BOOST_TEST(gram::impl_name(gram::Sched::ltm_e, gram::Kernel::classic) == "tdmaps-ltm-e");
  BOOST_TEST(gram::impl_name(gram::Sched::bb, gram::Kernel::classic) == "bb-grid");
  BOOST_TEST(gram::impl_name(gram::Sched::ltm_e, gram::Kernel::sm90_ws) == "tdmaps-ltm-e-sm90-ws");
  BOOST_TEST(gram::impl_name(gram::Sched::bb, gram::Kernel::sm80_8w) == "bb-grid-sm80-8w");
  BOOST_TEST(gram::impl_name(gram::Sched::bb, gram::Kernel::sm90_evt) == "full-sm90-evt");
  for (const char* other : {gram::peer::cublas_gemm, gram::peer::cublas_gemm_epilogue, gram::peer::cublas_syrk,
                            gram::peer::cublas_syrk_epilogue, gram::peer::write, gram::peer::empty_blocks,
                            gram::peer::fp64_exact, gram::peer::torch_cdist, gram::peer::torch_mm, "bb-grid-sm90-evt",
                            "tdmaps-ltm-e-", "tdmaps-ltm-e-foo", ""}) {
    gram::Sched s;
    gram::Kernel k;
    BOOST_TEST_INFO(other);
    BOOST_TEST(!gram::impl_of(other, s, k));
  }

  std::set<std::string> precs;
  for (gram::Prec p : gram::kPrecs) {
    BOOST_TEST((gram::prec_of(gram::name(p)) == p));
    BOOST_TEST(precs.insert(gram::name(p)).second);
  }
  BOOST_TEST(precs == (std::set<std::string>{"tf32", "3xtf32", "bf16", "fp16"}));
  for (const char* other : {gram::peer::fp32, gram::peer::fp64, gram::peer::none, "TF32", ""})
    BOOST_CHECK_THROW(gram::prec_of(other), std::invalid_argument);

  for (gram::Kernel k : gram::kKernels) {
    gram::Kernel pk = k == gram::Kernel::classic ? gram::Kernel::sm80_8w : gram::Kernel::classic;
    BOOST_TEST(gram::kernel_of(gram::name(k), pk));
    BOOST_TEST((pk == k));
  }
  std::set<std::string> outputs;
  for (gram::Output o : gram::kOutputs) {
    gram::Output po = o == gram::Output::none ? gram::Output::lower : gram::Output::none;
    BOOST_TEST(gram::output_of(gram::name(o), po));
    BOOST_TEST((po == o));
    BOOST_TEST(outputs.insert(gram::name(o)).second);
  }
  // the interface's outputs that gram.csv writes under their own name
  for (gram::Out o : {gram::Out::lower, gram::Out::condensed, gram::Out::hist, gram::Out::mirror, gram::Out::count}) {
    gram::Output po;
    BOOST_TEST_INFO(gram::name(o));
    BOOST_TEST(gram::output_of(gram::name(o), po));
  }
}
