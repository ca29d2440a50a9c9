// Coverage and uniqueness of the 3D maps (003_66f856975a7ab3ee.txt) on the
// tetrahedral domain {0 <= x <= y <= z < N}. Every plan of the sweeps is narrow, and
// the walks check cell<i32> = cell<i64> on every launched thread (block)
// (oracle.hpp Coverage::path_mismatch).
#define BOOST_TEST_MODULE maps3d
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "oracle.hpp"

namespace bdata = boost::unit_test::data;
namespace utf = boost::unit_test;
using namespace tdmaps;
using namespace tdmaps::oracle;

namespace {
// The maps of the sweeps come from the registry (src/lib/tdmaps/registry.hpp maps3d), as
// test_maps2d's do from maps2d: every 3D map is blockwise (counts.hpp counts3_closed) and joins
// the block-level and thread-level sweeps and the path checks by itself; the TET<R> maps
// (registry.hpp is_tet) join the checks of g and of the narrow switch too. What a map's grid
// launches follows from its kind:
//   TET<R>     the block pyramid: tet(n) blocks, none wasted;
//   any other  the bounding cube (bb3): n x n x n blocks, n^3 - tet(n) of them wasted
//              (a 3D map of another shape fails here until its count is written down).
// A map whose plan refuses sizes past its proven range (tet-f: exact_blocks = 10, n <= 3) is
// walked up to that range, and its plan must refuse the next size.
std::vector<std::string> names3(bool tet_only) {
  std::vector<std::string> v;
  for_each_map(maps3d{}, [&](auto m) {
    using M = decltype(m);
    static_assert(M::blockwise, "test_maps3d: a 3D thread map needs sweeps of its own");
    if (!tet_only || is_tet<M>::value) v.push_back(M::name);
  });
  return v;
}
const std::vector<std::string> all_maps3 = names3(false);
const std::vector<std::string> tet_maps3 = names3(true);

// Runs f(M{}) for the 3D map named `name`.
template <class F>
void dispatch3(const std::string& name, F&& f) {
  const bool found = with_map(maps3d{}, name.c_str(), [&](auto m) { f(m); });
  BOOST_TEST_REQUIRE(found, "unknown map " << name);
}

// M's plan for (N, rho), or false where plan() refuses it; a refusal must lie past a TET
// map's exact range (any other map refuses none of these sizes).
template <class M>
bool accepted3(i64 N, int rho, i64 n) {
  try {
    (void)M::plan(N, rho);
    return true;
  } catch (const unsupported&) {
    if constexpr (is_tet<M>::value) BOOST_TEST(tet(u64(n)) > M::exact_blocks, M::name << " refuses n=" << n);
    else BOOST_TEST_FAIL(M::name << " refuses n=" << n);
    return false;
  }
}

// Block level for each n of `ns` in turn (while the map's plan accepts it).
void blocks3(const std::string& name, const std::vector<i64>& ns) {
  dispatch3(name, [&](auto m) {
    using M = decltype(m);
    std::vector<uint8_t> seen;
    std::vector<i64> walked;
    i64 last = 0;  // the last n of ns that M's plan must accept
    for (i64 n : ns) {
      bool in_range = true;  // a TET map's plan accepts n exactly while tet(n) <= exact_blocks
      if constexpr (is_tet<M>::value) in_range = tet(u64(n)) <= M::exact_blocks;
      if (in_range) last = n;
      if (!accepted3<M>(n, 1, n)) break;
      const Coverage c = walk3_blocks<M>(n, seen);
      if (!c.ok() || !c.narrow) BOOST_TEST_FAIL(name << " n=" << n << ": " << c.str());
      if constexpr (is_tet<M>::value) {
        BOOST_TEST_REQUIRE(c.launched_blocks == tet(u64(n)), name << " n=" << n);
      } else {
        const Dim3 g = M::grid(M::plan(n, 1));
        BOOST_TEST_REQUIRE((g.x == u64(n) && g.y == u64(n) && g.z == u64(n)),
                           name << " n=" << n << ": neither a TET<R> nor a bounding cube; write its count here");
        BOOST_TEST_REQUIRE(c.launched_blocks - c.useful_blocks == u64(n * n * n) - tet(u64(n)), name << " n=" << n);
      }
      walked.push_back(n);
    }
    const i64 top = walked.empty() ? 0 : walked.back();
    BOOST_TEST(top == last, name << ": walked up to n=" << top << ", its plan accepts up to n=" << last);
    std::string done;  // the sizes walked: 1..top (ns are 1..top then) or their list
    if (walked.size() > 2) done = "1.." + std::to_string(top);
    else for (i64 n : walked) done += (done.empty() ? "" : ", ") + std::to_string(n);
    const std::string refused =
        walked.size() < ns.size() ? "plan() refuses n = " + std::to_string(ns[walked.size()]) : "";
    if (walked.empty()) BOOST_TEST_MESSAGE(name << ": not walked, past its exact range (" << refused << ")");
    else BOOST_TEST_MESSAGE(name << ": block-level coverage proven for n = " << done
                                 << (refused.empty() ? "" : " (its exact range; " + refused + ")"));
  });
}
std::vector<i64> every_n_up_to(i64 top) {
  std::vector<i64> v;
  for (i64 n = 1; n <= top; ++n) v.push_back(n);
  return v;
}
}  // namespace
// Block level for every n = 1..96 block layers and for n = 255, 256 (slow: every n <= 256).
BOOST_DATA_TEST_CASE(blocks_every_n_up_to_96, bdata::make(all_maps3), name) { blocks3(name, every_n_up_to(96)); }
BOOST_DATA_TEST_CASE(blocks_n_255_and_256, bdata::make(all_maps3), name) { blocks3(name, {255, 256}); }
BOOST_TEST_DECORATOR(*utf::label("slow"))
BOOST_DATA_TEST_CASE(blocks_every_n_up_to_256, bdata::make(all_maps3), name) { blocks3(name, every_n_up_to(256)); }

