// experiments/sdh/gpu_verify_sdh.cu — every GPU SDH version against the CPU oracle
// (src/support/apps/sdh_cpu.hpp, multi-threaded loop, of the version's rule: pinned, fused for
// fast-fma*, gram for fast-gram): bucket for bucket, and every histogram
// sums to N(N-1)/2. Point sets: uniform in the 23000 box at several N (tile
// boundaries, odd and even N), a clamped bucket count, a bucket width that is not a
// round number, B = 1, and a lattice whose distances sit exactly on bucket edges.
// First, the premise of fast-gram2's bracket (apps/sdh_cpu.hpp): sqrt.approx.ftz.f32 on every
// non-negative finite float against the exact square root (relative error <= 2^-23, the PTX ISA's
// bound; subnormals flush to 0). fast-gram2's lines name its table rows, whether k_hi is capped,
// and the pairs it replayed (the lattice cases, with pairs exactly on edges, must replay some).
// Prints "X test cases out of Y passed"; exit 1 on any failure, 77 without a GPU
// (meson counts 77 as skipped).
#include <gpu/sdh.cuh>

#include <bench/gpu.cuh>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace tdmaps;
using namespace tdmaps::gpu::sdh;
namespace hs = tdmaps::sdh;

namespace {
// sqrt.approx.ftz.f32 (sdh_fast.cuh sqrt_approx) on every float with bits in [0, 0x7f800000): the largest
// relative error against sqrt in double (correctly rounded, 2^-53), as the bits of a positive double;
// the largest distance in ulp from sqrt.rn.f32; the normal inputs past 2^-23; the subnormal inputs
// whose result is not 0.
__global__ void k_sqrt_approx_exhaustive(unsigned long long* max_rel_bits, unsigned* max_ulp, unsigned long long* over,
                                         unsigned long long* sub_bad) {
  unsigned long long mrel = 0, nover = 0, nsub = 0;
  unsigned mulp = 0;
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 b = u64(blockIdx.x) * blockDim.x + threadIdx.x; b < 0x7f800000ull; b += stride) {
    const float x = __uint_as_float(u32(b));
    const float y = sqrt_approx(x);
    if (b < 0x00800000u) {  // zero and subnormals: flushed (ftz), the result must be +0
      if (__float_as_uint(y) != 0u) ++nsub;
      continue;
    }
    const double r = sqrt(double(x));
    const double rel = fabs(double(y) - r) / r;
    const unsigned long long rb = __double_as_longlong(rel);
    mrel = rb > mrel ? rb : mrel;
    if (rel > 0x1p-23) ++nover;
    const int d = int(__float_as_uint(y)) - int(__float_as_uint(__fsqrt_rn(x)));
    mulp = max(mulp, unsigned(d < 0 ? -d : d));
  }
  atomicMax(max_rel_bits, mrel);
  atomicMax(max_ulp, mulp);
  if (nover) atomicAdd(over, nover);
  if (nsub) atomicAdd(sub_bad, nsub);
}

