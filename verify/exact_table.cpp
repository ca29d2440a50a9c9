// exact_table — the CPU oracle's exactness-range table: for each map variant the
// host reproduces bit for bit, the first index where it goes wrong and the
// largest exact N at rho = 8, 16, 32. Writes CSV to the path given (default
// stdout). Takes a few minutes (the UTM searches walk every thread of every N).
//   usage: exact_table [OUT.csv]
#include "oracle.hpp"

#include <chrono>
#include <cstdio>
#include <string>

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
}  // namespace

int main(int argc, char** argv) {
  std::FILE* out = argc > 1 ? std::fopen(argv[1], "w") : stdout;
  if (!out) {
    std::fprintf(stderr, "exact_table: cannot write %s\n", argv[1]);
    return 2;
  }
  std::fprintf(out, "variant,kind,source,first_wrong,largest_exact_N_rho8,largest_exact_N_rho16,largest_exact_N_rho32,searched_up_to,note\n");
  const u64 lim2 = 1ull << 32;
  auto block_row = [&](const char* name, u64 fw, u64 searched, const char* note) {
    std::fprintf(out, "%s,block,cpu,%s,%lld,%lld,%lld,%llu,%s\n", name, fw >= searched ? "none" : std::to_string(fw).c_str(),
                 (long long)largest_N2(fw, 8), (long long)largest_N2(fw, 16), (long long)largest_N2(fw, 32),
                 (unsigned long long)searched, note);
    std::fflush(out);
    std::fprintf(stderr, "[%6.1fs] %-10s first wrong block index %s\n", elapsed(), name,
                 fw >= searched ? "none below search limit" : std::to_string(fw).c_str());
  };
  block_row("ltm-x", first_wrong_row([](u64 l) { return SqrtX::row(l).k; }, lim2), lim2, "sqrtf correctly rounded; no eps");
  block_row("ltm-n", first_wrong_row([](u64 l) { return SqrtN::row(l).k; }, lim2), lim2, "3 Newton steps from 0x5f3759df + 1e-4; no FMA");
  block_row("ltm-r-host", first_wrong_row([](u64 l) { return SqrtR::row(l).k; }, lim2), lim2,
            "host emulation (correctly rounded 1/sqrt); the device rsqrtf differs: see the GPU table");
  block_row("ltm-d", first_wrong_row([](u64 l) { return SqrtD::row(l).k; }, lim2), lim2, "fp64 sqrt");
  block_row("ltm-e", first_wrong_row([](u64 l) { return SqrtE::row(l).k; }, lim2), lim2, "float estimate + integer correction");

  const u64 lim3 = tet(2048);
  auto layer_row = [&](const char* name, u64 fw, const char* note) {
    std::fprintf(out, "%s,block3,cpu,%s,%lld,%lld,%lld,%llu,%s\n", name, fw >= lim3 ? "none" : std::to_string(fw).c_str(),
                 (long long)largest_N3(fw, 8), (long long)largest_N3(fw, 16), (long long)largest_N3(fw, 32),
                 (unsigned long long)lim3, note);
    std::fflush(out);
    std::fprintf(stderr, "[%6.1fs] %-10s first wrong block index %s\n", elapsed(), name,
                 fw >= lim3 ? "none below search limit" : std::to_string(fw).c_str());
  };
  layer_row("tet-f-host", first_wrong_layer([](u64 l) { return TetRootF::layer(l).k; }, lim3),
            "eq. (14) in float; host cbrtf; the device cbrtf differs: see the GPU table");
  layer_row("tet-e", first_wrong_layer([](u64 l) { return TetRootE::layer(l).k; }, lim3), "float estimate + integer correction");

  const i64 utm_top = 8192;
  auto utm_row = [&](const char* name, i64 last, const char* note) {
    std::fprintf(out, "%s,thread,cpu,%s,%lld,%lld,%lld,%lld,%s\n", name, last >= utm_top ? "none" : std::to_string(last + 1).c_str(),
                 (long long)last, (long long)last, (long long)last, (long long)utm_top, note);
    std::fflush(out);
    std::fprintf(stderr, "[%6.1fs] %-10s exact for every N <= %lld\n", elapsed(), name, (long long)last);
  };
  utm_row("utm-x", utm_last_exact_N<UTM_X>(utm_top), "first_wrong is the first N; any rho");
  utm_row("utm-n", utm_last_exact_N<UTM_N>(utm_top), "first_wrong is the first N; any rho");
  if (out != stdout) std::fclose(out);
  return 0;
}
