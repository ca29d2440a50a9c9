// exact_table — the CPU oracle's exactness-range table: for each map variant the
// host reproduces bit for bit, the first index where it goes wrong and the
// largest exact N at rho = 8, 16, 32, and the index path (plan.hpp PlanBase::narrow)
// that serves its exact range: "32 (narrow)" when every plan of the range is narrow.
// Column rounding: "pinned" is the library's arithmetic (every product and sum rounded
// on its own; what the kernels run); "fma" the same formula with the products that nvcc's
// default -fmad=true contracts fused into one rounding (numbers.hpp Fused: the papers'
// binaries). Maps without such a product (ltm-d's fp64 2*lambda + 1/4 is exact, ltm-e and
// tet-e correct their estimate) have pinned rows only.
// Writes CSV to the path given (default stdout). Takes a few minutes (the UTM searches walk every thread of every N).
//   usage: exact_table [OUT.csv]
#include "oracle.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)

using namespace tdmaps;
using namespace tdmaps::oracle;

namespace {
std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
double elapsed() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }

i64 largest_N2(u64 blocks, int rho) {
  u64 n = tri_root(blocks);
  if (tri(n) > blocks) --n;
  return i64(n) * rho;
}
i64 largest_N3(u64 blocks, int rho) {
  u64 n = tet_root(blocks);
  if (tet(n) > blocks) --n;
  return i64(n) * rho;
}
// The narrow path's last block index + 1 (map_ltm.hpp LTM::narrow_max_n; map_3d.hpp TET::plan).
const u64 ltm_narrow_end = tri(65535);
u64 tet_narrow_end() {
  u64 n = 1;
  while (tet(n + 1) < (1ull << 31) && tet(n + 3) < (1ull << 32)) ++n;
  return tet(n);
}
// index_path of an exact range [0, end): narrow throughout, or narrow then wide up to `upto`.
std::string index_path(u64 end, u64 narrow_end, const char* narrow_name, const char* upto) {
  if (end <= narrow_end) return "32 (narrow)";
  return std::string("32 for lambda < ") + narrow_name + " = " + std::to_string(narrow_end) + "; 64 beyond (to " + upto + ")";
}
}  // namespace

