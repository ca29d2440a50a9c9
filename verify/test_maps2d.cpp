// Coverage and uniqueness of the 2D maps, by exhaustion, on the map headers the
// kernels use. "ok" means: every cell of the domain {0 <= j <= i < N} is produced
// exactly once, and nothing outside it is produced, and (every plan of these sweeps is
// narrow) the narrow path cell<i32> gives what the wide cell<i64> gives for every
// launched thread (block): oracle.hpp Coverage::path_mismatch.
// Sizes: `make verify` walks every size up to a bound that covers every residue of N mod rho
// and the grids' shapes many times over, plus the sizes at each map's own edges; the same walks
// up to the full bounds (every n <= 2048 blocks, every N <= 1024 threads, RB and UTM every N <=
// 2048, REC every N <= 4096) are labelled 'slow' and run in `make verify-full`. The exact ranges
// of the float maps are proven from row boundaries for every size (test_exact, test_utm_ranges).
#define BOOST_TEST_MODULE maps2d
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "oracle.hpp"

#include <tdmaps/counts.hpp>

namespace bdata = boost::unit_test::data;
namespace utf = boost::unit_test;
using namespace tdmaps;
using namespace tdmaps::oracle;

namespace {
// The maps of each sweep come from the registry (src/lib/tdmaps/registry.hpp maps2d), by their traits:
//   block level  every blockwise map whose arithmetic the host runs as the device does: not the
//                maps of the device's approximate rsqrtf (ltm-r, ltm-r-sq: the host only emulates
//                it), and not REC (it accepts N = m 2^k only: its own sweep below)
//   thread level (the other walks) the maps of neither list: bb-t, ltm-r, ltm-r-sq
// RB, REC and UTM have sweeps of their own. A map added to the registry joins these by itself.
template <class M> constexpr bool walks_block_level() {
  if constexpr (!M::blockwise || std::is_same_v<M, REC>) return false;
  else if constexpr (is_ltm<M>::value) return M::sqrt_policy::host_exact_repro;
  else return true;
}
template <class M> constexpr bool own_sweep() { return std::is_same_v<M, RB> || std::is_same_v<M, REC> || is_utm<M>::value; }
std::vector<std::string> names_where(int which) {  // 0: every map; 1: block level; 2: thread level only
  std::vector<std::string> v;
  for_each_map(maps2d{}, [&](auto m) {
    using M = decltype(m);
    const bool block = walks_block_level<M>(), other = !block && !own_sweep<M>();
    if (which == 0 || (which == 1 && block) || (which == 2 && other)) v.push_back(M::name);
  });
  return v;
}
// The LTM variants of the registry on our linear grid (LTM<S>; not the papers' grid, LtmSquare, whose g is the
// same): every one (narrow_and_wide_agree_g), and those whose row() the host runs as the device does, exact over
// every lambda the block-level sweeps produce (block_level_property_ltm). A new root joins both by itself.
template <class M> struct is_linear_ltm : std::false_type {};
template <class S> struct is_linear_ltm<LTM<S>> : std::true_type {};
// keep(m) is asked of each linear LTM m alone, in the registry's order.
template <class Keep> std::vector<std::string> ltm_names_where(Keep&& keep) {
  std::vector<std::string> v;
  for_each_map(maps2d{}, [&](auto m) {
    if constexpr (is_linear_ltm<decltype(m)>::value)
      if (keep(m)) v.push_back(decltype(m)::name);
  });
  return v;
}
std::vector<std::string> ltm_names(bool exact_on_host_only) {
  const u64 lambdas = tri(2048);  // the block-level sweeps' grids, n <= 2048
  return ltm_names_where([&](auto m) {
    using M = decltype(m);
    return !exact_on_host_only || (M::sqrt_policy::host_exact_repro && M::exact_blocks >= lambdas);
  });
}
// The linear LTM variants exact past the narrow path's last grid, n = 65535 (past_switch: ltm-d, ltm-e), or not.
std::vector<std::string> ltm_names_by_range(bool past_switch) {
  const u64 switch_lambdas = tri(65535);  // map_ltm.hpp narrow_max_n
  return ltm_names_where([&](auto m) { return (decltype(m)::exact_blocks >= switch_lambdas) == past_switch; });
}
const std::vector<std::string> all_maps = names_where(0);
const std::vector<std::string> blockwise_maps = names_where(1);
const std::vector<std::string> thread_only_maps = names_where(2);
const int rhos[] = {8, 16, 32};

// Runs f<M>() for the 2D map named `name`.
template <class F>
void dispatch(const std::string& name, F&& f) {
  const bool found = with_map(maps2d{}, name.c_str(), [&](auto m) { f(m); });
  BOOST_TEST_REQUIRE(found, "unknown map " << name);
}

// Block level, literally: for EVERY n = 1..top block rows (and the sizes in `extra`), walk
// every block the plan launches and check the block cells cover the n x n lower triangle once.
// Float variants are walked up to the largest n their proven range allows, and plan() must
// refuse the first n past it (ltm-n: n = 1623, tri(1623) > 1316253).
void block_level_walk(const std::string& name, i64 top, std::vector<i64> extra) {
  dispatch(name, [&](auto m) {
    using M = decltype(m);
    if constexpr (M::blockwise) {
    std::vector<uint8_t> seen;
    std::vector<i64> ns;
    for (i64 n = 1; n <= top; ++n) ns.push_back(n);
    for (i64 n : extra) if (n > top) ns.push_back(n);
    i64 walked = 0, refused_at = 0;
    for (i64 n : ns) {
      typename M::Params p;
      try {
        p = M::plan(n, 1);
      } catch (const unsupported&) {
        if constexpr (is_ltm<M>::value) BOOST_TEST(tri(u64(n)) > M::exact_blocks);
        refused_at = n;
        break;
      }
      const Coverage c = walk2_blocks<M>(n, 1, seen);
      if (!c.ok() || !c.narrow) BOOST_TEST_FAIL(name << " n=" << n << ": " << c.str());
      walked = n;
    }
    BOOST_TEST_MESSAGE(name << ": block-level coverage proven for n = 1.." << std::min(walked, top)
                            << (walked > top ? " and at its edges up to " + std::to_string(walked) : std::string()));
    if constexpr (std::is_same_v<M, LTM_N>) {
      BOOST_TEST(walked == 1622);  // tri(1623) > 1316253
      BOOST_TEST(refused_at == 1623);
    } else if constexpr (is_ltm<M>::value) {  // a float map: up to its proven range, then refused
      i64 last = 0;
      for (i64 n : ns)
        if (tri(u64(n)) <= M::exact_blocks) last = n;
      BOOST_TEST(walked == last);
    } else {
      BOOST_TEST(walked == ns.back());
    }
    }
  });
}
const std::vector<i64> block_edges = {1621, 1622, 1623, 2047, 2048};
}  // namespace

