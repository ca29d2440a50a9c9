// experiments/gram/peer_index_audit.cpp — peers' triangular index formulas audited (issue #27 item 6).
// Host only. For each formula of src/support/gram/peer_formulas.hpp (restated from the peers' published
// descriptions: torch.pdist's fp64 row, PyTorch tril_indices' root + fallback, QuACK's fp32 tile
// scheduler with the correctly rounded sqrtf and, as a proof bound, with sqrt.approx.f32) and for ours
// (LTM-E through tdmaps::TileMap, the call the Gram kernels make, and LTM-E's g on its 64-bit path),
// the first index it gets wrong: searched at every row's first index and its two neighbours (a
// proof for the formulas whose row is monotone in the index, peer_formulas.hpp) over the formula's
// index range, and cross-checked at every index of a small range.
//
//   peer_index_audit [OUT_DIR] [--quick]   writes OUT_DIR/cpu/peer_index_audit.csv
//                                          (default experiments/results; --quick: small ranges only,
//                                          for the meson test)
#include <gram/peer_formulas.hpp>
#include <tdmaps/numbers.hpp>
#include <tdmaps/tiles.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <results/csv_file.hpp>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)

using namespace tdmaps;
using namespace tdmaps::peers;

namespace {
struct Line {
  std::string formula, source, index_type, points_n, searched_range, method;
  FirstWrong fw;
  std::string verdict, note;
};
std::string num(i64 v) { return std::to_string(v); }
// CSV field: quoted when it holds a comma or a quote
std::string field(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
// Rows on a geometric sweep [r0, r1) with the given ratio (each distinct integer once).
std::vector<i64> sweep(i64 r0, i64 r1, double ratio) {
  std::vector<i64> v;
  for (double r = double(r0); r < double(r1); r *= ratio)
    if (v.empty() || i64(r) != v.back()) v.push_back(i64(r));
  v.push_back(r1 - 1);
  return v;
}
template <class Start, class RowOf>
void rows_search(FirstWrong& fw, const std::vector<i64>& rows, i64 limit, Start start, RowOf row_of) {
  for (i64 r : rows) boundary_search(fw, r, r + 1, limit, start, row_of);
}
}  // namespace

int main(int argc, char** argv) {
  std::string out = "experiments/results";
  bool quick = false, have_out = false;
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    if (s == "--quick") {
      quick = true;
    } else if (s.rfind("-", 0) == 0 || have_out) {
      std::fprintf(stderr, "usage: peer_index_audit [OUT_DIR] [--quick]   (writes OUT_DIR/cpu/peer_index_audit.csv)\n");
      return 2;
    } else {
      out = s;
      have_out = true;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Line> lines;
  const i64 i64max = std::numeric_limits<i64>::max();
  const i64 dense_rows = quick ? (i64(1) << 14) : (i64(1) << 22);  // every row below this
  const double ratio = quick ? 1.001 : 1.00001;                     // then a geometric sweep of rows
  const i64 exh = quick ? (i64(1) << 20) : (i64(1) << 24);          // exhaustive cross-check below this index
  const std::string dense_txt = quick ? "2^14" : "2^22", exh_txt = quick ? "2^20" : "2^24";
  const std::string ratio_txt = quick ? "1.001" : "1.00001";

  // 1. torch.pdist, fp64 row of condensed index k among n points
  {
    Line L{"torch.pdist fp64 row", "ATen DistanceKernel.cu pdist (its comment): i = floor(n2 - sqrt(n2^2 - 1 - 2k)), n2 = n - 1/2",
           "int64 condensed index k < n(n-1)/2 (double root)", "", "", "", {}, "", ""};
    std::vector<i64> ns = {i64(1) << 10, i64(1) << 14, 32768, 65536, i64(1) << 20, 1000000, i64(1) << 22, i64(1) << 24,
                           i64(1) << 26, 100000000, i64(1) << 27, 200000000, i64(1) << 28};
    if (quick) ns = {i64(1) << 10, i64(1) << 14, 65536, i64(1) << 28};
    std::string right_ns;
    for (i64 n : ns) {
      FirstWrong fw;
      boundary_search(fw, 0, n - 1, n * (n - 1) / 2, [n](i64 a) { return pdist_row_start(n, a); },
                      [n](i64 k) { return pdist_row(n, k); });
      L.fw.checked += fw.checked;
      if (fw.index >= 0) {
        L.fw.index = fw.index;
        L.fw.got = fw.got;
        L.fw.want = fw.want;
        L.points_n = num(n);
        break;
      }
      right_ns += (right_ns.empty() ? "" : " ") + num(n);
    }
    // cross-check: every condensed index at n = 4096
    {
      const i64 n = 4096;
      FirstWrong fw;
      exhaustive_search(fw, n * (n - 1) / 2, [n](i64 a) { return pdist_row_start(n, a); },
                        [n](i64 k) { return pdist_row(n, k); });
      L.fw.checked += fw.checked;
      if (fw.index >= 0) L.note = "exhaustive cross-check at n = 4096 found wrong index " + num(fw.index) + "; ";
    }
    std::string all_ns;
    for (i64 n : ns) all_ns += (all_ns.empty() ? "" : " ") + num(n);
    L.searched_range = "n in {" + all_ns + "} (in order until the first n with a wrong index); every k at n = 4096";
    L.method = "every row's first and last index (+-1) at each n (a proof: the row is monotone in k); exhaustive at n = 4096";
    L.note += "right at every row boundary for n in {" + right_ns + "}";
    lines.push_back(L);
  }

  // 2. PyTorch tril_indices, root + fallback
  {
    Line L{"torch tril_indices root + fallback", "ATen TensorFactories resolve_root_int (its comments): floor((-b + sqrt(b^2 - 4c)) / 2) in double, "
           "b = 1, c = -2x; binary-search repair where the double square is not b^2 - 4c",
           "int64 linear index x of the lower triangle with diagonal", "", "", "", {}, "", ""};
    const i64 rmax = (i64(1) << 32) - 1;  // tri_start(rmax) < 2^63
    boundary_search(L.fw, 1, dense_rows, i64max, tri_start, tril_row);
    rows_search(L.fw, sweep(dense_rows, rmax, ratio), i64max, tri_start, tril_row);
    for (i64 x = (i64(1) << 60) - 2; x <= (i64(1) << 60) + 2; ++x) L.fw.see(x, tril_row(x), i64(tri_root(u64(x))));
    FirstWrong ex;
    exhaustive_search(ex, exh, tri_start, tril_row);
    L.fw.checked += ex.checked;
    if (ex.index >= 0) L.note = "exhaustive cross-check found wrong index " + num(ex.index) + "; ";
    L.searched_range = "x < 2^63: every row < " + dense_txt + ", rows on a geometric sweep (ratio " + ratio_txt +
                       ") up to 2^32 - 1, x = 2^60 +- 2; every x < " + exh_txt;
    L.method = "every checked row's first index +-1 (not a proof: the fallback is not monotone); exhaustive below " + exh_txt;
    L.note += "the fallback's binary search repairs every double root checked; from x = 2^60 the integer 1 + 8x overflows int64 (no defined row)";
    lines.push_back(L);
  }

  // 3. QuACK, fp32 with the correctly rounded sqrtf
  const i64 quack_limit = i64(1) << 31;  // Int32 tile indices
  const i64 quack_rows = 65536;          // tri_start(65536) > 2^31
  {
    Line L{"QuACK TriangularTileScheduler fp32 (sqrtf rn)", "Dao-AILab/quack triangular_idx_to_coord: row = ceil(sqrt(2 idx + 2.25) - 0.5) - 1 "
           "in float32 (2 idx an Int32), col = idx - row(row+1)/2; the correctly rounded sqrt",
           "int32 tile index idx of the lower triangle with diagonal", "", "", "", {}, "", ""};
    const auto row = [](i64 x) { return quack_row_rn(i32(x)); };
    boundary_search(L.fw, 1, quack_rows, quack_limit, tri_start, row);
    FirstWrong ex;
    exhaustive_search(ex, exh, tri_start, row);
    L.fw.checked += ex.checked;
    if (ex.index >= 0 && ex.index != L.fw.index)
      L.note = "exhaustive cross-check: first wrong " + num(ex.index) + " (boundary search: " + num(L.fw.index) + "); ";
    else if (ex.index >= 0)
      L.note = "the exhaustive cross-check finds the same first wrong index; ";
    L.searched_range = "idx < 2^31: every row; every idx < " + exh_txt;
    L.method = "every row's first and last index (+-1) (a proof: the row is monotone in idx); exhaustive below " + exh_txt;
    L.note += "2 idx overflows Int32 from idx = 2^30 (no defined row)";
    lines.push_back(L);
  }

  // 4. QuACK, sqrt.approx.f32: a proof bound
  {
    Line L{"QuACK TriangularTileScheduler fp32 (sqrt approx, bound)", "Dao-AILab/quack triangular_idx_to_coord with sqrt(..., approx=True): "
           "PTX sqrt.approx.f32, relative error <= 2^-23 (PTX ISA)",
           "int32 tile index idx of the lower triangle with diagonal", "", "", "", {}, "", ""};
    const auto given = [](i64 x, i64 want) { return quack_approx_admitted_row(i32(x), want); };
    boundary_search_bound(L.fw, 1, quack_rows, quack_limit, tri_start, given);
    FirstWrong ex;
    exhaustive_search_bound(ex, exh, tri_start, given);
    L.fw.checked += ex.checked;
    if (ex.index >= 0 && ex.index != L.fw.index)
      L.note = "exhaustive cross-check: first " + num(ex.index) + " (boundary search: " + num(L.fw.index) + "); ";
    L.searched_range = "idx < 2^31: every row; every idx < " + exh_txt;
    L.method = "is another row admitted by some float within 2^-23 of the root of the same float argument (exact "
               "integer test); every row's first and last index (+-1), exhaustive below " + exh_txt;
    L.note += "a proof bound, not an error seen: at a row's last index the exact root is r + 3/2 and the bound admits "
              "the float above it (row r + 1); the hardware's own values are not known on a CPU";
    lines.push_back(L);
  }

  // 5. ours: LTM-E through TileMap at c = 65535 (the narrow, 32-bit path of the kernels' tile())
  {
    Line L{"tdmaps LTM-E TileMap::tile (narrow u32 path)", "src/lib/tdmaps/tiles.hpp TileMap<LTM_E>::make(65535).tile(bx, by): "
           "the call the Gram kernels make (map_ltm.hpp g, float estimate + integer correction)",
           "uint32 block index lambda of the lower triangle with diagonal", "", "", "", {}, "", ""};
    const auto tm = TileMap<LTM_E>::make(65535);
    const u32 gx = tm.grid().x;
    const i64 limit = i64(tm.launched());
    const auto row = [&](i64 l) {
      const Cell2T<i64> c = tm.tile(u32(u64(l) % gx), u32(u64(l) / gx));
      return c.inside && c.j >= 0 && c.j <= c.i && tri_start(c.i) + c.j == l ? c.i : undefined_row;
    };
    boundary_search(L.fw, 1, 65536, limit, tri_start, row);
    FirstWrong ex;
    exhaustive_search(ex, exh, tri_start, row);
    L.fw.checked += ex.checked;
    if (ex.index >= 0) L.note = "exhaustive cross-check found wrong index " + num(ex.index) + "; ";
    L.searched_range = "lambda < 65535 * 65536 / 2 = 2^31 - 32768 (QuACK's Int32 range less its last 32768): every row; every lambda < " + exh_txt;
    L.method = "every row's first and last index (+-1), (I, J) checked (J = lambda - I(I+1)/2); exhaustive below " + exh_txt;
    L.note += "every lambda < 2^32 is also proven by verify/test_index_paths.cpp and swept on the GPU (gpu_exact_range)";
    lines.push_back(L);
  }

  // 6. ours: LTM-E's g on the 64-bit path
  {
    Line L{"tdmaps LTM-E g (wide u64 path)", "src/lib/tdmaps/map_ltm.hpp LTM_E::g<i64>: double estimate + integer correction "
           "(numbers.hpp tri_correct)", "uint64 block index lambda of the lower triangle with diagonal", "", "", "", {}, "", ""};
    const i64 limit = i64(1) << 62, rmax = 3037000499;  // tri_start(rmax + 1) > 2^62
    const auto row = [](i64 l) {
      const Cell2T<i64> c = LTM_E::g<i64>(u64(l));
      return c.j >= 0 && c.j <= c.i && tri_start(c.i) + c.j == l ? c.i : undefined_row;
    };
    boundary_search(L.fw, 1, dense_rows, limit, tri_start, row);
    rows_search(L.fw, sweep(dense_rows, rmax + 1, ratio), limit, tri_start, row);
    for (i64 x = (i64(1) << 60) - 2; x <= (i64(1) << 60) + 2; ++x) L.fw.see(x, row(x), i64(tri_root(u64(x))));
    FirstWrong ex;
    exhaustive_search(ex, exh, tri_start, row);
    L.fw.checked += ex.checked;
    if (ex.index >= 0) L.note = "exhaustive cross-check found wrong index " + num(ex.index) + "; ";
    L.searched_range = "lambda < 2^62 (the wide path's range): every row < " + dense_txt + ", rows on a geometric sweep (ratio " +
                       ratio_txt + ") up to 3037000499, lambda = 2^60 +- 2; every lambda < " + exh_txt;
    L.method = "every checked row's first index +-1, (I, J) checked; exhaustive below " + exh_txt;
    L.note += "tdmaps plans cap a grid at 2^46 blocks; the wide path's estimate is within one of the row for lambda < 2^62 (numbers.hpp)";
    lines.push_back(L);
  }

  for (Line& L : lines) {
    const bool bound = L.formula.find("bound") != std::string::npos;
    if (L.fw.index < 0) L.verdict = "right everywhere searched";
    else if (bound) L.verdict = "may be wrong from " + num(L.fw.index);
    else if (L.fw.got == undefined_row) L.verdict = "undefined from " + num(L.fw.index);
    else L.verdict = "wrong from " + num(L.fw.index);
  }

  const std::string path = out + "/cpu/" + results::layout::peer_index_audit.file;
  results::CsvFile f(path,
                   std::string("{\"program\":\"peer_index_audit\",\"date_utc\":\"") + results::utc_now() +
                       "\",\"ranges\":\"" + (quick ? "quick" : "full") + "\"}",
                   results::layout::peer_index_audit);
  for (const Line& L : lines) {
    const bool w = L.fw.index >= 0;
    const std::string got = !w ? "" : L.fw.got == undefined_row ? "undefined" : num(L.fw.got);
    results::RowOf<results::layout::peer_index_audit> r;
    r.set(TD_COL("formula"), field(L.formula)).set(TD_COL("source"), field(L.source));
    r.set(TD_COL("index_type"), field(L.index_type)).set(TD_COL("points_n"), L.points_n);
    r.set(TD_COL("searched_range"), field(L.searched_range)).set(TD_COL("method"), field(L.method));
    r.set(TD_COL("indices_checked"), (unsigned long long)L.fw.checked).set(TD_COL("first_wrong"), w ? num(L.fw.index) : "");
    r.set(TD_COL("first_wrong_row"), got).set(TD_COL("right_row"), w ? num(L.fw.want) : "");
    r.set(TD_COL("verdict"), field(L.verdict)).set(TD_COL("note"), field(L.note));
    f.row(r);
    std::fprintf(stderr, "%-58s %s (%llu indices checked)\n", L.formula.c_str(), L.verdict.c_str(),
                 (unsigned long long)L.fw.checked);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "wrote %s in %.1f s\n", path.c_str(), secs);
  return 0;
}
