// experiments/maps2d/gpu_verify_maps.cu — every 2D map, run on the GPU, covers the
// triangular domain {(i, j) : 0 <= j <= i < N} exactly once (the papers: "We
// checked that the outputs for each strategy were always correct",
// 000_dc8ca915cfc23e3c.txt §V).
//
// For each map, rho in {16, 32} (--rho) and each N of a fixed list (odd N, N not a
// multiple of rho, powers of two, the paper's largest N = 30720, and N = 65536 /
// 65537 where the cell index tri(N) passes 2^31), plus, for the float maps, the
// largest N their plan() accepts (the edge of the exact range), the coverage
// kernel (src/support/gpu/dummy.cuh) runs and the host checks its bitmap and counters:
// every cell produced exactly once, no out-of-domain production, and as many
// useful blocks as counts.hpp reports. A size the map's plan() refuses is skipped
// (and said so); for the float maps the first refused N past the edge is checked
// to be refused.
//
// Exit codes: 0 all passed, 1 a failure, 2 bad arguments, 77 no GPU (meson's skip).
#include "maps2d_host.hpp"

#include <bench/gpu.cuh>

#include <gpu/dummy.cuh>
#include <tdmaps/counts.hpp>

#include <boost/program_options.hpp>

#include <chrono>
#include <iostream>

namespace po = boost::program_options;
using namespace tdmaps;
using namespace tdmaps::gpu;
using namespace tdmaps::exp2d;