// One test case: prints its line, returns whether it passed.
bool sqrt_approx_premise() {
  unsigned long long* d = tdmaps::gpu::device_alloc<unsigned long long>(4, "sqrt.approx check");
  TD_CUDA(cudaMemset(d, 0, 4 * sizeof(unsigned long long)));
  int dev = 0, sms = 0;
  TD_CUDA(cudaGetDevice(&dev));
  TD_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cudaEvent_t e0, e1;
  TD_CUDA(cudaEventCreate(&e0));
  TD_CUDA(cudaEventCreate(&e1));
  TD_CUDA(cudaEventRecord(e0));
  k_sqrt_approx_exhaustive<<<sms * 8, 256>>>(d, reinterpret_cast<unsigned*>(d + 1), d + 2, d + 3);
  TD_LAUNCHED();
  TD_CUDA(cudaEventRecord(e1));
  TD_CUDA(cudaDeviceSynchronize());
  float ms = 0;
  TD_CUDA(cudaEventElapsedTime(&ms, e0, e1));
  unsigned long long h[4];
  TD_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  cudaFree(d);
  double rel;
  std::memcpy(&rel, &h[0], 8);
  const unsigned ulp = unsigned(h[1] & 0xffffffffu);
  const bool ok = h[2] == 0 && h[3] == 0 && rel <= 0x1p-23;
  std::printf("%s  sqrt.approx.ftz.f32 exhaustive: %llu normal floats, max relative error %.4g = 2^%.3f (bound 2^-23: "
              "%llu past it), max %u ulp from sqrt.rn.f32; %llu subnormals and 0 -> 0 (%llu not); %.0f ms\n",
              ok ? "ok  " : "FAIL", (unsigned long long)(0x7f800000u - 0x00800000u), rel, rel > 0 ? std::log2(rel) : -1e9,
              h[2], ulp, (unsigned long long)0x00800000u, h[3], double(ms));
  std::fflush(stdout);
  return ok;
}

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
  // fast-gram2: k_hi can pass more rows than fit (w = 5: quotients up to ~8000), so its capped variant runs
  for (i64 N : {1000, 10001})
    cases.push_back({"uniform w=5 B=20 (clamped, capped k_hi)", {big.begin(), big.begin() + N}, 5.0f, 20, {256}});

  int passed = 0, total = 0, skipped = 0;
  ++total;
  if (sqrt_approx_premise()) ++passed;
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
        unsigned long long replayed = 0;
        if (is_bracket(info.id)) TD_CUDA(cudaMemcpy(&replayed, d.ambig, 8, cudaMemcpyDeviceToHost));
        const std::vector<u64> h = run_once(info.id, d, tpb);
        const std::vector<u64>& oracle = oracles[int(rule_of(info.id))];
        u32 bad = 0, first = c.B;
        for (u32 k = 0; k < c.B; ++k)
          if (h[k] != oracle[k]) { ++bad; if (first == c.B) first = k; }
        bool ok = bad == 0 && hs::hist_sum(h) == want;
        std::string extra;
        if (is_bracket(info.id)) {
          unsigned long long after = 0;
          TD_CUDA(cudaMemcpy(&after, d.ambig, 8, cudaMemcpyDeviceToHost));
          replayed = after - replayed;
          const FastLaunch& f = fast_params(info.id, d);
          extra = " rows=" + std::to_string(f.rows) + " capped=" + std::to_string(int(f.clamp)) +
                  " replayed=" + std::to_string(replayed);
          // pairs exactly on an edge are ambiguous for every y the PTX bound allows: the replay must run
          if (c.what.find("edge-exact") != std::string::npos && replayed == 0) {
            ok = false;
            extra += " (no pair replayed: the replay path did not run)";
          }
        }
        if (ok) ++passed;
        std::printf("%s  %-13s %s N=%lld tpb=%d clamp=%d%s", ok ? "ok  " : "FAIL", info.name, c.what.c_str(),
                    (long long)N, tpb, int(d.clamp), extra.c_str());
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
  // The bracket kernels' flush paths, which the cases above never reach (a flush every ~10^5 tile
  // pairs): flush_every forced to 1 or 3, so that the static kernels flush after every tile pair
  // (every third) and fast-gram2-dyn's blocks take at most one (three: the tile pair asked one
  // ahead meets the cap) over launches of at most grid / 8 (3 grid / 8) tile pairs.
  for (i64 N : {10001, 65537}) {
    const std::vector<Point> pts(big.begin(), big.begin() + N);
    std::vector<u64> oracle(B80);
    hs::cpu_mt(pts.data(), N, 500.0f, B80, oracle.data(), 0, hs::Rule::gram);
    d.set(pts.data(), N, 500.0f, B80);
    for (u32 every : {1u, 3u})
      for (Impl i : bracket_impls()) {  // every bracket rung (sdh_rungs.hpp)
        ++total;
        FastLaunch& f = const_cast<FastLaunch&>(fast_params(i, d));  // the set's cached parameters
        const u64 tile_pairs = f.plan.total;
        f.flush_every = every;
        const std::vector<u64> h = run_once(i, d, 256);
        const bool ok = h == oracle;
        if (ok) ++passed;
        std::printf("%s  %-13s uniform w=500 B=80 flush_every=%u (%llu tile pairs) N=%lld\n", ok ? "ok  " : "FAIL",
                    impl_name(i), every, (unsigned long long)tile_pairs, (long long)N);
      }
  }
  std::printf("%d test cases out of %d passed (%d skipped: bucket count beyond a version's shared memory)\n", passed,
              total, skipped);
  return passed == total ? 0 : 1;
}