BOOST_DATA_TEST_CASE(block_level_every_n_up_to_384_and_edges, bdata::make(blockwise_maps), name) {
  block_level_walk(name, 384, block_edges);
}
BOOST_TEST_DECORATOR(*utf::label("slow"))
BOOST_DATA_TEST_CASE(block_level_every_n_up_to_2048, bdata::make(blockwise_maps), name) {
  block_level_walk(name, 2048, {});
}

// Block level, by property: g(lambda) equals the true row for every lambda the
// grids for n <= 2048 can produce (lambda < tri(2048)), and the grid launches
// exactly tri(n) blocks; with j = lambda - tri(i) this makes g a bijection from
// [0, tri(n)) onto the n x n block triangle, for every n <= 2048 at once.
BOOST_DATA_TEST_CASE(block_level_property_ltm, bdata::make(ltm_names(true)), name) {
  dispatch(name, [&](auto m) {
    using M = decltype(m);
    if constexpr (is_ltm<M>::value) {
      const u64 limit = tri(2048);
      BOOST_TEST(first_wrong_row([](u64 l) { return M::sqrt_policy::row(l).k; }, limit) == limit);
      for (i64 n : {1, 2, 3, 1000, 2048}) BOOST_TEST(M::plan(n, 1).total == tri(u64(n)));
    }
  });
}