namespace {

struct Tally {
  int passed = 0, failed = 0, skipped = 0;
};

// The N every map is tried at (plan() decides which apply).
const std::vector<i64> base_ns = {1,    2,    3,    15,   16,   17,    31,    32,    33,    100,   255,   256,  1000,
                                  1023, 1024, 1536, 4095, 4096, 4097,  5792,  5793,  10007, 16384, 30720, 65536, 65537};

// Largest N that M::plan(N, rho) accepts, for the float maps whose plan() refuses
// past a proven exact range (acceptance is monotone in N there); 0 for the others.
template <class M>
constexpr bool has_exact_edge() {
  if constexpr (is_ltm<M>::value) return M::exact_blocks < limits::no_limit;
  else return is_utm<M>::value;
}
template <class M>
i64 plan_edge(int rho) {
  if constexpr (has_exact_edge<M>()) {
    const auto ok = [&](i64 N) {
      try {
        M::plan(N, rho);
        return true;
      } catch (const unsupported&) {
        return false;
      }
    };
    i64 lo = 1, hi = i64(1) << 31;
    if (ok(hi)) return 0;
    while (hi - lo > 1) {  // ok(lo), !ok(hi)
      const i64 mid = lo + (hi - lo) / 2;
      (ok(mid) ? lo : hi) = mid;
    }
    return lo;
  } else {
    (void)rho;
    return 0;
  }
}

// M's plan for (N, rho) into p; a size plan() refuses is counted as skipped and said so.
template <class M>
bool try_plan(i64 N, int rho, typename M::Params& p, Tally& t) {
  try {
    p = M::plan(N, rho);
    return true;
  } catch (const unsupported& e) {
    ++t.skipped;
    std::printf("skip  %-6s rho=%-2d N=%-6lld %s\n", M::name, rho, (long long)N, e.what());
    return false;
  }
}

template <class M>
void verify_map(int rho, i64 max_N, CoverageBuffers& buf, Tally& t) {
  std::vector<i64> ns = base_ns;
  const i64 edge = plan_edge<M>(rho);
  if (edge > 0) {
    if (edge <= max_N) ns.push_back(edge);
    else std::printf("note  %-6s rho=%-2d edge N=%lld of the exact range is above --max-N=%lld; not run\n", M::name, rho,
                     (long long)edge, (long long)max_N);
  }
  std::sort(ns.begin(), ns.end());
  ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
  for (i64 N : ns) {
    if (N > max_N) continue;
    typename M::Params p;
    if (!try_plan<M>(N, rho, p, t)) continue;
    const Counts c = counts2<M>(p);
    // The plan's own index path, then the 64-bit path on the same plan when the plan is
    // narrow: both must cover the triangle exactly once.
    for (const bool wide : {false, true}) {
      if (wide && !p.narrow) break;
      typename M::Params q = p;
      q.narrow = !wide && p.narrow;
      const auto t0 = std::chrono::steady_clock::now();
      const std::string err = check_coverage(N, buf.run<M>(q), (long long)c.useful_blocks);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const int bits = q.narrow ? 32 : 64;
      if (err.empty()) {
        ++t.passed;
        std::printf("ok    %-6s rho=%-2d N=%-6lld path=%d passes=%d launched_blocks=%llu useful_blocks=%llu (%.2f s)%s\n",
                    M::name, rho, (long long)N, bits, p.passes, (unsigned long long)c.launched_blocks,
                    (unsigned long long)c.useful_blocks, s, N == edge ? "  [edge of the exact range]" : "");
      } else {
        ++t.failed;
        std::printf("FAIL  %-6s rho=%-2d N=%-6lld path=%d %s%s\n", M::name, rho, (long long)N, bits, err.c_str(),
                    N == edge ? "  [edge of the exact range: the limit beside the map's policy is too large for this GPU]" : "");
      }
      std::fflush(stdout);
    }
  }
  // Past the edge, plan() must refuse.
  if (edge > 0) {
    bool refused = false;
    try {
      M::plan(edge + 1, rho);
    } catch (const unsupported&) {
      refused = true;
    }
    (refused ? t.passed : t.failed) += 1;
    std::printf("%s  %-6s rho=%-2d N=%-6lld plan() %s past the edge\n", refused ? "ok  " : "FAIL", M::name, rho,
                (long long)(edge + 1), refused ? "refuses" : "does NOT refuse");
  }
}

// Both sides of the narrow/wide switch of the LTM maps (n = 65535 block rows narrow,
// 65536 wide), at rho = 1 and 2 where the bitmap stays small (tri(131072) bits = 1 GiB).
template <class M>
void verify_switch(CoverageBuffers& buf, Tally& t) {
  if constexpr (is_ltm<M>::value) {
    for (int rho : {1, 2})
      for (i64 N : {i64(65535) * rho, i64(65535) * rho + 1}) {
        typename M::Params p;
        if (!try_plan<M>(N, rho, p, t)) continue;
        const bool want_narrow = N == i64(65535) * rho;
        const auto t0 = std::chrono::steady_clock::now();
        const std::string err = p.narrow != want_narrow ? std::string("plan chose the wrong index path")
                                                        : check_coverage(N, buf.run<M>(p), (long long)p.total);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        (err.empty() ? t.passed : t.failed) += 1;
        std::printf("%s  %-6s rho=%-2d N=%-6lld path=%d [index switch] %s(%.2f s)\n", err.empty() ? "ok  " : "FAIL", M::name,
                    rho, (long long)N, p.narrow ? 32 : 64, err.c_str(), s);
        std::fflush(stdout);
      }
  } else {
    (void)buf; (void)t;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> map_args, rho_args;
  i64 max_N = 150000;
  bool no_switch = false;
  bench::Cli cli("gpu_verify_maps", "gpu_verify_maps: coverage of every 2D map on the GPU\noptions");
  cli.add()("maps", po::value<std::vector<std::string>>(&map_args)->composing(), "maps, comma list (default: all 2D maps)")
      ("rho", po::value<std::vector<std::string>>(&rho_args)->composing(), "block sides (default 16,32)")
      ("max-N", po::value<i64>(&max_N)->default_value(150000), "skip N above this (the bitmap has N(N+1)/2 bits)")
      ("no-switch", po::bool_switch(&no_switch), "skip the narrow/wide switch cases (rho 1 and 2, N up to 131071)");
  std::vector<std::string> maps;
  std::vector<int> rhos;
  cli.parse(argc, argv);
  cli.check([&] {
    if (map_args.empty()) map_args = {map2_names()};
    maps = parse_maps(map_args);
    if (rho_args.empty()) rho_args = {"16,32"};
    rhos = parse_rhos(rho_args);
    if (max_N < 1) throw bad_input("--max-N must be >= 1");
  });
  bench::start_gpu_check("gpu_verify_maps");  // 77 without a GPU (meson: skipped); a GPU without code: exit 2
  std::printf("# %s\n", metadata_json("gpu_verify_maps", join_args(argc, argv)).c_str());
  const auto t0 = std::chrono::steady_clock::now();
  Tally t;
  CoverageBuffers buf;
  for (const std::string& name : maps)
    for (int rho : rhos)
      with_map(maps2d{}, name.c_str(), [&](auto m) { verify_map<decltype(m)>(rho, max_N, buf, t); });
  if (!no_switch)
    for (const std::string& name : maps) with_map(maps2d{}, name.c_str(), [&](auto m) { verify_switch<decltype(m)>(buf, t); });
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\n%d test cases out of %d passed (%d skipped: sizes plan() refuses) in %.1f s\n", t.passed,
              t.passed + t.failed, t.skipped, s);
  if (t.failed == 0) std::printf("*** No errors detected\n");
  else std::printf("*** %d failure%s detected\n", t.failed, t.failed == 1 ? " is" : "s are");
  std::printf("gpu_verify_maps: %d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
  return t.failed ? 1 : 0;
}
