// exact_table — the CPU oracle's exactness-range table: for each map variant the
// host reproduces bit for bit, the first index where it goes wrong and the
// largest exact N at rho = 8, 16, 32, and the index path (plan.hpp PlanBase::narrow)
// that serves its exact range: "32 (narrow)" when every plan of the range is narrow.
// Column rounding: "pinned" is the library's arithmetic (every product and sum rounded
// on its own; what the kernels run); "fma" the same formula with the products that nvcc's
// default -fmad=true contracts fused into one rounding (numbers.hpp Fused: the papers'
// binaries). Maps without such a product (ltm-d's fp64 2*lambda + 1/4 is exact, ltm-e and
// tet-e correct their estimate) have pinned rows only.
// The rows come from the registry: every map whose traits declare a root (registry/traits.hpp
// root_facts), in the registry's order: the 2D block maps' rows (g(lambda)), the 3D maps'
// layers, the thread maps; each pinned, then rounding fma where the map has one.
// Writes CSV to the path given (default stdout). Takes a few minutes (the UTM searches walk every thread of every N).
//   usage: exact_table [--maps NAME,...] [OUT.csv]     --maps: only these maps' rows (the throwaway-map test)
#include "oracle.hpp"
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)
#include "registry/map_names.hpp"    // the host emulation's name of a root (host_suffix)

#include <chrono>
#include <cstdio>
#include <string>
#include <csv_file.hpp>  // results::CsvFile, the one writer, and the layouts (src/support/results/)

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
// "2^k" for v = 2^k (a proven range, M::exact_blocks of a corrected map)
std::string pow2_text(u64 v) {
  int k = 0;
  while (k < 63 && (u64(1) << k) < v) ++k;
  return "2^" + std::to_string(k);
}
// The table's name of a map: the host's emulation of a device root is "<name>-host".
template <class M> std::string table_name() { return std::string(M::name) + (map_traits<M>::root.host_repro ? "" : host_suffix); }
// index_path of an exact range [0, end): narrow throughout, or narrow then wide up to `upto`.
std::string index_path(u64 end, u64 narrow_end, const char* narrow_name, const char* upto) {
  if (end <= narrow_end) return "32 (narrow)";
  return std::string("32 for lambda < ") + narrow_name + " = " + std::to_string(narrow_end) + "; 64 beyond (to " + upto + ")";
}
// One row of the table (source "cpu": the host's search), its cells by name.
struct RangeRow {
  std::string variant;                          // table_name<M>()
  const char* kind = "";                        // results::exact_kind::block / block3 / thread
  std::string first_wrong;                      // the first wrong index, or "none" below searched_up_to
  i64 n8 = 0, n16 = 0, n32 = 0;                 // the largest exact N at rho = 8, 16, 32
  u64 searched = 0;                             // searched_up_to
  const char* note = "";
  std::string path;                             // index_path
  const char* rounding = tdmaps::Pinned::name;  // Pinned::name or Fused::name
};
results::RowOf<results::layout::exact_ranges_cpu> range_row(const RangeRow& x) {
  results::RowOf<results::layout::exact_ranges_cpu> r;
  r.set(TD_COL("variant"), x.variant).set(TD_COL("kind"), x.kind).set(TD_COL("source"), "cpu");
  r.set(TD_COL("first_wrong"), x.first_wrong).set(TD_COL("largest_exact_N_rho8"), (long long)x.n8);
  r.set(TD_COL("largest_exact_N_rho16"), (long long)x.n16).set(TD_COL("largest_exact_N_rho32"), (long long)x.n32);
  r.set(TD_COL("searched_up_to"), (unsigned long long)x.searched).set(TD_COL("note"), x.note);
  r.set(TD_COL("index_path"), x.path).set(TD_COL("rounding"), x.rounding);
  return r;
}
}  // namespace