// Thread level: every N = 1..top (multiples of rho or not) and the sizes just below `top_edge`,
// rho in {8, 16, 32}.
namespace {
std::vector<i64> sizes_up_to(i64 top, i64 edge_from, i64 edge_to) {
  std::vector<i64> v;
  for (i64 N = 1; N <= top; ++N) v.push_back(N);
  for (i64 N = std::max(top + 1, edge_from); N <= edge_to; ++N) v.push_back(N);
  return v;
}
template <class M>
void thread_walk(const std::string& name, int rho, const std::vector<i64>& Ns) {
  std::vector<uint8_t> seen;
  for (i64 N : Ns) {
    const Coverage c = walk2<M>(N, rho, seen);
    if (!c.ok() || !c.narrow) BOOST_TEST_FAIL(name << " N=" << N << " rho=" << rho << ": " << c.str());
  }
}
void thread_level(const std::string& name, int rho, const std::vector<i64>& Ns) {
  dispatch(name, [&](auto m) { thread_walk<decltype(m)>(name, rho, Ns); });
}
}  // namespace
BOOST_DATA_TEST_CASE(thread_level_every_N_up_to_192_and_near_1024, bdata::make(blockwise_maps) * bdata::make(rhos), name, rho) {
  thread_level(name, rho, sizes_up_to(192, 1024 - 2 * rho, 1024));
}
BOOST_TEST_DECORATOR(*utf::label("slow"))
BOOST_DATA_TEST_CASE(thread_level_every_N_up_to_1024, bdata::make(blockwise_maps) * bdata::make(rhos), name, rho) {
  thread_level(name, rho, sizes_up_to(1024, 0, 0));
}

// RB at thread level for every N = 1..top, even and odd.
namespace {
void rb_walk(int rho, const std::vector<i64>& Ns) {
  thread_walk<RB>("rb", rho, Ns);
  for (i64 N : Ns) {
    // RB wastes no thread of its rectangle for even N and (N+1)/2 for odd N.
    const u64 rect = u64(N + 1) * u64((N + 1) / 2);
    BOOST_TEST(rect - tri(u64(N)) == u64(N % 2 ? (N + 1) / 2 : 0));
  }
}
}  // namespace
BOOST_DATA_TEST_CASE(rb_every_N_up_to_384_and_near_2048, bdata::make(rhos), rho) {
  rb_walk(rho, sizes_up_to(384, 2048 - 2 * rho, 2048));
}
BOOST_TEST_DECORATOR(*utf::label("slow"))
BOOST_DATA_TEST_CASE(rb_every_N_up_to_2048, bdata::make(rhos), rho) { rb_walk(rho, sizes_up_to(2048, 0, 0)); }

// Thread level for the maps that no block-level sweep walks (thread_only_maps above: bb-t, BB
// filtering by thread; ltm-r and ltm-r-sq, the host's correctly rounded rsqrt, well inside
// ltm-r's range) at rho 8/16/32.
BOOST_DATA_TEST_CASE(variants_thread_level_every_N_up_to_192_and_near_1024, bdata::make(thread_only_maps) * bdata::make(rhos), name, rho) {
  thread_level(name, rho, sizes_up_to(192, 1024 - 2 * rho, 1024));
}
BOOST_TEST_DECORATOR(*utf::label("slow"))
BOOST_DATA_TEST_CASE(variants_thread_level_every_N_up_to_1024, bdata::make(thread_only_maps) * bdata::make(rhos), name, rho) {
  thread_level(name, rho, sizes_up_to(1024, 0, 0));
}

