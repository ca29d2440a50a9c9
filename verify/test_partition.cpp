// The lambda-range partition (src/lib/tdmaps/partition.hpp, issue #16): worker g of G takes
// the contiguous range lambda_range(total, G, g) of a map's block space [0, total).
// Proven here, for every map of the registries maps2d and maps3d (every pass of REC),
// on the narrow (u32 ranges, u32 block indices, cell<i32>) and the wide (u64, cell<i64>)
// path:
//   (1) arithmetic: for every G = 1..64 the G ranges start at 0, each starts where the
//       previous one ends, the last ends at total, and their sizes differ by at most one;
//       the u32 ranges equal the u64 ones for every total below 2^32. Over the block
//       spaces of the oracle's sweep sizes (test_maps2d / test_maps3d) and a few huge
//       totals (2^31 .. 2^46, 65535^3, near 2^64/64, 2^64 - 1).
//   (2) cells: walking every worker's range, block_at(grid, lambda) and every thread of
//       each block produce every domain cell exactly once over all workers and nothing
//       outside the domain (the oracle's exactly-once walk, oracle.hpp walk2 / walk3,
//       taken through the partition), on both paths, which agree thread by thread.
// (G > max_workers is the callers' to refuse: partition.hpp has no checks to test.)
#define BOOST_TEST_MODULE partition
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "oracle.hpp"

#include <tdmaps/partition.hpp>

#include <mutex>
#include <sstream>
#include <unordered_set>

namespace bdata = boost::unit_test::data;
using namespace tdmaps;
using namespace tdmaps::oracle;

