// Exactness of the float maps: where each variant stops being right, checked
// against the limits:: constants beside each map policy (src/lib/tdmaps/map_*.hpp; both directions), and the
// papers' claims about those ranges confirmed or refuted. Which maps have a root and how their
// constants are proven is declared in their traits (registry/traits.hpp root_facts): the first test
// walks the registry, so a new float map is checked without an edit here. Each float map in both rounding modes
// (numbers.hpp): Pinned, the library's (what plan() and the kernels use), and Fused, the
// products nvcc's default -fmad=true contracts (what the papers' binaries ran;
// verify/fma_contraction.sh reads which ones from the SASS).
// The monotone formulas (ltm-x, ltm-d, ltm-e's wide estimate) are proven from both ends of
// every row (verify/range_proofs.hpp states the argument); ltm-n has no monotone form and is
// searched exhaustively (its limit is 1.3 million indices). The exhaustive searches over every
// lambda < 2^32 stay, labelled 'slow' (make verify-full), and the two kinds are cross-checked.
#define BOOST_TEST_MODULE exact
#include <boost/test/unit_test.hpp>

#include "range_proofs.hpp"
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)

#include <type_traits>

namespace utf = boost::unit_test;
using namespace tdmaps;
using namespace tdmaps::oracle;

namespace {
template <class S, class R = Pinned> u64 row_of(u64 l) {
  if constexpr (std::is_same_v<R, Pinned>) return S::row(l).k;
  else return S::template row<u64, R>(l).k;
}
// Exhaustive: every lambda, row by row.
template <class S, class R = Pinned> u64 first_wrong(u64 limit) {
  return first_wrong_row([](u64 l) { return row_of<S, R>(l); }, limit);
}
// By row ends, for the monotone formulas.
template <class S, class R = Pinned> u64 first_wrong_monotone(u64 limit) {
  return first_wrong_row_monotone([](u64 l) { return row_of<S, R>(l); }, limit);
}
// Largest N = n * rho whose n(n+1)/2 blocks all lie below `blocks`.
i64 largest_N(u64 blocks, int rho) {
  u64 n = tri_root(blocks);
  if (tri(n) > blocks) --n;
  return i64(n) * rho;
}
// Checks M's constant in rounding R: exact below it and wrong at it (its root_facts say how).
template <class M, class R>
void check_root_limit(long long limit) {
  constexpr root_facts f = map_traits<M>::root;
  const char* rounding = std::is_same_v<R, Pinned> ? "pinned" : "fma";
  if constexpr (f.kind == root_kind::row) {
    using S = typename M::sqrt_policy;
    const u64 lim = std::min<u64>(u64(limit), 1ull << 32);  // the first wrong lambda below 2^32, or 2^32
    const u64 fw = f.monotone ? first_wrong_monotone<S, R>(1ull << 32) : first_wrong<S, R>(1ull << 32);
    BOOST_TEST(fw == lim, M::name << " " << rounding << ": first wrong lambda " << fw << ", constant " << lim);
  } else if constexpr (f.kind == root_kind::layer) {
    using P = typename M::root_policy;
    const u64 lim3 = tet(2048), lim = std::min<u64>(u64(limit), lim3);
    const u64 fw = first_wrong_layer([](u64 l) { return P::template layer<u64, R>(l).k; }, lim3);
    BOOST_TEST(fw == lim, M::name << " " << rounding << ": first wrong lambda " << fw << ", constant " << lim);
  } else {
    if (f.monotone) BOOST_TEST((utm_exact_by_row_ends<M, R>(i64(limit))), M::name << " " << rounding << ": exact at N = " << limit);
    BOOST_TEST(!(utm_exact_for<M, R>(i64(limit) + 1)), M::name << " " << rounding << ": wrong at N = " << limit + 1);
  }
  const bool searched_past = f.kind != root_kind::thread && u64(limit) >= (f.kind == root_kind::row ? 1ull << 32 : tet(2048));
  BOOST_TEST_MESSAGE(M::name << " " << rounding << ": its constant " << limit
                             << (searched_past ? " (exact below the search limit)" : " proven both ways"));
}
// The maps given after the test's own arguments (test_exact ... -- --maps a,b: the throwaway-map test
// checks only its map); every map when none.
bool root_selected(const char* name) {
  const auto& s = utf::framework::master_test_suite();
  for (int a = 1; a + 1 < s.argc; ++a)
    if (std::string(s.argv[a]) == "--maps")
      return ("," + std::string(s.argv[a + 1]) + ",").find("," + std::string(name) + ",") != std::string::npos;
  return true;
}
template <class M>
void check_root(M) {
  if (!root_selected(M::name)) return;
  if constexpr (has_root<M>) {
    constexpr root_facts f = map_traits<M>::root;
    // corrected maps: exact by construction over M::exact_blocks (test_index_paths, below);
    // cpu_limit false: the GPU sweep is the source of the constant (gpu_exact_range)
    if constexpr (f.cpu_limit && !f.corrected) {
      if constexpr (f.kind == root_kind::thread) check_root_limit<M, Pinned>(M::max_N);
      else check_root_limit<M, Pinned>((long long)M::exact_blocks);
      if constexpr (f.fma) check_root_limit<M, Fused>(f.fma_limit);
    }
  }
}
}  // namespace

