// experiments/maps3d/gpu_verify_3d.cu — the tetrahedral kernels checked on the GPU:
//   coverage   every 3D map of the registry's maps3d (maps3d_host.hpp: those whose plan
//              is always exact at every size, map3_exact_names; the others, a float root
//              without correction, only where plan() accepts the size, map3_inexact_names),
//              both modes, maps every cell of the pyramid exactly once and nothing else, on odd N that
//              are not multiples of rho, up to N = 4095, rho in {4, 8, 10};
//   threebody  the 3-body histogram of every variant equals the CPU's, exactly;
//   layout     one diffusion step, linear and blocked layout, every variant: bit-equal
//              to the CPU reference cell by cell, padding slots never written;
//   layout-bw  the bandwidth-bound layout kernel (1, 4, 8 planes), every variant, both
//              layouts: every cell's planes = in + 1 bit for bit, padding never written;
//              and its bandwidth reference (bw_copy) on odd and large lengths;
//   exact      where the layer and row roots stop being exact ON THE DEVICE: the first
//              lambda with tet(z) <= lambda < tet(z + 1) false (tri for rows), searched
//              over lambda < 2^34 or up to the first failure, for every TET<R> of the
//              registry's maps3d (maps3d_host.hpp tet_exact_jobs: the 64-bit path of
//              each, the 32-bit path of those whose plan is always exact, a row over its
//              root's range where it declares one: tet-fast's lambda' < 2^29); the maps
//              whose plan is always exact (tet-e, tet-fast) must have none. Written to
//              <out>/<gpu_slug>/tet_exact_range_gpu.csv.
// Prints one line per case and "X test cases out of Y passed"; exit 0 when all pass,
// 1 otherwise, 77 when there is no GPU (meson: skipped), 2 on bad arguments.
#include "maps3d_gpu.hpp"

#include <bench/gpu.cuh>

#include <boost/program_options.hpp>

#include <chrono>
#include <cinttypes>
#include <filesystem>
#include <iostream>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)
#include "gpu_verify_3d_rows.hpp"  // the CSV row by column name (host only; verify/test_experiment_rows checks it)

namespace po = boost::program_options;
using namespace tdmaps;
using namespace tdmaps::exp3d;

namespace {

int passed = 0, total = 0;
void report(bool ok, const std::string& name, const std::string& detail) {
  ++total;
  passed += ok;
  std::printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name.c_str(), detail.empty() ? "" : ": ", detail.c_str());
  std::fflush(stdout);
}

// Every 3D map whose plan is always exact (maps3d_host.hpp map3_exact_names: the registry's), both modes.
const std::vector<Variant>& exact_variants() {
  static const std::vector<Variant> v = [] {
    std::vector<Variant> r;
    for (const std::string& m : map3_exact_names())
      for (Mode md : {Mode::thread, Mode::block}) r.push_back({m, md});
    return r;
  }();
  return v;
}

