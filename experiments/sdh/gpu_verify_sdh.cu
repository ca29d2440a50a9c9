// experiments/sdh/gpu_verify_sdh.cu — every GPU SDH version against the CPU oracle
// (src/support/apps/sdh_cpu.hpp, multi-threaded loop, of the version's rule: pinned, fused for
// fast-fma*, gram for fast-gram): bucket for bucket, and every histogram
// sums to N(N-1)/2. Point sets: uniform in the 23000 box at several N (tile
// boundaries, odd and even N), a clamped bucket count, a bucket width that is not a
// round number, B = 1, and a lattice whose distances sit exactly on bucket edges.
// Prints "X test cases out of Y passed"; exit 1 on any failure, 77 without a GPU
// (meson counts 77 as skipped).
#include <gpu/sdh.cuh>

#include <bench/gpu.cuh>

#include <cstdio>
#include <string>
#include <vector>

using namespace tdmaps;
using namespace tdmaps::gpu::sdh;
namespace hs = tdmaps::sdh;

namespace {
struct Case {
  std::string what;
  std::vector<Point> pts;
  float w;
  u32 B;
  std::vector<int> tpbs;  // threads per block for the ladder kernels
};
}  // namespace

int main(int argc, char** argv) {
  // no options but the shared --help / --version: anything else is refused (exit 2)
  tdmaps::bench::Cli cli("gpu_verify_sdh", "gpu_verify_sdh: every SDH version against the CPU oracle, on the GPU (no options)\noptions");
  cli.parse(argc, argv);
  tdmaps::bench::start_gpu_check("gpu_verify_sdh");  // 77 without a GPU (meson: skipped); a GPU without code: exit 2
  tdmaps::gpu::require_gpu();
  const size_t optin = prepare_kernels();

  std::vector<Case> cases;
  const auto big = hs::uniform_points(65537);
  const u32 B80 = hs::default_buckets(hs::default_box, 500.0f);
  for (i64 N : {2, 3, 1000, 10000, 10001, 65537})
    cases.push_back({"uniform w=500 B=80", {big.begin(), big.begin() + N}, 500.0f, B80, {256}});
  for (i64 N : {3, 1000, 10001})
    cases.push_back({"uniform w=500 B=20 (clamped)", {big.begin(), big.begin() + N}, 500.0f, 20, {256}});
  const float wodd = 123.456f;
  for (i64 N : {1000, 10001})
    cases.push_back({"uniform w=123.456 B=auto", {big.begin(), big.begin() + N}, wodd,
                     hs::default_buckets(hs::default_box, wodd), {256}});
  cases.push_back({"uniform w=500 B=1", {big.begin(), big.begin() + 1000}, 500.0f, 1, {256}});
  cases.push_back({"uniform w=500 B=80 (other block sizes)", {big.begin(), big.begin() + 10001}, 500.0f, B80, {64, 1024}});
  {
    const auto lat = hs::lattice_points(21, 100.0f);  // 9261 points, spacing 100
    const i64 N = i64(lat.size());
    const float d2 = hs::max_dist2(lat.data(), N);
    cases.push_back({"lattice h=100 w=100 (edge-exact)", lat, 100.0f, hs::bucket_unclamped(d2, 100.0f) + 1, {256}});
    cases.push_back({"lattice h=100 w=500 (edge-exact)", lat, 500.0f, hs::bucket_unclamped(d2, 500.0f) + 1, {256}});
    cases.push_back({"lattice h=100 w=500 B=4 (clamped)", lat, 500.0f, 4, {256}});
  }

  int passed = 0, total = 0, skipped = 0;
  DeviceSet d;
  for (const Case& c : cases) {
    const i64 N = i64(c.pts.size());
    // the CPU oracle of each rule (pinned: every version but fast-fma* and fast-gram, apps/sdh_cpu.hpp)
    std::vector<u64> oracles[3] = {std::vector<u64>(c.B), std::vector<u64>(c.B), std::vector<u64>(c.B)};
    for (hs::Rule r : {hs::Rule::pinned, hs::Rule::fused, hs::Rule::gram})
      hs::cpu_mt(c.pts.data(), N, c.w, c.B, oracles[int(r)].data(), 0, r);
    const u64 want = hs::pair_count(N);
    if (hs::hist_sum(oracles[0]) != want || hs::hist_sum(oracles[1]) != want || hs::hist_sum(oracles[2]) != want) {
      std::printf("FAIL  cpu oracle sum %llu / %llu / %llu != %llu (%s, N=%lld)\n", (unsigned long long)hs::hist_sum(oracles[0]),
                  (unsigned long long)hs::hist_sum(oracles[1]), (unsigned long long)hs::hist_sum(oracles[2]),
                  (unsigned long long)want, c.what.c_str(), (long long)N);
      ++total;
      continue;
    }
    d.set(c.pts.data(), N, c.w, c.B);
    for (const auto& info : impl_list()) {
      for (int tpb0 : c.tpbs) {
        if (info.fixed_threads && tpb0 != c.tpbs.front()) continue;  // fast kernels: one run per case
        const int tpb = threads_of(info.id, tpb0);
        std::string why = cannot_run(info.id, N, c.B, tpb, optin);
        if (why.empty() && is_band(info.id)) why = d.band.why;
        if (why.empty() && rule_of(info.id) == hs::Rule::gram) why = d.gram_why;
        if (!why.empty()) {
          std::printf("skip  %-13s %s N=%lld: %s\n", info.name, c.what.c_str(), (long long)N, why.c_str());
          ++skipped;
          continue;
        }
        ++total;
        const std::vector<u64> h = run_once(info.id, d, tpb);
        const std::vector<u64>& oracle = oracles[int(rule_of(info.id))];
        u32 bad = 0, first = c.B;
        for (u32 k = 0; k < c.B; ++k)
          if (h[k] != oracle[k]) { ++bad; if (first == c.B) first = k; }
        const bool ok = bad == 0 && hs::hist_sum(h) == want;
        if (ok) ++passed;
        std::printf("%s  %-13s %s N=%lld tpb=%d clamp=%d", ok ? "ok  " : "FAIL", info.name, c.what.c_str(),
                    (long long)N, tpb, int(d.clamp));
        if (!ok)
          std::printf(": %u buckets differ (first %u: gpu %llu cpu %llu), sum %llu want %llu", bad, first,
                      first < c.B ? (unsigned long long)h[first] : 0ull,
                      first < c.B ? (unsigned long long)oracle[first] : 0ull, (unsigned long long)hs::hist_sum(h),
                      (unsigned long long)want);
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  }
  std::printf("%d test cases out of %d passed (%d skipped: bucket count beyond a version's shared memory)\n", passed,
              total, skipped);
  return passed == total ? 0 : 1;
}