namespace {
// The names of every map of a registry list (registry.hpp), in registry order.
template <class... Ms>
std::vector<std::string> names_of(map_list<Ms...>) { return {std::string(Ms::name)...}; }
const std::vector<std::string> names2d = names_of(maps2d{});
const std::vector<std::string> names3d = names_of(maps3d{});

template <class F>
void dispatch2(const std::string& name, F&& f) {
  const bool found = with_map(maps2d{}, name.c_str(), [&](auto m) { f(m); });
  BOOST_TEST_REQUIRE(found, "unknown map " << name);
}
template <class F>
void dispatch3(const std::string& name, F&& f) {
  const bool found = with_map(maps3d{}, name.c_str(), [&](auto m) { f(m); });
  BOOST_TEST_REQUIRE(found, "unknown map " << name);
}

// ---- (1) the arithmetic ------------------------------------------------------------------
// Failures of the partition of `total` into G = 1..max_workers ranges, on u64 and, when
// total < 2^32, on u32 (equal to the u64 ranges). 0 when every G partitions [0, total).
u64 range_failures(u64 total, std::string* first = nullptr) {
  u64 bad = 0;
  const auto fail = [&](u32 G, u32 g, const char* what) {
    if (bad++ == 0 && first) {
      std::ostringstream s;
      s << "total=" << total << " G=" << G << " g=" << g << ": " << what;
      *first = s.str();
    }
  };
  const bool narrow = narrow_block_space(total);
  for (u32 G = 1; G <= max_workers; ++G) {
    u64 end = 0, smallest = ~u64(0), largest = 0;
    for (u32 g = 0; g < G; ++g) {
      const LambdaRange r = lambda_range<u64>(total, G, g);
      if (r.begin != end) fail(G, g, "does not start where the previous range ends");
      if (r.end < r.begin) fail(G, g, "ends before it starts");
      if (r.empty() != (r.size() == 0)) fail(G, g, "empty() disagrees with size()");
      smallest = std::min(smallest, r.size());
      largest = std::max(largest, r.size());
      end = r.end;
      if (narrow) {
        const LambdaRangeT<u32> n = lambda_range<u32>(u32(total), G, g);
        if (n.begin != r.begin || n.end != r.end) fail(G, g, "u32 range differs from the u64 range");
      }
    }
    if (end != total) fail(G, G - 1, "the last range does not end at total");
    if (largest - smallest > 1) fail(G, 0, "sizes differ by more than one");
    if (smallest != total / G) fail(G, 0, "smallest size is not floor(total / G)");
  }
  return bad;
}

// Proves range_failures(total) == 0 once per distinct total (the ranges depend on the
// total only); counts the plans and passes whose block spaces were checked.
struct RangeSweep {
  std::unordered_set<u64> proven;
  u64 plans = 0, spaces = 0, failures = 0, narrow_not_u32 = 0;
  std::string first;
  void check(u64 total, bool plan_narrow) {
    ++spaces;
    if (plan_narrow && !narrow_block_space(total)) ++narrow_not_u32;  // not at the sweep sizes
    if (!proven.insert(total).second) return;
    std::string f;
    const u64 b = range_failures(total, &f);
    if (b && failures == 0) first = f;
    failures += b;
  }
};

// ---- (2) the cells, through the partition ------------------------------------------------
// The oracle's Coverage, plus the blocks that block_at placed outside its grid or not
// at lambda (row-major, x fastest) and the count of blocks the plan's grids hold.
struct PartCoverage : Coverage {
  u64 grid_blocks = 0, bad_block = 0;
  bool ok() const { return Coverage::ok() && bad_block == 0 && launched_blocks == grid_blocks; }
  std::string str() const {
    return Coverage::str() + " bad_block=" + std::to_string(bad_block) + " walked_blocks=" +
           std::to_string(launched_blocks) + " grid_blocks=" + std::to_string(grid_blocks);
  }
};

// Block lambda of grid g for worker ranges; the u32 path's block index when narrow.
// Returns false when it is outside the grid or not the row-major block lambda, or the
// narrow block index differs.
bool place_block(const Dim3& grid, u64 lambda, bool narrow, Dim3& b) {
  b = block_at<u64>(grid, lambda);
  bool good = b.x < grid.x && b.y < grid.y && b.z < grid.z &&
              u64(b.x) + u64(grid.x) * (u64(b.y) + u64(grid.y) * b.z) == lambda;
  if (narrow) {
    const Dim3 n = block_at<u32>(grid, u32(lambda));
    good = good && n.x == b.x && n.y == b.y && n.z == b.z;
  }
  return good;
}

// Every worker g < G of every pass: the blocks of lambda_range(block_space, G, g), every
// thread of each; the wide path always, the narrow path (u32 ranges and blocks,
// cell<i32>) when the plan is narrow. As oracle.hpp walk2, through the partition.
template <class M>
PartCoverage walk2_partition(const typename M::Params& p, u32 G, std::vector<uint8_t>& seen) {
  const i64 N = p.N;
  const Dim3 tb = M::block(p);
  seen.assign(size_t(N) * size_t(N), 0);
  PartCoverage c;
  c.narrow = p.narrow;
  typename M::Params wide = p;
  wide.narrow = false;
  for (int pass = 0; pass < p.passes; ++pass) {
    const Dim3 grid = M::grid(p, pass);
    const u64 total = block_space<M>(p, pass);
    c.grid_blocks += total;
    const bool nar = p.narrow && narrow_block_space(total);
    if (p.narrow && !nar) ++c.path_mismatch;  // not at the sizes walked here
    for (u32 g = 0; g < G; ++g) {
      const LambdaRange r = lambda_range<u64>(total, G, g);
      if (nar) {
        const LambdaRangeT<u32> rn = lambda_range<u32>(u32(total), G, g);
        if (rn.begin != r.begin || rn.end != r.end) ++c.path_mismatch;
      }
      for (u64 l = r.begin; l < r.end; ++l) {
        ++c.launched_blocks;
        Dim3 b;
        if (!place_block(grid, l, nar, b)) ++c.bad_block;
        c.useful_blocks += visit_block2<M>(p, wide, nar, pass, b.x, b.y, seen, c);
        c.launched_threads += u64(tb.x) * tb.y * tb.z;
      }
    }
  }
  c.missing = tri(u64(N)) - (c.inside - c.out_of_domain - c.duplicates);
  return c;
}

// As oracle.hpp walk3, through the partition.
template <class M>
PartCoverage walk3_partition(const Plan3& p, u32 G, std::vector<uint8_t>& seen) {
  const i64 N = p.N;
  const Dim3 grid = M::grid(p), tb = M::block(p);
  const u64 total = block_space<M>(p);
  seen.assign(size_t(N) * size_t(N) * size_t(N), 0);
  PartCoverage c;
  c.narrow = p.narrow;
  c.grid_blocks = total;
  Plan3 wide = p;
  wide.narrow = false;
  const bool nar = p.narrow && narrow_block_space(total);
  if (p.narrow && !nar) ++c.path_mismatch;  // not at the sizes walked here
  for (u32 g = 0; g < G; ++g) {
    const LambdaRange r = lambda_range<u64>(total, G, g);
    if (nar) {
      const LambdaRangeT<u32> rn = lambda_range<u32>(u32(total), G, g);
      if (rn.begin != r.begin || rn.end != r.end) ++c.path_mismatch;
    }
    for (u64 l = r.begin; l < r.end; ++l) {
      ++c.launched_blocks;
      Dim3 b;
      if (!place_block(grid, l, nar, b)) ++c.bad_block;
      c.useful_blocks += visit_block3<M>(p, wide, nar, b.x, b.y, b.z, seen, c);
      c.launched_threads += u64(tb.x) * tb.y * tb.z;
    }
  }
  c.missing = tet(u64(N)) - (c.inside - c.out_of_domain - c.duplicates);
  return c;
}

// The worker counts of the cell walks: every G <= 64 on the smallest sizes, else these.
const u32 some_workers[] = {1, 2, 3, 5, 7, 8, 13, 31, 63, 64};

// One walk: size N with G workers.
struct Job {
  i64 N;
  u32 G;
};
// Every G = 1..64 for N <= all_G_to; the G of some_workers for all_G_to < N <= top and
// for each N of `extra`.
std::vector<Job> jobs(i64 all_G_to, i64 top, std::initializer_list<i64> extra) {
  std::vector<Job> js;
  for (i64 N = 1; N <= top; ++N)
    if (N <= all_G_to)
      for (u32 G = 1; G <= max_workers; ++G) js.push_back({N, G});
    else
      for (u32 G : some_workers) js.push_back({N, G});
  for (i64 N : extra)
    for (u32 G : some_workers) js.push_back({N, G});
  // the largest walks first, so that the workers finish together
  std::stable_sort(js.begin(), js.end(), [](const Job& a, const Job& b) { return a.N > b.N; });
  return js;
}

// Runs walk(job, seen) for every job on the oracle's workers (a shared queue, one
// `seen` per worker); walk returns "" or a failure line. Reports through Boost.Test on
// this thread: the number of failing walks and the first few.
template <class Walk>
void run_jobs(const std::string& what, const std::vector<Job>& js, Walk&& walk) {
  std::atomic<u64> walked{0}, failed{0};
  std::mutex mu;
  std::vector<std::string> lines;
  std::vector<std::vector<uint8_t>> seen(workers());
  bench::parallel_chunks(
      js.size(), 1,
      [&](unsigned w, u64 k, u64) {
        bool accepted = true;
        const std::string f = walk(js[k], seen[w], accepted);
        walked += accepted;
        if (f.empty()) return;
        ++failed;
        std::lock_guard<std::mutex> g(mu);
        if (lines.size() < 5) lines.push_back(f);
      },
      workers());
  for (const std::string& l : lines) BOOST_TEST_ERROR(what << ": " << l);
  BOOST_TEST(failed.load() == 0u, what << ": " << failed.load() << " failing walks");
  BOOST_TEST(walked.load() > 0u, what << ": no size accepted");
  BOOST_TEST_MESSAGE(what << ": " << walked.load() << " (N, G) walks through the partition");
}
}  // namespace