// Thread level for every N = 1..64 (up to a map's exact range) and rho in {2, 4, 8} (rho^3 <= 1024).
BOOST_DATA_TEST_CASE(threads_every_N_up_to_64, bdata::make(all_maps3) * bdata::make({2, 4, 8}), name, rho) {
  dispatch3(name, [&](auto m) {
    using M = decltype(m);
    std::vector<uint8_t> seen;
    for (i64 N = 1; N <= 64; ++N) {
      if (!accepted3<M>(N, rho, ceil_div(N, i64(rho)))) break;
      const Coverage c = walk3<M>(N, rho, seen);
      if (!c.ok() || !c.narrow) BOOST_TEST_FAIL(name << " N=" << N << " rho=" << rho << ": " << c.str());
    }
  });
}

// The exact tetrahedral map as a bijection lambda <-> (x, y, z) for EVERY lambda < tet(layers):
// enumerate layers z, rows y, columns x in order and compare. Its layer and row estimates are
// proven within one for every lambda of the narrow path from layer and row boundaries
// (test_index_paths); this walk cross-checks the composition: tet(512) in make verify,
// tet(2048) (1.4e9 lambdas) in make verify-full.
namespace {
void tet_e_bijection(u64 layers) {
  std::atomic<u64> bad{0};
  parallel_for(layers, [&](u64 z0, u64 z1) {
    for (u64 z = z0; z < z1; ++z) {
      u64 l = tet(z);
      for (u64 y = 0; y <= z; ++y)
        for (u64 x = 0; x <= y; ++x, ++l) {
          const Cell3 c = TET_E::g(l);
          if (c.x != i64(x) || c.y != i64(y) || c.z != i64(z)) ++bad;
        }
    }
  });
  BOOST_TEST(bad.load() == 0u);
}
}  // namespace
BOOST_AUTO_TEST_CASE(tet_e_bijection_every_lambda_below_tet_512) { tet_e_bijection(512); }
BOOST_AUTO_TEST_CASE(tet_e_bijection_every_lambda_below_tet_2048, *utf::label("slow")) { tet_e_bijection(2048); }

// (eq. (14) at lambda = 0, NaN, and its float range: test_printed_forms.cpp, test_exact.cpp.)

// ---- the index paths (plan.hpp Plan3::narrow) ------------------------------------------
namespace {
// map_3d.hpp TET::plan: a one-row grid (tet(n) < 2^31) and tet(n + 2) < 2^32 (the
// corrections of estimates up to n + 1), from 128-bit products.
bool tet_narrow_expected(u64 n) {
  using u128 = unsigned __int128;
  const auto T = [](u64 k) { return u128(k) * (k + 1) * (k + 2) / 6; };
  return T(n) < (u128(1) << 31) && T(n + 2) < (u128(1) << 32);
}
}  // namespace