// Launched and useful blocks of the variants (counts.hpp counts2, what the CSVs report):
//   bb-t      n^2 launched, like bb; a block is useful when one of its threads maps inside;
//   rb-b      (n+1) ceil(n/2) launched, (n+1)/2 of them wasted for odd n, none for even n;
//   ltm-*-sq  n'^2 launched, n' = ceil(sqrt(n(n+1)/2)); useful n(n+1)/2; wasted
//             n'^2 - n(n+1)/2 < 2n' - 1 (000 §III-A's O(n) wasted blocks);
//   ltm-lut   n(n+1)/2 launched, all useful.
BOOST_AUTO_TEST_CASE(variants_counts) {
  for (i64 n = 1; n <= 400; ++n)
    for (int rho : {1, 16}) {
      if (rho == 16 && n > 96 && n < 398) continue;  // counts2 walks the threads: rho 16 costs 256x
      const i64 N = n * rho;
      const Counts bt = counts2<BB_T>(BB_T::plan(N, rho));
      BOOST_TEST(bt.launched_blocks == u64(n * n));
      BOOST_TEST(bt.useful_blocks == tri(u64(n)));
      const Counts rbb = counts2<RB_B>(RB_B::plan(N, rho));
      BOOST_TEST(rbb.launched_blocks == u64(n + 1) * u64((n + 1) / 2));
      BOOST_TEST(rbb.useful_blocks == tri(u64(n)));
      BOOST_TEST(rbb.wasted_blocks() == u64(n % 2 ? (n + 1) / 2 : 0));
      const u64 side = ceil_sqrt_u64(tri(u64(n)));
      BOOST_TEST(side * side >= tri(u64(n)));
      BOOST_TEST((side - 1) * (side - 1) < tri(u64(n)));
      for (const Counts& c : {counts2<LTM_E_SQ>(LTM_E_SQ::plan(N, rho)), counts2<LTM_R_SQ>(LTM_R_SQ::plan(N, rho)),
                              counts2<LTM_X_SQ>(LTM_X_SQ::plan(N, rho)), counts2<LTM_N_SQ>(LTM_N_SQ::plan(N, rho)),
                              counts2<LTM_D_SQ>(LTM_D_SQ::plan(N, rho))}) {
        BOOST_TEST(c.launched_blocks == side * side);
        BOOST_TEST(c.useful_blocks == tri(u64(n)));
        BOOST_TEST(c.wasted_blocks() + 1 < 2 * side);  // n'^2 - tri(n) < n'^2 - (n'-1)^2
      }
      const Counts lut = counts2<LTM_LUT>(LTM_LUT::plan(N, rho));
      BOOST_TEST(lut.launched_blocks == tri(u64(n)));
      BOOST_TEST(lut.wasted_blocks() == 0u);
    }
  // the square grid's refusal (n' > 65535) and the table's (n > 23169)
  BOOST_TEST(LTM_E_SQ::plan(92679, 1).gx == 65535u);  // tri(92679) = 4,294,744,860 <= 65535^2
  BOOST_CHECK_THROW(LTM_E_SQ::plan(92680, 1), unsupported);
  BOOST_TEST(!LTM_E_SQ::plan(65536, 1).narrow);
  BOOST_TEST(LTM_E_SQ::plan(65535, 1).narrow);
  BOOST_TEST(LTM_LUT::plan(limits::ltm_lut_max_n, 1).total <= limits::ltm_lut_max_entries);
  BOOST_CHECK_THROW(LTM_LUT::plan(limits::ltm_lut_max_n + 1, 1), unsupported);
  BOOST_TEST(tri(u64(limits::ltm_lut_max_n + 1)) > limits::ltm_lut_max_entries);
}

// ltm-e-sq on its 64-bit path past the narrow switch: the last grid rows of n = 65536 block
// rows (lambda near tri(65536) > 2^31), every block: its g is ltm-e's g.
BOOST_AUTO_TEST_CASE(ltm_e_sq_wide_last_rows) {
  const LTM_E_SQ::Params p = LTM_E_SQ::plan(65536, 1);
  BOOST_TEST(!p.narrow);
  u64 bad = 0, inside = 0;
  for (u32 by = p.gx - 3; by < p.gx; ++by)
    for (u32 bx = 0; bx < p.gx; ++bx) {
      const u64 l = u64(bx) + u64(by) * p.gx;
      const Cell2 c = LTM_E_SQ::block_cell(p, 0, bx, by);
      if (l >= p.total) { bad += c.inside; continue; }
      ++inside;
      const u64 i = tri_root(l);
      bad += !(c.inside && u64(c.i) == i && u64(c.j) == l - tri(i));
    }
  BOOST_TEST(bad == 0u);
  BOOST_TEST(inside > 0u);
}

// UTM at thread level: every N = 1..256 and near 2048 at rho 8/16/32 (slow: every N <= 2048 at
// rho = 16, N <= 512 at rho 8 and 32; only the thread index k depends on rho). That every
// thread maps to its cell for every N up to each limit (5792 for utm-n) is proven from the
// row boundaries in test_utm_ranges.
BOOST_DATA_TEST_CASE(utm_every_N_up_to_256_and_near_2048, bdata::make({"utm-x", "utm-n"}) * bdata::make(rhos), name, rho) {
  thread_level(name, rho, sizes_up_to(256, 2040, 2048));
}
BOOST_TEST_DECORATOR(*utf::label("slow"))
BOOST_DATA_TEST_CASE(utm_every_N_up_to_2048, bdata::make({"utm-x", "utm-n"}) * bdata::make(rhos), name, rho) {
  thread_level(name, rho, sizes_up_to(rho == 16 ? 2048 : 512, 0, 0));
}