// ---- (1) the arithmetic ------------------------------------------------------------------

// Every 2D map, every pass, the block spaces of test_maps2d's sweeps: rho = 1, N = n =
// 1..2048 (its block-level sweep) and rho = 8, 16, 32, N = 1..4096 (its thread-level
// sweeps, which reach 1024, 2048 (rb, utm) and 4096 (rec)); plans with allow_inexact (the
// block space is what is split, exact map or not); sizes a map refuses are skipped.
BOOST_DATA_TEST_CASE(ranges_partition_every_2d_block_space_every_G_up_to_64, bdata::make(names2d), name) {
  dispatch2(name, [&](auto m) {
    using M = decltype(m);
    RangeSweep s;
    for (int rho : {1, 8, 16, 32})
      for (i64 N = 1; N <= (rho == 1 ? 2048 : 4096); ++N) {
        typename M::Params p;
        try {
          p = M::plan(N, rho, /*allow_inexact=*/true);
        } catch (const unsupported&) {
          continue;  // rec: N not m 2^k; ltm-*-sq: the square grid's limit
        }
        ++s.plans;
        for (int pass = 0; pass < p.passes; ++pass) s.check(block_space<M>(p, pass), p.narrow);
      }
    BOOST_TEST_MESSAGE(name << ": " << s.plans << " plans, " << s.spaces << " block spaces, " << s.proven.size()
                            << " distinct totals, every G = 1.." << max_workers);
    BOOST_TEST(s.plans > 0u);
    BOOST_TEST(s.failures == 0u, name << ": " << s.first);
    BOOST_TEST(s.narrow_not_u32 == 0u, name << ": narrow plans whose block space passes u32");
  });
}