// Largest N = n rho whose tet(n) blocks all lie below `blocks` (leading exact lambdas).
i64 largest_N(u64 blocks, int rho) {
  u64 n = tet_root(blocks);
  while (n > 0 && tet(n) > blocks) --n;
  return i64(n) * rho;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_dir = bench::default_results_dir();
  bool quick = false;
  bench::Cli cli("gpu_verify_3d", "gpu_verify_3d: the tetrahedral kernels against the CPU, on the GPU\noptions");
  cli.add()("out", po::value<std::string>(&out_dir)->default_value(bench::default_results_dir()), "results folder (exact-range CSV)")
      ("quick", po::bool_switch(&quick), "fewer and smaller cases; exact ranges up to 2^30");
  cli.parse(argc, argv);
  bench::start_gpu_check("gpu_verify_3d");  // 77 without a GPU (meson: skipped); a GPU without code: exit 2
  const int dev = gpu::require_gpu();
  cudaDeviceProp prop{};
  TD_CUDA(cudaGetDeviceProperties(&prop, dev));
  std::printf("gpu_verify_3d on %s\n", prop.name);
  const auto t0 = std::chrono::steady_clock::now();

  // ---- coverage ----
  const std::vector<i64> cov_N = quick ? std::vector<i64>{1, 2, 7, 9, 13, 31, 33, 63, 65, 101, 127, 255, 513}
                                       : std::vector<i64>{1, 2, 3, 7, 9, 13, 31, 33, 63, 65, 101, 127, 255, 257, 511, 1001, 2047, 4095};
  for (int rho : {4, 8, 10})
    for (i64 N : cov_N) {
      for (const Variant& v : exact_variants())
        for (const bool wide : {false, true}) {  // the plan's path (32-bit here), then the 64-bit path
          std::string e;
          try {
            e = verify_coverage(v, N, rho, false, wide);
          } catch (const std::exception& x) {
            e = x.what();
          }
          report(e.empty(), "coverage " + v.label() + " rho=" + std::to_string(rho) + " N=" + std::to_string(N) +
                                (wide ? " path=64" : " path=plan"), e);
        }
      // the others (tet-f, eq. (14) as published) only where their plan is exact
      for (const std::string& map : map3_inexact_names())
      for (Mode m : {Mode::thread, Mode::block}) {
        const Variant v{map, m};
        bool planned = true;
        try {
          plan3(map, N, rho, false);
        } catch (const unsupported&) {
          planned = false;
        }
        if (!planned) continue;
        const std::string e = verify_coverage(v, N, rho, false);
        report(e.empty(), "coverage " + v.label() + " rho=" + std::to_string(rho) + " N=" + std::to_string(N), e);
      }
    }

  // ---- threebody ----
  const std::vector<i64> tb_N = quick ? std::vector<i64>{1, 5, 17, 97, 255} : std::vector<i64>{1, 2, 5, 17, 64, 97, 255, 513, 1001};
  for (int rho : {4, 8, 10})
    for (i64 N : tb_N)
      for (const Variant& v : exact_variants()) {
        const std::string e = verify_threebody(v, N, rho, 0.25f);
        report(e.empty(), "threebody " + v.label() + " rho=" + std::to_string(rho) + " N=" + std::to_string(N), e);
      }

  // ---- layout ----
  const std::vector<i64> ly_N = quick ? std::vector<i64>{1, 5, 17, 63, 129} : std::vector<i64>{1, 2, 5, 9, 17, 33, 63, 100, 129, 255, 301};
  for (int rho : {4, 8, 10})
    for (i64 N : ly_N)
      for (const Variant& v : exact_variants())
        for (DataLayout3 l : {DataLayout3::linear, DataLayout3::blocked}) {
          const std::string e = verify_layout(v, l, N, rho);
          report(e.empty(),
                 std::string("layout ") + layout_str(l) + " " + v.label() + " rho=" + std::to_string(rho) + " N=" + std::to_string(N), e);
        }

  // ---- the bandwidth-bound layout kernel (every plane count) and its reference ----
  const std::vector<i64> bw_N = quick ? std::vector<i64>{1, 5, 17, 63} : std::vector<i64>{1, 2, 5, 9, 17, 33, 63, 100, 129};
  for (int rho : {4, 8, 10})
    for (i64 N : bw_N)
      for (const Variant& v : exact_variants())
        for (DataLayout3 l : {DataLayout3::linear, DataLayout3::blocked})
          for (int planes : kBwPlaneCounts) {
            const std::string e = verify_layout_bw(v, l, N, rho, planes);
            report(e.empty(), std::string("layout-bw ") + layout_str(l) + " " + v.label() + " planes=" + std::to_string(planes) +
                                  " rho=" + std::to_string(rho) + " N=" + std::to_string(N), e);
          }
  for (u64 n : {u64(1), u64(3), u64(4), u64(1001), u64(1) << 20, (u64(1) << 24) + 7}) {
    const std::string e = verify_bw_reference(n);
    report(e.empty(), "bw-reference n=" + std::to_string(n), e);
  }

  // ---- exact ranges on the device ----
  const std::string dir = out_dir + "/" + gpu::gpu_slug(prop);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) gpu::die("cannot create " + dir + ": " + ec.message());
  const std::string path = dir + "/" + results::layout::tet_exact_range_gpu.file;
  {
    results::CsvFile csv(path, gpu::metadata_json("gpu_verify_3d", quick ? "--quick" : ""), results::layout::tet_exact_range_gpu);
    unsigned long long* scratch = gpu::device_alloc<unsigned long long>(1, "scratch");
    const u64 lim = quick ? (1ull << 30) : (1ull << 34);
    // The 32-bit path serves lambda < 2^31 (narrow plans have tet(n) < 2^31).
    const u64 lim32 = quick ? (1ull << 30) : (1ull << 31);
    // every TET<R> of the registry's maps3d, both parts and paths (maps3d_host.hpp tet_exact_jobs)
    for (const TetExactJob& j : tet_exact_jobs(lim, lim32)) {
      const auto a = std::chrono::steady_clock::now();
      const u64 first = j.layer ? gpu_first_wrong_layer(j.root, 0, j.end, scratch, j.narrow)
                                : gpu_first_wrong_row(j.root, 0, j.end, scratch, j.narrow);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
      const bool none = first == j.end;
      const char* part = j.layer ? results::tet_part::layer : results::tet_part::row;
      const auto exact_N = [&](int rho) { return j.layer ? std::to_string(largest_N(first, rho)) : std::string(); };
      rows::TetExactRangeGpuRow e;
      e.root = j.root;
      e.part = part;
      e.first_wrong = none ? "none" : std::to_string(first);
      e.searched_to = j.end;
      e.largest_exact_N_rho4 = exact_N(4);
      e.largest_exact_N_rho8 = exact_N(8);
      e.largest_exact_N_rho10 = exact_N(10);
      e.note = j.note;  // free text: the row writes it quoted
      e.index_bits = j.narrow ? 32 : 64;
      csv.row(rows::tet_exact_range_gpu_row(e));
      const std::string detail = (none ? "exact for every lambda < " + std::to_string(j.end)
                                       : "first wrong lambda " + std::to_string(first)) +
                                 " (" + std::to_string(s).substr(0, 5) + " s)";
      report(!j.must_be_exact || none,
             "exact-range " + j.root + " " + part + (j.narrow ? " path=32" : " path=64"), detail);
    }
    cudaFree(scratch);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("exact ranges written to %s\n", path.c_str());
  std::printf("%d test cases out of %d passed (%.1f s)\n", passed, total, secs);
  return passed == total ? 0 : 1;
}