// Every map of the registry whose traits declare a root with a CPU-proven limit (root_facts:
// cpu_limit, not corrected), in every rounding it has (pinned; fma where it has products nvcc
// contracts): its constant (M::exact_blocks, M::max_N, limits::*_fma_*) exact below and wrong at it.
//   row     the first wrong lambda < 2^32: from both ends of every row (monotone), else every lambda
//   layer   the first wrong lambda < tet(2048), every lambda of each layer
//   thread  exact at max_N (from the row ends, monotone maps; every N up to it: test_utm_ranges) and
//           wrong at max_N + 1 (every thread)
// (test_exact --run_test=float_roots_match_their_constants -- --maps NAME,...: only those maps)
BOOST_AUTO_TEST_CASE(float_roots_match_their_constants) {
  for_each_map(maps2d{}, [](auto m) { check_root(m); });
  for_each_map(maps3d{}, [](auto m) { check_root(m); });
}

// LTM-E is a bijection lambda <-> (i, j) for EVERY lambda < 2^32: its (wide, u64) row is
// tri_correct of the double estimate, right exactly when the estimate is within one of the
// true row; the estimate is monotone, so within one at both ends of every row proves every
// lambda; j = lambda - i(i+1)/2 then lies in [0, i] by construction. (The narrow path's
// estimate: test_index_paths.)
BOOST_AUTO_TEST_CASE(ltm_e_exact_for_every_lambda_below_2_32) {
  BOOST_TEST(first_estimate_off_by_two([](u64 l) { return tri_estimate_wide(l); }, 1ull << 32) == (1ull << 32));
  BOOST_TEST(first_wrong_monotone<SqrtE>(1ull << 32) == (1ull << 32));  // the corrected row, at the ends
}
BOOST_AUTO_TEST_CASE(ltm_e_exact_every_lambda_exhaustive, *utf::label("slow")) {
  BOOST_TEST(first_wrong<SqrtE>(1ull << 32) == (1ull << 32));
}

// LTM-D (fp64 sqrt, every step correctly rounded: monotone) is exact for every lambda < 2^32
// too (its stated range; the row ends: float_roots_match_their_constants).
BOOST_AUTO_TEST_CASE(ltm_d_exact_every_lambda_exhaustive, *utf::label("slow")) {
  BOOST_TEST(first_wrong<SqrtD>(1ull << 32) == limits::ltm_d_blocks);
}

// LTM-X (correctly rounded sqrtf, no epsilon; monotone): exact below the constant, wrong at
// it (the row ends: float_roots_match_their_constants); the exhaustive search finds the same first
// wrong lambda.
BOOST_AUTO_TEST_CASE(ltm_x_range_matches_constant) {
  BOOST_TEST(first_wrong<SqrtX>(1ull << 32) == limits::ltm_x_blocks);
  BOOST_TEST_MESSAGE("ltm-x: exact for lambda < " << limits::ltm_x_blocks << ", N <= " << largest_N(limits::ltm_x_blocks, 16) << " at rho=16");
}

// The row-end search against the exhaustive one on monotone functions that fail in every
// way a row can: right everywhere; wrong from the start of a row; wrong from the middle of a
// row (too large after a point); a row function shifted late. Every limit up to a few
// thousand lambdas.
BOOST_AUTO_TEST_CASE(row_end_search_matches_exhaustive_on_monotone_rows) {
  for (u64 fail_at : {u64(0), u64(1), u64(2), u64(5), u64(100), u64(777), u64(1000), u64(4999), u64(5000)}) {
    // true row below fail_at, then one more (monotone: non-decreasing in lambda)
    const auto row = [fail_at](u64 l) { return tri_root(l) + (l >= fail_at ? 1 : 0); };
    for (u64 limit : {u64(1), u64(3), u64(1000), u64(5000), u64(5001)})
      BOOST_TEST(first_wrong_row_monotone(row, limit) == first_wrong_row(row, limit), "fail_at=" << fail_at << " limit=" << limit);
  }
  BOOST_TEST(first_wrong<SqrtD>(tri(4000)) == first_wrong_monotone<SqrtD>(tri(4000)));
  BOOST_TEST((first_wrong<SqrtX, Fused>(tri(4000))) == (first_wrong_monotone<SqrtX, Fused>(tri(4000))));
}

// LTM-N (three Newton steps from 0x5f3759df, + 1e-4), rounding pinned (no FMA).
// Claim (000 §IV-A, 001 §V): "adding eps = 1e-4 ... fixes approximation errors in
// the range N in [0, 30720]" at rho = 16. The oracle REFUTES it for this rounding:
// the first wrong block index is 1316253, so the largest exact N at rho = 16 is
// 25952 < 30720. (The papers' binaries may have been compiled with FMA
// contraction, which rounds differently: see the FMA test below.) The constant itself:
// float_roots_match_their_constants.
BOOST_AUTO_TEST_CASE(ltm_n_constant_refutes_30720_claim) {
  BOOST_TEST(largest_N(limits::ltm_n_blocks, 16) == 25952);
  BOOST_TEST(largest_N(limits::ltm_n_blocks, 16) < 30720);
}