// Every 3D map of the registry, every N <= 48 at rho 2/4/8 (tet-f past its exact range,
// allow_inexact): narrow, and cell<i32> = cell<i64> on every launched thread.
BOOST_DATA_TEST_CASE(narrow_and_wide_agree, bdata::make(all_maps3) * bdata::make({2, 4, 8}), name, rho) {
  dispatch3(name, [&](auto m) {
    using M = decltype(m);
    for (i64 N = 1; N <= 48; ++N) {
      const Plan3 p = M::plan(N, rho, /*allow_inexact=*/true);
      BOOST_TEST_REQUIRE(p.narrow, name << " N=" << N);
      const u64 bad = path_mismatches3<M>(p);
      if (bad) BOOST_TEST_FAIL(name << " N=" << N << " rho=" << rho << ": " << bad << " threads differ");
    }
  });
}

// g<i32>(lambda) = g<i64>(lambda) for every lambda of the block-level sweeps
// (lambda < tet(256)) in each map's exact range. (tet-f is exact below 10 only; past
// that its layer can be one too large, l - tet(z) wraps, and the two widths wrap to
// different garbage: first at lambda = 2763519, z = 254.)
BOOST_DATA_TEST_CASE(narrow_and_wide_agree_g, bdata::make(tet_maps3), name) {
  dispatch3(name, [&](auto m) {
    using M = decltype(m);
    if constexpr (is_tet<M>::value) {
      u64 bad = 0;
      const u64 top = std::min<u64>(tet(256), M::exact_blocks);
      for (u64 l = 0; l < top; ++l) bad += !paths_agree(M::template g<i32>(u32(l)), M::template g<i64>(l));
      BOOST_TEST(bad == 0u);
    }
  });
}

// TET: narrow exactly when tet(n) < 2^31 and tet(n+2) < 2^32 (n <= 2343), for every
// n <= 3000 at rho 1 and n <= 3000 step 7 at rho 2, 4, 8 (N = n rho and the smallest
// N with that n). At the switch the exact maps' paths agree on the last 2^20 lambdas of
// the largest narrow plan and on every thread of its last 512 blocks at rho 8.
BOOST_DATA_TEST_CASE(narrow_switch_tet, bdata::make(tet_maps3), name) {
  dispatch3(name, [&](auto m) {
    using M = decltype(m);
    if constexpr (is_tet<M>::value) {
      u64 wrong = 0, last_narrow = 0;
      for (int rho : {1, 2, 4, 8})
        for (u64 n = 1; n <= 3000; n += rho == 1 ? 1 : 7)
          for (i64 N : {i64(n) * rho, i64(n - 1) * rho + 1}) {
            const bool nar = M::plan(N, rho, true).narrow;
            if (nar != tet_narrow_expected(n)) ++wrong;
            if (nar && rho == 1) last_narrow = std::max(last_narrow, n);
          }
      BOOST_TEST(wrong == 0u);
      BOOST_TEST(last_narrow == 2343u);
      const Plan3 p = M::plan(2343 * 8, 8, true);
      BOOST_TEST_REQUIRE(p.narrow);
      BOOST_TEST(p.gx == p.total);  // one-row grid: linear_block<u32> is bx
      if (p.total > M::exact_blocks) return;  // tet-f: garbage on both paths there
      u64 bad = 0;
      for (u64 l = p.total - (1u << 20); l < p.total; ++l)
        bad += !paths_agree(M::template g<i32>(u32(l)), M::template g<i64>(l));
      BOOST_TEST(bad == 0u);
      BOOST_TEST(path_mismatches3<M>(p, u32(p.total - 512), u32(p.total)) == 0u);
    }
  });
}

// BB3: narrow on every plan it accepts (n <= 65535, rho <= 10).
BOOST_AUTO_TEST_CASE(narrow_switch_bb3) {
  for (int rho = 1; rho <= 10; ++rho) BOOST_TEST(BB3::plan(65535 * i64(rho), rho).narrow, "rho=" << rho);
}