// REC at thread level for every valid N <= top (and N = 4096), and refusal of every other N.
namespace {
void rec_walk(int rho, i64 top) {
  std::vector<uint8_t> seen;
  int valid = 0;
  for (i64 N = 1; N <= 4096; ++N) {
    const bool ok_size = N % rho == 0 && (N / rho) % 2 == 0;
    bool accepted = true;
    try {
      REC::plan(N, rho);
    } catch (const unsupported&) {
      accepted = false;
    }
    BOOST_TEST(accepted == ok_size, "N=" << N);
    if (!accepted) continue;
    ++valid;
    if (N > top && N != 4096) continue;
    const Coverage c = walk2<REC>(N, rho, seen);
    if (!c.ok() || !c.narrow) BOOST_TEST_FAIL("rec N=" << N << " rho=" << rho << ": " << c.str());
  }
  BOOST_TEST(valid == 4096 / rho / 2);
}
}  // namespace
BOOST_DATA_TEST_CASE(rec_every_valid_N_up_to_1024_and_4096, bdata::make(rhos), rho) { rec_walk(rho, 1024); }
BOOST_TEST_DECORATOR(*utf::label("slow"))
BOOST_DATA_TEST_CASE(rec_every_valid_N_up_to_4096, bdata::make(rhos), rho) { rec_walk(rho, 4096); }

// 64-bit indices: N = 65537 (N^2 > 2^32). Block level exhaustively for ltm-e and
// bb; thread level for the blocks of the last block row, whose linear cell index
// i*N + j passes 2^32.
BOOST_AUTO_TEST_CASE(sixty_four_bit_N_65537) {
  const i64 N = 65537;
  const int rho = 16;
  std::vector<uint8_t> seen;
  BOOST_TEST(walk2_blocks<LTM_E>(ceil_div(N, rho), rho, seen).ok());
  const LTM_E::Params p = LTM_E::plan(N, rho);
  BOOST_TEST(p.total == tri(u64(p.n)));
  u64 produced = 0;
  for (u64 l = tri(u64(p.n - 1)); l < p.total; ++l) {
    const u32 bx = u32(l % p.gx), by = u32(l / p.gx);
    for (u32 ty = 0; ty < 16; ++ty)
      for (u32 tx = 0; tx < 16; ++tx) {
        const Cell2 c = LTM_E::cell(p, 0, bx, by, tx, ty);
        if (!c.inside) continue;
        BOOST_TEST_REQUIRE((c.i >= (p.n - 1) * rho && c.i < N && c.j <= c.i));
        const u64 lin = u64(c.i) * u64(N) + u64(c.j);
        BOOST_TEST_REQUIRE(lin > (1ull << 32));
        ++produced;
      }
  }
  // the last block row holds rows (n-1)*rho .. N-1: here only row 65536, 65537 cells
  BOOST_TEST(produced == u64(N));
}

// ---- the index paths (plan.hpp PlanBase::narrow) ------------------------------------------

// Every 2D map of the registry (ltm-r included: the host's emulation, not walked above),
// every N <= 256 it accepts at rho 8/16/32: narrow, and cell<i32> = cell<i64> on every
// launched thread of every pass.
BOOST_DATA_TEST_CASE(narrow_and_wide_agree, bdata::make(all_maps) * bdata::make(rhos), name, rho) {
  dispatch(name, [&](auto m) {
    using M = decltype(m);
    u64 plans = 0;
    for (i64 N = 1; N <= 256; ++N) {
      typename M::Params p;
      try {
        p = M::plan(N, rho);
      } catch (const unsupported&) {
        continue;  // rec: N not m * 2^k
      }
      ++plans;
      BOOST_TEST_REQUIRE(p.narrow, name << " N=" << N);
      const u64 bad = path_mismatches2<M>(p);
      if (bad) BOOST_TEST_FAIL(name << " N=" << N << " rho=" << rho << ": " << bad << " threads differ");
    }
    BOOST_TEST(plans > 0u);
  });
}