// The same maps as the papers' binaries computed them (FMA-contracted, rounding policy
// Fused), exact below the fma constants and wrong at them. LTM-X: its only product
// (2 lambda) is exact, so the range is the pinned one. LTM-N: the fused Newton steps and
// x*y + eps make it fail EARLIER, at lambda = 1166628 (N <= 24432 at rho = 16): the 30720
// claim is refuted in both modes. (The constants: float_roots_match_their_constants; here the
// exhaustive search agrees with ltm-x's row ends.)
BOOST_AUTO_TEST_CASE(ltm_fma_ranges_match_constants) {
  BOOST_TEST((first_wrong<SqrtX, Fused>(1ull << 32)) == limits::ltm_x_fma_blocks);
  BOOST_TEST(largest_N(limits::ltm_n_fma_blocks, 16) == 24432);
  // the two modes really differ below the pinned limit: the fused row is wrong at its limit
  const u64 l = limits::ltm_n_fma_blocks;
  BOOST_TEST((SqrtN::row<u64, Fused>(l).k) != tri_root(l));
  BOOST_TEST(SqrtN::row(l).k == tri_root(l));
}

// The float tetrahedral layer (003 eq. (14), TetRootF, host cbrtf) in both modes: exact
// below limits::tet_f_blocks = 10 and wrong at it (layer 3's first block):
// float_roots_match_their_constants.

// LTM-R: the device's rsqrtf is approximate, so the host cannot reproduce it; the
// GPU sweep measures its range. Here: the exact reference it must match (LTM-E)
// agrees with the true row over the whole range the papers used (N <= 30720 at
// rho = 16 -> 1844160 blocks), and the host's correctly rounded emulation of
// x * rsqrt(x) + eps is exact over that range as well.
BOOST_AUTO_TEST_CASE(ltm_r_reference_over_paper_range) {
  const u64 blocks = tri(30720 / 16);
  BOOST_TEST(first_wrong<SqrtE>(blocks) == blocks);
  BOOST_TEST(first_wrong<SqrtR>(blocks) == blocks);
}

// UTM (Avril), float evaluation of the published formula. Claim (000 §II): the
// fast square root is accurate for x in [0, 100M], "problems in the range
// N in [0, 3000]". The oracle finds utm-x (plain sqrtf, no repair) exact up to
// N = 4096 and utm-n (fast sqrt + the two repair conditionals) up to N = 5792:
// the claim holds as a safe bound and is conservative by 1.4x-1.9x. Every N up to each
// limit is proven, in both rounding modes, in test_utm_ranges (row ends / the square-root
// band); the sharp side (limit + 1 is wrong, FMA-contracted too: utm-x keeps N <= 4096, its
// fused (4n)n - 4n rounds the same way at the boundary) in float_roots_match_their_constants;
// here the constants are checked against the claim.
BOOST_AUTO_TEST_CASE(utm_ranges_hold_the_claim) {
  BOOST_TEST(UTM_X::max_N >= 3000);
  BOOST_TEST(UTM_N::max_N >= 3000);
}

// (The strict variant, eq. (9) of 000, is in test_printed_forms.cpp.)

// plan() refuses sizes past a variant's range with one line naming the limit.
BOOST_AUTO_TEST_CASE(plans_refuse_past_exact_range) {
  BOOST_CHECK_THROW(LTM_N::plan(30720, 16), unsupported);
  BOOST_CHECK_NO_THROW(LTM_N::plan(25952, 16));
  BOOST_CHECK_NO_THROW(LTM_N::plan(30720, 16, /*allow_inexact=*/true));
  BOOST_CHECK_THROW(UTM_X::plan(UTM_X::max_N + 1, 16), unsupported);
  BOOST_CHECK_THROW(LTM_X::plan(largest_N(limits::ltm_x_blocks, 16) + 16, 16), unsupported);
  BOOST_CHECK_NO_THROW(LTM_X::plan(largest_N(limits::ltm_x_blocks, 16), 16));
  try {
    LTM_N::plan(30720, 16);
  } catch (const unsupported& e) {
    const std::string w = e.what();
    BOOST_TEST(w.find('\n') == std::string::npos);
    BOOST_TEST(w.find("25952") != std::string::npos);
  }
  for (i64 bad : {0, -1, -1000}) BOOST_CHECK_THROW(BB::plan(bad, 16), unsupported);
  BOOST_CHECK_THROW(BB::plan(100, 0), unsupported);
  BOOST_CHECK_THROW(BB3::plan(100, 11), unsupported);  // 11^3 > 1024 threads
  BOOST_CHECK_THROW(REC::plan(1000, 16), unsupported);  // not a multiple of rho
  BOOST_CHECK_THROW(REC::plan(16 * 3, 16), unsupported);  // N/rho odd: k = 0
}