// Every 3D map, the block spaces of test_maps3d's sweeps: rho = 1, N = n = 1..256 (its
// block-level sweeps) and rho = 2, 4, 8, N = 1..64 (its thread-level ones), allow_inexact.
BOOST_DATA_TEST_CASE(ranges_partition_every_3d_block_space_every_G_up_to_64, bdata::make(names3d), name) {
  dispatch3(name, [&](auto m) {
    using M = decltype(m);
    RangeSweep s;
    for (int rho : {1, 2, 4, 8})
      for (i64 N = 1; N <= (rho == 1 ? 256 : 64); ++N) {
        const Plan3 p = M::plan(N, rho, /*allow_inexact=*/true);
        ++s.plans;
        s.check(block_space<M>(p), p.narrow);
      }
    BOOST_TEST_MESSAGE(name << ": " << s.plans << " plans, " << s.proven.size()
                            << " distinct totals, every G = 1.." << max_workers);
    BOOST_TEST(s.failures == 0u, name << ": " << s.first);
    BOOST_TEST(s.narrow_not_u32 == 0u, name << ": narrow plans whose block space passes u32");
  });
}

// Totals past the sweeps, for overflow: the u32 path's ends (2^31, 2^32 - 1), the largest
// linear grid (65535 rows of 2^30 = 2^46 - 2^30), 2^46, bb3's largest cube 65535^3, totals
// near 2^64/64 (where G*q reaches 2^64) and 2^64 - 1. Every G = 1..64; and block_at of
// every range's first and last block of a grid of that many blocks places it at lambda.
BOOST_AUTO_TEST_CASE(ranges_partition_huge_totals_every_G_up_to_64) {
  const u64 k64 = ~u64(0) / 64;  // floor((2^64 - 1) / 64)
  const u64 totals[] = {(1ull << 31) - 1, 1ull << 31, (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1,
                        max_linear_blocks, (1ull << 46) - 1, 1ull << 46, 65535ull * 65535ull * 65535ull,
                        k64 - 1, k64, k64 + 1, k64 * 63 + 62, ~u64(0) - 64, ~u64(0) - 1, ~u64(0)};
  for (u64 total : totals) {
    std::string f;
    BOOST_TEST(range_failures(total, &f) == 0u, f);
  }
  // grids: one-row / multi-row linear grids (plan.hpp linear_grid) and the 65535^3 cube
  std::vector<Dim3> grids;
  for (u64 total : {u64(1ull << 31) - 1, u64(1ull << 32) - 1, u64(1ull << 31) + 12345, max_linear_blocks}) {
    Dim3 g;
    u32 gx;
    linear_grid(total, gx, g);
    grids.push_back(g);
  }
  grids.push_back(Dim3{65535, 65535, 65535});
  grids.push_back(Dim3{131071, 65535, 1});  // rb's widest narrow rectangle
  u64 bad = 0, checked = 0;
  for (const Dim3& grid : grids) {
    const u64 total = u64(grid.x) * grid.y * grid.z;
    for (u32 G = 1; G <= max_workers; ++G)
      for (u32 g = 0; g < G; ++g) {
        const LambdaRange r = lambda_range<u64>(total, G, g);
        for (u64 l : {r.begin, r.end - 1}) {
          Dim3 b;
          bad += !place_block(grid, l, narrow_block_space(total), b);
          ++checked;
        }
      }
  }
  BOOST_TEST(bad == 0u, bad << " of " << checked << " range ends misplaced by block_at");
}

// plan.hpp linear_grid: for every count it covers [0, count) exactly once in row-major order
// (lambda = bx + by * gx, gx <= 2^31 - 1, rows <= 65535) and launches fewer than `rows` blocks past
// count (the last row's tail, which the kernels skip by lambda >= count): rows * gx >= count and
// (rows - 1) * gx < count, i.e. no whole row is empty, and rows * gx - count < rows. A one-row grid
// below 2^31 (gx = count), as before. The counts: both sides of 2^31, the wide-path check of
// experiments/multigpu (tet(2400) at rho = 1: 2 rows of 1,153,440,400, none outside; rows of 2^30
// launched 3 * 2^30 = 1.3964 x it), N = 10^7's Gram tiles, primes, and the limit max_linear_blocks.
BOOST_AUTO_TEST_CASE(linear_grid_covers_each_block_once_with_a_short_tail) {
  std::vector<u64> counts = {0, 1, 2, 1000, (1ull << 31) - 2, (1ull << 31) - 1, 1ull << 31, (1ull << 31) + 1,
                             (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1, 2306880800ull, 3051796875ull,
                             4294967311ull, 6442450941ull, 1ull << 40, (1ull << 40) + 999983, max_linear_blocks - 1,
                             max_linear_blocks};
  for (u64 k = 1; k <= 32768; k += 2047) counts.push_back(k * ((1ull << 31) - 1) + (k % 7));  // rows k, k + 1
  for (u64 count : counts) {
    if (count > max_linear_blocks) continue;
    Dim3 g;
    u32 gx = 0;
    linear_grid(count, gx, g);
    const u64 rows = g.y, launched = u64(g.x) * g.y * g.z;
    BOOST_TEST((g.x == gx && g.z == 1u && gx >= 1u && gx <= (1u << 31) - 1 && rows >= 1 && rows <= 65535),
               "count " << count << ": grid " << g.x << " x " << g.y << " x " << g.z);
    if (count == 0) {
      BOOST_TEST(launched == 1u);  // one block, outside
      continue;
    }
    BOOST_TEST(launched >= count, "count " << count << ": " << launched << " blocks launched");
    BOOST_TEST((rows - 1) * gx < count, "count " << count << ": the last row is empty");
    BOOST_TEST(launched - count < rows, "count " << count << ": " << launched - count << " blocks past it, " << rows << " rows");
    if (count < (1ull << 31)) BOOST_TEST((rows == 1 && gx == count), "count " << count << ": not one row");
    // row-major placement: lambda -> (lambda % gx, lambda / gx) and back, at the ends of every row
    for (u64 by : {u64(0), rows / 2, rows - 1})
      for (u64 l : {by * gx, by * gx + gx - 1}) {
        if (l >= count) continue;
        const Dim3 b = block_at<u64>(g, l);
        BOOST_TEST((b.x < gx && b.y < rows && linear_block(gx, b.x, b.y) == l), "count " << count << " lambda " << l);
      }
  }
  // the multi-row check of experiments/multigpu (threebody_multigpu_wide.csv): tet(2400) blocks
  Dim3 g;
  u32 gx = 0;
  linear_grid(2306880800ull, gx, g);
  BOOST_TEST((g.x == 1153440400u && g.y == 2u));
}

// Where a narrow plan's block space passes u32 (partition.hpp narrow_block_space): the
// caller must then take the u64 ranges. bb3's n^3 cube at n = 1626, rb's and rb-b's
// folded rectangles near N = 92681 (rho 1), all narrow; the linear maps' narrow plans stay
// below 2^31 and the n x n grids below 65535^2, at their largest narrow plan.
BOOST_AUTO_TEST_CASE(narrow_plans_whose_block_space_passes_u32) {
  {
    const Plan3 a = BB3::plan(1625, 1), b = BB3::plan(1626, 1);
    BOOST_TEST((a.narrow && b.narrow));
    BOOST_TEST(narrow_block_space(block_space<BB3>(a)));
    BOOST_TEST(!narrow_block_space(block_space<BB3>(b)));
  }
  const auto first_past_u32 = [](auto m) {
    using M = decltype(m);
    i64 N = 1;
    while (narrow_block_space(block_space<M>(M::plan(N, 1), 0))) N += 1;
    return N;
  };
  // the search is monotone: the rectangles only grow with N
  const i64 rb = first_past_u32(RB{}), rb_b = first_past_u32(RB_B{});
  BOOST_TEST_MESSAGE("block space past u32 (rho 1): rb from N = " << rb << ", rb-b from N = " << rb_b);
  BOOST_TEST((rb > 92000 && rb < 93000));
  BOOST_TEST((rb_b > 92000 && rb_b < 93000));
  for (i64 N : {i64(92000), i64(93000)}) {
    BOOST_TEST(RB::plan(N, 1).narrow);
    BOOST_TEST(RB_B::plan(N, 1).narrow);
  }
  // linear maps at their largest narrow plan (rho 1)
  BOOST_TEST(LTM_E::plan(65535, 1).narrow);
  BOOST_TEST(block_space<LTM_E>(LTM_E::plan(65535, 1), 0) < (1ull << 31));
  BOOST_TEST(TET_E::plan(2343, 1).narrow);
  BOOST_TEST(block_space<TET_E>(TET_E::plan(2343, 1)) < (1ull << 31));
  BOOST_TEST(UTM_N::plan(46338, 1, true).narrow);
  BOOST_TEST(block_space<UTM_N>(UTM_N::plan(46338, 1, true), 0) < (1ull << 31));
  // n x n grids at n = 65535
  BOOST_TEST(BB::plan(65535, 1).narrow);
  BOOST_TEST(narrow_block_space(block_space<BB>(BB::plan(65535, 1), 0)));
  BOOST_TEST(LTM_E_SQ::plan(65535, 1).narrow);
  BOOST_TEST(narrow_block_space(block_space<LTM_E_SQ>(LTM_E_SQ::plan(65535, 1), 0)));
  const REC::Params rec = REC::plan(65534, 1);
  BOOST_TEST(rec.narrow);
  for (int pass = 0; pass < rec.passes; ++pass) BOOST_TEST(narrow_block_space(block_space<REC>(rec, pass)));
}

// ---- (2) the cells, through the partition ------------------------------------------------
// Sizes, chosen so that the whole test stays within a few seconds on 2 cores (make verify's
// 6-minute budget, issue #23):
// 2D every N = 1..96 with every G = 1..64 for N <= 32, the G of some_workers above that
// and at N = 128, 255, 256, 257 (rec: its valid N among them, up to 7 passes), at rho 1
// (test_maps2d's block level: n = N blocks) and 8, 16, 32 (its thread level).
// ltm-lut: plan() builds its host table (map_ltm_lut.hpp), as in test_maps2d.
BOOST_DATA_TEST_CASE(cells_exactly_once_through_partition_2d, bdata::make(names2d) * bdata::make({1, 8, 16, 32}),
                     name, rho) {
  dispatch2(name, [&](auto m) {
    using M = decltype(m);
    const std::vector<Job> js = jobs(32, 96, {128, 255, 256, 257});
    run_jobs(name + " rho=" + std::to_string(rho), js, [&](const Job& j, std::vector<uint8_t>& seen, bool& accepted) {
      typename M::Params p;
      try {
        p = M::plan(j.N, rho);
      } catch (const unsupported&) {
        accepted = false;  // rec: N not m 2^k
        return std::string();
      }
      if (!p.narrow) return "N=" + std::to_string(j.N) + ": plan not narrow";
      const PartCoverage c = walk2_partition<M>(p, j.G, seen);
      if (c.ok()) return std::string();
      return "N=" + std::to_string(j.N) + " G=" + std::to_string(j.G) + ": " + c.str();
    });
  });
}

// 3D: every N = 1..48 and 63, 64 (test_maps3d's thread-level sweep) with every G = 1..64 for
// N <= 16, the G of some_workers above that, at rho 1 (its block level) and 2, 4, 8 (its
// thread level). Plans
// without allow_inexact: tet-f (exact below lambda = 10) is walked on the sizes it accepts.
BOOST_DATA_TEST_CASE(cells_exactly_once_through_partition_3d, bdata::make(names3d) * bdata::make({1, 2, 4, 8}),
                     name, rho) {
  dispatch3(name, [&](auto m) {
    using M = decltype(m);
    const std::vector<Job> js = jobs(16, 48, {63, 64});
    run_jobs(name + " rho=" + std::to_string(rho), js, [&](const Job& j, std::vector<uint8_t>& seen, bool& accepted) {
      Plan3 p;
      try {
        p = M::plan(j.N, rho);
      } catch (const unsupported&) {
        accepted = false;  // tet-f past its exact range
        return std::string();
      }
      if (!p.narrow) return "N=" + std::to_string(j.N) + ": plan not narrow";
      const PartCoverage c = walk3_partition<M>(p, j.G, seen);
      if (c.ok()) return std::string();
      return "N=" + std::to_string(j.N) + " G=" + std::to_string(j.G) + ": " + c.str();
    });
  });
}