// g<i32>(lambda) = g<i64>(lambda) for every lambda of the block-level sweeps
// (lambda < tri(2048)), for every LTM variant.
BOOST_DATA_TEST_CASE(narrow_and_wide_agree_g, bdata::make(ltm_names(false)), name) {
  dispatch(name, [&](auto m) {
    using M = decltype(m);
    if constexpr (is_ltm<M>::value) {
      u64 bad = 0;
      for (u64 l = 0; l < tri(2048); ++l) {
        const Cell2T<i32> a = M::template g<i32>(u32(l));
        const Cell2 b = M::template g<i64>(l);
        bad += !paths_agree(a, b);
      }
      BOOST_TEST(bad == 0u);
    }
  });
}

// LTM: narrow exactly for n = ceil(N/rho) <= 65535 (map_ltm.hpp narrow_max_n: lambda <
// tri(65535) < 2^31, a one-row grid), at every rho; wide from n = 65536 on. Variants
// whose exact range ends earlier are narrow on every plan they accept. At the switch
// (ltm-d, ltm-e): both paths agree on the last 2^20 lambdas and on every thread of the
// last 4096 blocks of the largest narrow plan, where e(e+1) approaches 2^32.
BOOST_DATA_TEST_CASE(narrow_switch_ltm, bdata::make({1, 8, 16, 32, 1024}), rho) {
  const i64 n_max = 65535;
  for (const std::string& name : ltm_names_by_range(true))
    dispatch(name, [&](auto m) {
      using M = decltype(m);
      if constexpr (is_ltm<M>::value) {
      const typename M::Params a = M::plan(n_max * rho, rho), b = M::plan(n_max * rho + 1, rho);
      BOOST_TEST(a.narrow, name << " N=" << n_max * rho << " rho=" << rho);
      BOOST_TEST(!b.narrow, name << " N=" << n_max * rho + 1 << " rho=" << rho);
      BOOST_TEST(M::plan((n_max - 1) * rho + 1, rho).narrow);  // n = 65535 too
      BOOST_TEST(a.total == tri(u64(n_max)));
      BOOST_TEST(a.gx == a.total);  // one-row grid: linear_block<u32> is bx
      if (rho == 16) {
      u64 bad = 0;
      for (u64 l = a.total - (1u << 20); l < a.total; ++l) bad += !paths_agree(M::template g<i32>(u32(l)), M::template g<i64>(l));
      BOOST_TEST(bad == 0u, name);
      BOOST_TEST(path_mismatches2<M>(a, 0, u32(a.total - 4096), u32(a.total), 0, 1) == 0u, name);
      }
      }
    });
  for (const std::string& name : ltm_names_by_range(false))
    dispatch(name, [&](auto m) {
      using M = decltype(m);
      if constexpr (is_ltm<M>::value) {
        u64 n = tri_root(M::exact_blocks);
        if (tri(n) > M::exact_blocks) --n;
        BOOST_TEST(M::plan(i64(n) * rho, rho).narrow, name << " rho=" << rho);
      }
    });
}

// BB, REC, RB: narrow on every plan they accept (their grids cap N at 65535 rho or
// 2 * 65535 rho, and N + 2 rho stays below 2^31 for every rho <= 1024).
// UTM: narrow on every N of its exact range; past it (allow_inexact) exactly while
// (N+2)^2 < 2^31, i.e. N <= 46338.
BOOST_DATA_TEST_CASE(narrow_switch_bb_rec_rb_utm, bdata::make({1, 16, 1024}), rho) {
  BOOST_TEST(BB::plan(65535 * i64(rho), rho).narrow);
  BOOST_CHECK_THROW(BB::plan(65535 * i64(rho) + 1, rho), unsupported);
  BOOST_TEST(REC::plan(65534 * i64(rho), rho).narrow);
  const i64 rb_max = 2 * 65535 * i64(rho);  // ceil(ceil(N/2)/rho) <= 65535
  BOOST_TEST(RB::plan(rb_max, rho).narrow);
  BOOST_CHECK_THROW(RB::plan(rb_max + 1, rho), unsupported);
  if (rho <= 32) {
    BOOST_TEST(UTM_X::plan(UTM_X::max_N, rho).narrow);
    BOOST_TEST(UTM_N::plan(UTM_N::max_N, rho).narrow);
    BOOST_TEST(UTM_N::plan(46338, rho, true).narrow);
    BOOST_TEST(!UTM_N::plan(46339, rho, true).narrow);
  }
}
