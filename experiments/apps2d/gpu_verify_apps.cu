// experiments/apps2d/gpu_verify_apps.cu — GPU verification of the application
// kernels: every EDM kernel (plain maps and fast variants; d = 1..4; full and packed
// layouts) and every collision kernel (3D, 1D) x every map x rho in {16, 32} x the
// sizes below, against the CPU references (see apps_check.cuh for what is checked).
// Sizes a map does not accept (REC's N = m*2^k, UTM's and LTM-R's exact ranges)
// are skipped, not counted. Exit status: 0 all passed, 1 a failure, 77 no GPU
// (meson's "skipped"), 2 bad arguments.
//
//   gpu_verify_apps [--quick] [--only edm|collision]
#include "apps_check.cuh"

#include <bench/gpu.cuh>

#include <chrono>
#include <cstring>
#include <optional>

using namespace tdmaps;
using namespace tdmaps::apps;
namespace po = boost::program_options;

namespace {

// Odd sizes, sizes that are not a multiple of rho, powers of two, the papers'
// largest (30720), and 65536, where N^2 and N(N+1)/2 pass 2^31 (64-bit indices).
const std::vector<i64> sizes_full = {1,    2,    3,    31,   33,   100,  257,  1000,  1024,
                                     2047, 2048, 4096, 4100, 8191, 16384, 30720, 65536};
const std::vector<i64> sizes_quick = {1, 33, 257, 1000, 1024, 2047, 2048, 4096, 4100, 16384, 30720, 65536};
const int rhos[] = {16, 32};

struct Tally {
  u64 passed = 0, failed = 0, skipped = 0;
  void add(bool ok) { ok ? ++passed : ++failed; }
};

// Kernel k's plan at (N, rho), or none where its plan refuses N (counted as skipped in t).
template <class K>
std::optional<any_plan2> plan_or_skip(const K& k, i64 N, int rho, Tally& t) {
  try {
    return k.plan(N, rho, false);
  } catch (const unsupported&) {
    ++t.skipped;
    return std::nullopt;
  }
}

bool self_test_checker() {
  // An untouched poisoned buffer: every lower element unwritten, nothing else.
  const i64 N = 37;
  DevBuf<float> out(size_t(edm_capacity(N, EdmOutput::full)), "self-test buffer");
  bool ok = true;
  for (EdmOutput L : {EdmOutput::full, EdmOutput::packed}) {
    const u64 n = edm::out_elems(N, L);
    TD_CUDA(cudaMemset(out.get(), poison_byte, (n + edm_guard) * sizeof(float)));
    PoisonReport r = edm_poison_report(out.get(), N, L, edm_guard);
    ok = ok && r.lower_unwritten == tri(u64(N)) && r.upper_written == 0 && r.guard_written == 0;
    // Write one lower element, one guard element, and (full) one upper element.
    TD_CUDA(cudaMemset(out.get() + edm::out_index(L, N, N - 1, 3), 0, sizeof(float)));
    TD_CUDA(cudaMemset(out.get() + n + edm_guard - 1, 0, sizeof(float)));
    if (L == EdmOutput::full) TD_CUDA(cudaMemset(out.get() + edm::out_index(L, N, 3, 4), 0, sizeof(float)));
    r = edm_poison_report(out.get(), N, L, edm_guard);
    ok = ok && r.lower_unwritten == tri(u64(N)) - 1 && r.guard_written == 1 &&
         r.upper_written == (L == EdmOutput::full ? 1u : 0u);
  }
  // Sector tail (fast kernels, full layout): (3, 4) lies in row 3's tail
  // (fast_full_row_end(37, 3) = 8); it counts until its mirror (4, 3) holds the same value.
  TD_CUDA(cudaMemset(out.get(), poison_byte, (edm::out_elems(N, EdmOutput::full) + edm_guard) * sizeof(float)));
  TD_CUDA(cudaMemset(out.get() + edm::out_index(EdmOutput::full, N, 3, 4), 0, sizeof(float)));
  ok = ok && edm::fast_full_row_end(N, 3) == 8 &&
       edm_poison_report(out.get(), N, EdmOutput::full, edm_guard, true).upper_written == 1;
  TD_CUDA(cudaMemset(out.get() + edm::out_index(EdmOutput::full, N, 4, 3), 0, sizeof(float)));
  ok = ok && edm_poison_report(out.get(), N, EdmOutput::full, edm_guard, true).upper_written == 0 &&
       edm_poison_report(out.get(), N, EdmOutput::full, edm_guard, false).upper_written == 1;
  // gather
  std::vector<u64> idx = {5, 0, 36};
  std::vector<float> h(40);
  for (size_t k = 0; k < h.size(); ++k) h[k] = float(k);
  DevBuf<u64> di(3, "self-test idx");
  DevBuf<float> dv(3, "self-test vals");
  upload(out.get(), h);
  upload(di.get(), idx);
  gather(out.get(), di.get(), dv.get(), 3);
  float g[3];
  TD_CUDA(cudaMemcpy(g, dv.get(), sizeof g, cudaMemcpyDeviceToHost));
  ok = ok && g[0] == 5.0f && g[1] == 0.0f && g[2] == 36.0f;
  return ok;
}

// The plain EDM kernel's stores for UTM coalesce (edm::plain_cell): within each warp,
// consecutive in-domain threads write consecutive addresses except where a row ends.
// Computed on the host with the kernel's own cell function, for the addresses both
// layouts give; the map's own (transposed) order is shown for contrast.
bool check_utm_coalesced() {
  bool ok = true;
  const auto run = [&](auto m) {
    using M = decltype(m);
    for (i64 N : {i64(1000), i64(4096)})
      for (EdmOutput L : {EdmOutput::full, EdmOutput::packed}) {
        const typename M::Params p = M::plan(N, 16);
        const Dim3 g = M::grid(p, 0), b = M::block(p);
        u64 pairs = 0, consecutive = 0, consecutive_map = 0;
        for (u32 bx = 0; bx < g.x; ++bx)
          for (u32 t = 0; t + 1 < b.x; ++t) {
            if ((t + 1) % 32 == 0) continue;  // a warp boundary
            const Cell2T<i64> c0 = edm::plain_cell<M, i64>(p, 0, bx, 0, t, 0), c1 = edm::plain_cell<M, i64>(p, 0, bx, 0, t + 1, 0);
            if (!c0.inside || !c1.inside) continue;
            ++pairs;
            consecutive += edm::out_index(L, N, c1.i, c1.j) == edm::out_index(L, N, c0.i, c0.j) + 1;
            const Cell2T<i64> m0 = M::cell(p, 0, bx, 0, t, 0), m1 = M::cell(p, 0, bx, 0, t + 1, 0);
            consecutive_map += edm::out_index(L, N, m1.i, m1.j) == edm::out_index(L, N, m0.i, m0.j) + 1;
          }
        const double f = pairs ? double(consecutive) / double(pairs) : 0.0;
        const bool good = f >= 0.99 && pairs + 0 > 0;
        ok = ok && good;
        std::printf("%s utm coalescing %-5s N=%-5lld %-6s: %.4f of adjacent in-warp thread pairs store to consecutive "
                    "addresses (the map's own order: %.4f)\n",
                    good ? "ok  " : "FAIL", M::name, (long long)N, edm::layout_name(L), f,
                    pairs ? double(consecutive_map) / double(pairs) : 0.0);
      }
  };
  run(UTM_N{});
  run(UTM_X{});
  return ok;
}

bool enough_memory(size_t bytes) {
  size_t free_b = 0, total_b = 0;
  TD_CUDA(cudaMemGetInfo(&free_b, &total_b));
  return bytes + (size_t(256) << 20) <= free_b;
}

void verify_edm(i64 N, Tally& t) {
  const auto t0 = std::chrono::steady_clock::now();
  Tally here;
  double max_rel = 0;
  const EdmCells cells = edm_cells(N);
  DevBuf<float> d_pts(size_t(N) * edm::max_features, "EDM points");
  // One output buffer for both layouts when the full matrix fits, else packed only.
  const bool full_ok = enough_memory(size_t(edm_capacity(N, EdmOutput::full)) * sizeof(float) +
                                     cells.i.size() * (sizeof(u64) + sizeof(float)));  // + check indices/values
  DevBuf<float> d_out(size_t(full_ok ? edm_capacity(N, EdmOutput::full) : edm_capacity(N, EdmOutput::packed)),
                      "EDM output");
  if (!full_ok) std::printf("  N=%lld: not enough GPU memory for the full layout; full-layout cases skipped\n", (long long)N);
  EdmVerifier ver;
  for (int d = 1; d <= edm::max_features; ++d) {
    const std::vector<float> pts = make_points(N, d);
    upload(d_pts.get(), pts);
    ver.prepare(cells, d, pts);
    for (EdmOutput L : {EdmOutput::full, EdmOutput::packed}) {
      for (const EdmKernel& k : edm_kernels()) {
        if (k.features != d || k.layout != L) continue;
        for (int rho : rhos) {
          const auto p = plan_or_skip(k, N, rho, here);
          if (!p) continue;
          if (L == EdmOutput::full && !full_ok) { ++here.skipped; continue; }
          const EdmResult r = ver.run(k, *p, d_pts.get(), d_out.get(), d_out.size());
          here.add(r.ok);
          max_rel = std::max(max_rel, r.max_rel);
          if (!r.ok)
            std::printf("  FAIL edm %-11s d=%d %-6s N=%-6lld rho=%-2d: %s\n", k.map.c_str(), d, edm::layout_name(L),
                        (long long)N, rho, r.msg.c_str());
          else if (r.bits_differ)  // allowed (the tolerance is what is demanded), but worth knowing
            std::printf("  note edm %-11s d=%d %-6s N=%-6lld rho=%-2d: %llu values differ in bits from the "
                        "host's pinned float evaluation (max rel err %.3g)\n",
                        k.map.c_str(), d, edm::layout_name(L), (long long)N, rho,
                        (unsigned long long)r.bits_differ, r.max_rel);
        }
      }
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("N=%-6lld edm:       %4llu/%-4llu passed, %3llu skipped, %s cells, max rel err %.3g (%.1f s)\n",
              (long long)N, (unsigned long long)here.passed, (unsigned long long)(here.passed + here.failed),
              (unsigned long long)here.skipped, cells.all ? "all" : "sampled", max_rel, s);
  std::fflush(stdout);
  t.passed += here.passed;
  t.failed += here.failed;
  t.skipped += here.skipped;
}

void verify_collision(i64 N, Tally& t) {
  const auto t0 = std::chrono::steady_clock::now();
  Tally here;
  CollisionVerifier ver;
  u64 pairs[2] = {0, 0};
  for (int dim : {3, 1}) {
    ver.prepare(N, dim);
    pairs[dim == 3 ? 0 : 1] = ver.ref_pairs();
    for (const CollisionKernel& k : collision_kernels()) {
      if (k.dim != dim) continue;
      for (int rho : rhos) {
        const auto p = plan_or_skip(k, N, rho, here);
        if (!p) continue;
        const CollisionResult r = ver.run(k, *p);
        here.add(r.ok);
        if (!r.ok)
          std::printf("  FAIL collision %-12s %dD N=%-6lld rho=%-2d: %s\n", k.label().c_str(), dim, (long long)N, rho,
                      r.msg.c_str());
      }
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("N=%-6lld collision: %4llu/%-4llu passed, %3llu skipped, pairs 3D %llu 1D %llu (%.1f s)\n",
              (long long)N, (unsigned long long)here.passed, (unsigned long long)(here.passed + here.failed),
              (unsigned long long)here.skipped, (unsigned long long)pairs[0], (unsigned long long)pairs[1], s);
  std::fflush(stdout);
  t.passed += here.passed;
  t.failed += here.failed;
  t.skipped += here.skipped;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, do_edm = true, do_coll = true;
  std::vector<std::string> only;
  bench::Cli cli("gpu_verify_apps", "gpu_verify_apps: the EDM and collision kernels against the CPU, on the GPU\noptions");
  cli.add()("quick", po::bool_switch(&quick), "fewer and smaller cases")
      ("only", po::value(&only)->composing(), "edm | collision | both (default both)");
  cli.parse(argc, argv);
  cli.check([&] {
    if (only.empty()) return;
    if (only.size() > 1) throw bench::bad_input("--only: give it once (edm, collision or both)");
    const std::string o = bench::parse_choice(only.back(), "--only", {"edm", "collision", "both"});
    do_edm = o != "collision";
    do_coll = o != "edm";
  });
  bench::start_gpu_check("gpu_verify_apps");  // 77 without a GPU (meson: skipped); a GPU without code: exit 2
  const int dev = gpu::require_gpu();
  cudaDeviceProp prop{};
  TD_CUDA(cudaGetDeviceProperties(&prop, dev));
  std::printf("gpu_verify_apps on %s (%s), %u host threads\n", prop.name, gpu::gpu_slug(prop).c_str(), host_workers());
  if (!self_test_checker()) {
    std::printf("FAIL: the device-side output checker does not pass its self-test\n");
    return 1;
  }
  Tally t;
  t.add(check_utm_coalesced());
  for (i64 N : quick ? sizes_quick : sizes_full) {
    if (do_edm) verify_edm(N, t);
    if (do_coll) verify_collision(N, t);
  }
  std::printf("%llu test cases out of %llu passed (%llu skipped: size not accepted by the map)\n",
              (unsigned long long)t.passed, (unsigned long long)(t.passed + t.failed), (unsigned long long)t.skipped);
  return t.failed == 0 && t.passed > 0 ? 0 : 1;
}