int main(int argc, char** argv) {
  std::string only;  // --maps: a comma-separated list; empty: every map with a root
  if (argc > 2 && std::string(argv[1]) == "--maps") {
    only = "," + std::string(argv[2]) + ",";
    argv += 2;
    argc -= 2;
  }
  const auto wanted = [&](const char* name) { return only.empty() || only.find("," + std::string(name) + ",") != std::string::npos; };
  // the one writer (no metadata line: the table's bytes depend on the code alone); no file: stdout
  results::CsvFile out(argc > 1 ? argv[1] : "-", "", results::layout::exact_ranges_cpu);
  const u64 lim2 = 1ull << 32;
  // upto: how far the exact range reaches when nothing fails below the search limit
  auto block_row = [&](const std::string& name, u64 fw, u64 searched, const char* note, const std::string& upto,
                       const char* rounding = tdmaps::Pinned::name) {
    RangeRow x;
    x.variant = name;
    x.kind = results::exact_kind::block;
    x.first_wrong = fw >= searched ? "none" : std::to_string(fw);
    x.n8 = largest_N2(fw, 8);
    x.n16 = largest_N2(fw, 16);
    x.n32 = largest_N2(fw, 32);
    x.searched = searched;
    x.note = note;
    x.path = index_path(fw, ltm_narrow_end, "tri(65535)", upto.c_str());
    x.rounding = rounding;
    out.row(range_row(x));
    std::fprintf(stderr, "[%6.1fs] %-10s %-6s first wrong block index %s\n", elapsed(), name.c_str(), rounding,
                 fw >= searched ? "none below search limit" : std::to_string(fw).c_str());
  };
  // the 2D block maps' rows g(lambda): every lambda < 2^32, row by row; a corrected map's range
  // reaches its proven M::exact_blocks (test_index_paths)
  for_each_root<root_kind::row>(maps2d{}, [&](auto m) {
    using M = decltype(m);
    using S = typename M::sqrt_policy;
    constexpr root_facts f = map_traits<M>::root;
    if (!wanted(M::name)) return;
    const std::string upto = f.corrected ? pow2_text(M::exact_blocks) + ": test_index_paths" : "2^32 searched";
    block_row(table_name<M>(), first_wrong_row([](u64 l) { return S::row(l).k; }, lim2), lim2, f.note, upto);
    if constexpr (f.fma)
      block_row(table_name<M>(), first_wrong_row([](u64 l) { return S::template row<u64, Fused>(l).k; }, lim2), lim2,
                f.fma_note, "2^32 searched", tdmaps::Fused::name);
  });

  const u64 lim3 = tet(2048);
  // a corrected layer's range reaches its proven M::exact_blocks (test_index_paths), past the search limit tet(2048)
  auto layer_row = [&](const std::string& name, u64 fw, const char* note, u64 proven = 0,
                       const char* rounding = tdmaps::Pinned::name) {
    const std::string upto = proven ? pow2_text(proven) + ": test_index_paths" : "";
    RangeRow x;
    x.variant = name;
    x.kind = results::exact_kind::block3;
    x.first_wrong = fw >= lim3 ? "none" : std::to_string(fw);
    x.n8 = largest_N3(fw, 8);
    x.n16 = largest_N3(fw, 16);
    x.n32 = largest_N3(fw, 32);
    x.searched = lim3;
    x.note = note;
    x.path = index_path(fw >= lim3 && proven ? proven : fw, tet_narrow_end(), "tet(2343)", upto.c_str());
    x.rounding = rounding;
    out.row(range_row(x));
    std::fprintf(stderr, "[%6.1fs] %-10s %-6s first wrong block index %s\n", elapsed(), name.c_str(), rounding,
                 fw >= lim3 ? "none below search limit" : std::to_string(fw).c_str());
  };
  for_each_root<root_kind::layer>(maps3d{}, [&](auto m) {
    using M = decltype(m);
    using R = typename M::root_policy;
    constexpr root_facts f = map_traits<M>::root;
    if (!wanted(M::name)) return;
    layer_row(table_name<M>(), first_wrong_layer([](u64 l) { return R::layer(l).k; }, lim3), f.note,
              f.corrected ? M::exact_blocks : 0);
    if constexpr (f.fma)
      layer_row(table_name<M>(), first_wrong_layer([](u64 l) { return R::template layer<u64, Fused>(l).k; }, lim3),
                f.fma_note, 0, tdmaps::Fused::name);
  });

  const i64 utm_top = 8192;
  // a thread map's narrow path: its plan at rho 32 (UTM is narrow while (N+2)^2 < 2^31, N <= 46338)
  auto utm_row = [&](const std::string& name, i64 last, bool nar, const char* note,
                     const char* rounding = tdmaps::Pinned::name) {
    RangeRow x;  // a thread map's exact range is the same N at every rho
    x.variant = name;
    x.kind = results::exact_kind::thread;
    x.first_wrong = last >= utm_top ? "none" : std::to_string(last + 1);
    x.n8 = x.n16 = x.n32 = last;
    x.searched = u64(utm_top);
    x.note = note;
    x.path = nar ? "32 (narrow)" : "64";
    x.rounding = rounding;
    out.row(range_row(x));
    std::fprintf(stderr, "[%6.1fs] %-10s %-6s exact for every N <= %lld\n", elapsed(), name.c_str(), rounding, (long long)last);
  };
  for_each_root<root_kind::thread>(maps2d{}, [&](auto m) {
    using M = decltype(m);
    constexpr root_facts f = map_traits<M>::root;
    if (!wanted(M::name)) return;
    const auto narrow = [](i64 last) { return M::plan(std::max<i64>(last, 1), 32, true).narrow; };
    const i64 last = utm_last_exact_N<M>(utm_top);
    utm_row(table_name<M>(), last, narrow(last), f.note);
    if constexpr (f.fma) {
      const i64 last_fma = utm_last_exact_N<M, Fused>(utm_top);
      utm_row(table_name<M>(), last_fma, narrow(last_fma), f.fma_note, tdmaps::Fused::name);
    }
  });
  return 0;
}