int main(int argc, char** argv) {
  std::FILE* out = argc > 1 ? std::fopen(argv[1], "w") : stdout;
  if (!out) {
    std::fprintf(stderr, "exact_table: cannot write %s\n", argv[1]);
    return 2;
  }
  std::fprintf(out, "%s\n", results::layout::exact_ranges_cpu.columns);
  const u64 lim2 = 1ull << 32;
  // upto: how far the exact range reaches when nothing fails below the search limit
  auto block_row = [&](const char* name, u64 fw, u64 searched, const char* note, const char* upto = "2^32 searched",
                       const char* rounding = "pinned") {
    std::fprintf(out, "%s,block,cpu,%s,%lld,%lld,%lld,%llu,%s,%s,%s\n", name, fw >= searched ? "none" : std::to_string(fw).c_str(),
                 (long long)largest_N2(fw, 8), (long long)largest_N2(fw, 16), (long long)largest_N2(fw, 32),
                 (unsigned long long)searched, note, index_path(fw, ltm_narrow_end, "tri(65535)", upto).c_str(), rounding);
    std::fflush(out);
    std::fprintf(stderr, "[%6.1fs] %-10s %-6s first wrong block index %s\n", elapsed(), name, rounding,
                 fw >= searched ? "none below search limit" : std::to_string(fw).c_str());
  };
  block_row("ltm-x", first_wrong_row([](u64 l) { return SqrtX::row(l).k; }, lim2), lim2, "sqrtf correctly rounded; no eps");
  block_row("ltm-x", first_wrong_row([](u64 l) { return SqrtX::row<u64, Fused>(l).k; }, lim2), lim2,
            "sqrtf correctly rounded; no eps; 2 lambda + 1/4 as one FMA (exact either way)", "2^32 searched", "fma");
  block_row("ltm-n", first_wrong_row([](u64 l) { return SqrtN::row(l).k; }, lim2), lim2, "3 Newton steps from 0x5f3759df + 1e-4; no FMA");
  block_row("ltm-n", first_wrong_row([](u64 l) { return SqrtN::row<u64, Fused>(l).k; }, lim2), lim2,
            "3 Newton steps from 0x5f3759df + 1e-4; each step's 1.5 - xhalf*y*y and x*y + eps as FMAs", "2^32 searched", "fma");
  block_row("ltm-r-host", first_wrong_row([](u64 l) { return SqrtR::row(l).k; }, lim2), lim2,
            "host emulation (correctly rounded 1/sqrt); the device rsqrtf differs: see the GPU table");
  block_row("ltm-r-host", first_wrong_row([](u64 l) { return SqrtR::row<u64, Fused>(l).k; }, lim2), lim2,
            "host emulation (correctly rounded 1/sqrt); x*rsqrt(x) + eps as one FMA; the device rsqrtf differs: see the GPU table",
            "2^32 searched", "fma");
  block_row("ltm-d", first_wrong_row([](u64 l) { return SqrtD::row(l).k; }, lim2), lim2, "fp64 sqrt");
  block_row("ltm-e", first_wrong_row([](u64 l) { return SqrtE::row(l).k; }, lim2), lim2, "float estimate + integer correction",
            "2^62: test_index_paths");

  const u64 lim3 = tet(2048);
  // tet-e's range reaches 2^60 (test_index_paths), past the search limit tet(2048)
  auto layer_row = [&](const char* name, u64 fw, const char* note, u64 proven = 0, const char* rounding = "pinned") {
    std::fprintf(out, "%s,block3,cpu,%s,%lld,%lld,%lld,%llu,%s,%s,%s\n", name, fw >= lim3 ? "none" : std::to_string(fw).c_str(),
                 (long long)largest_N3(fw, 8), (long long)largest_N3(fw, 16), (long long)largest_N3(fw, 32),
                 (unsigned long long)lim3, note,
                 index_path(fw >= lim3 && proven ? proven : fw, tet_narrow_end(), "tet(2343)", "2^60: test_index_paths").c_str(),
                 rounding);
    std::fflush(out);
    std::fprintf(stderr, "[%6.1fs] %-10s %-6s first wrong block index %s\n", elapsed(), name, rounding,
                 fw >= lim3 ? "none below search limit" : std::to_string(fw).c_str());
  };
  layer_row("tet-f-host", first_wrong_layer([](u64 l) { return TetRootF::layer(l).k; }, lim3),
            "eq. (14) in float; host cbrtf; the device cbrtf differs: see the GPU table");
  layer_row("tet-f-host", first_wrong_layer([](u64 l) { return TetRootF::layer<u64, Fused>(l).k; }, lim3),
            "eq. (14) in float; host cbrtf; 729 l*l - 3 and sqrt + 27 l as FMAs; the device cbrtf differs: see the GPU table",
            0, "fma");
  layer_row("tet-e", first_wrong_layer([](u64 l) { return TetRootE::layer(l).k; }, lim3), "float estimate + integer correction",
            limits::tet_e_blocks);

  const i64 utm_top = 8192;
  // UTM is narrow while (N+2)^2 < 2^31 (N <= 46338): map_utm.hpp UTM::plan
  auto utm_row = [&](const char* name, i64 last, const char* note, const char* rounding = "pinned") {
    const bool nar = UTM_N::plan(std::max<i64>(last, 1), 32, true).narrow;
    std::fprintf(out, "%s,thread,cpu,%s,%lld,%lld,%lld,%lld,%s,%s,%s\n", name, last >= utm_top ? "none" : std::to_string(last + 1).c_str(),
                 (long long)last, (long long)last, (long long)last, (long long)utm_top, note, nar ? "32 (narrow)" : "64", rounding);
    std::fflush(out);
    std::fprintf(stderr, "[%6.1fs] %-10s %-6s exact for every N <= %lld\n", elapsed(), name, rounding, (long long)last);
  };
  utm_row("utm-x", utm_last_exact_N<UTM_X>(utm_top), "first_wrong is the first N; any rho");
  utm_row("utm-x", utm_last_exact_N<UTM_X, Fused>(utm_top), "first_wrong is the first N; any rho; (4n)n - 4n as one FMA", "fma");
  utm_row("utm-n", utm_last_exact_N<UTM_N>(utm_top), "first_wrong is the first N; any rho");
  utm_row("utm-n", utm_last_exact_N<UTM_N, Fused>(utm_top),
          "first_wrong is the first N; any rho; (4n)n - 4n and the Newton steps and x*y - (2n+1) as FMAs", "fma");
  if (out != stdout) std::fclose(out);
  return 0;
}
