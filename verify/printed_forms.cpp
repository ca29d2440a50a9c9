// printed_forms — the papers' formulas as printed against the library's forms
// (verify/printed_forms.hpp), one CSV row each, for the claims report:
//   formula,paper,equation,arithmetic,searched,first_wrong_lambda,first_wrong_N,outcome
// first_wrong_lambda: the first block index mapped to a wrong cell ("none" below `searched`,
// "-" for a thread map); first_wrong_N: the first N whose map is not a bijection onto the
// triangle ("none" up to `searched`, "-" for a block map). verify/test_printed_forms.cpp
// checks the same values. Usage: printed_forms [OUT.csv] (default stdout); about a minute.
#include "printed_forms.hpp"

#include <cstdio>
#include <csv_file.hpp>  // results::CsvFile, the one writer, and the layouts (src/support/results/)

using namespace tdmaps;
using namespace tdmaps::oracle;
using namespace tdmaps::oracle::printed;

namespace {
std::string num(u64 v, u64 none_at) { return v >= none_at ? "none" : std::to_string(v); }
std::string cell(const Cell2& c) { return "(" + std::to_string(c.i) + ", " + std::to_string(c.j) + ")"; }
std::string cov(const Coverage& c) {
  return std::to_string(c.duplicates) + " duplicate, " + std::to_string(c.missing) + " missing, " +
         std::to_string(c.out_of_domain) + " outside";
}
// The true strict cell of lambda.
Cell2 strict_true(u64 l) { return ltm_strict_exact(l); }
}  // namespace

int main(int argc, char** argv) {
  // the one writer (no metadata line: the table's bytes depend on the code alone); no file: stdout
  results::CsvFile out(argc > 1 ? argv[1] : "-", "", results::layout::printed_forms);
  const auto row = [&](const char* f, const char* paper, const char* eq, const char* arith, const std::string& searched,
                       const std::string& fwl, const std::string& fwn, const std::string& outcome) {
    results::RowOf<results::layout::printed_forms> r;
    r.set(TD_COL("formula"), f).set(TD_COL("paper"), paper).set(TD_COL("equation"), eq).set(TD_COL("arithmetic"), arith).set(TD_COL("searched"), searched);
    r.set(TD_COL("first_wrong_lambda"), fwl).set(TD_COL("first_wrong_N"), fwn).set(TD_COL("outcome"), results::quoted(outcome));
    out.row(r);
    std::fprintf(stderr, "%-16s %s\n", f, outcome.c_str());
  };
  const u64 lim = 1ull << 32;

  // (a) 000 eq. (9), the strictly lower triangle
  {
    const u64 fw = first_wrong_strict([](u64 l) { return ltm_strict_as_printed(l); }, lim);
    const u64 ok = strict_right_count([](u64 l) { return ltm_strict_as_printed(l); }, 4096);
    row("eq9-as-printed", "000", "(9)", "float (sqrtf)", "2^32", num(fw, lim), "-",
        "lambda = 0 lands at " + cell(ltm_strict_as_printed(0)) + "; j = lambda - i(i+1)/2 is off by -i in every row (" +
            std::to_string(ok) + " of the tri(4096) lambdas right)");
    const u64 ff = first_wrong_strict([](u64 l) { return ltm_strict_float(l); }, lim);
    row("eq9-float", "000", "(9) with j = lambda - i(i-1)/2", "float (sqrtf)", "2^32", num(ff, lim), "-",
        ff < lim ? "right below lambda = " + std::to_string(ff) + "; there " + cell(ltm_strict_float(ff)) + " for " +
                       cell(strict_true(ff)) + " (float rounding of sqrt(1/4 + 2 lambda) + 1/2)"
                 : std::string("right for every lambda < 2^32"));
    const u64 fe = first_wrong_strict([](u64 l) { return ltm_strict_exact(l); }, lim);
    row("eq9-exact", "000", "(9) with j = lambda - i(i-1)/2", "integer (i = tri_root(lambda) + 1)", "2^32", num(fe, lim), "-",
        fe < lim ? "WRONG at lambda = " + std::to_string(fe) : std::string("a bijection onto the strict triangle for every lambda < 2^32"));
  }
  // (b) 000 §IV-B, RB
  {
    const i64 top = 2048;
    const i64 fb = first_bad_even_N(top, walk_rb_as_printed);
    const RectWalk w2 = walk_rb_as_printed(2), w1k = walk_rb_as_printed(1024);
    row("rb-as-printed", "000", "IV-B (text)", "integer", "even N <= 2048", "-", fb ? std::to_string(fb) : "none",
        "not a bijection for any even N: in or above the diagonal j = N - i - 1 = ty < N/2 does not depend on tx, so those "
        "tri(N/2) threads land on cells the lower part already covers and the tri(N/2) cells with j >= N/2 are never "
        "reached; N = 2: " + cov(w2.c) + "; N = 1024: " + cov(w1k.c));
    const i64 ft = first_bad_even_N(top, walk_rb_j_from_tx);
    row("rb-j-from-tx", "000", "IV-B (text) with j = N - tx - 1", "integer", "even N <= 2048", "-", ft ? std::to_string(ft) : "none",
        ft ? "not a bijection" : "a bijection for every even N <= 2048 (one reading of the text that works)");
    std::vector<uint8_t> seen;
    i64 fo = 0;
    for (i64 N = 1; N <= top && !fo; ++N)
      if (!walk2<RB>(N, 16, seen).ok()) fo = N;
    row("rb-ours", "000", "IV-B (map_rb.hpp)", "integer", "every N <= 2048 at rho 16", "-", fo ? std::to_string(fo) : "none",
        fo ? "not a bijection" : "a bijection for every N <= 2048, even and odd (test_maps2d: rho 8, 16, 32)");
  }
  // (c) 003 eq. (14) in float
  {
    const u64 lim3 = tet(2048);
    for (int fused = 0; fused < 2; ++fused) {
      const u64 fw = fused ? eq14_first_wrong<Fused>(lim3) : eq14_first_wrong<Pinned>(lim3);
      const float rad = fused ? eq14_radicand<Fused>(0) : eq14_radicand<Pinned>(0);
      const u64 z0 = fused ? TetRootF::layer<u64, Fused>(0).k : TetRootF::layer<u64, Pinned>(0).k;
      const u64 zw = fused ? TetRootF::layer<u64, Fused>(fw).k : TetRootF::layer<u64, Pinned>(fw).k;
      row(fused ? "eq14-float-fma" : "eq14-float", "003", "(14)", fused ? "float; host cbrtf; FMA-contracted" : "float; host cbrtf",
          "tet(2048)", num(fw, lim3), "-",
          "lambda = 0: radicand " + std::to_string(int(rad)) + ", sqrt NaN" + (std::isnan(fsqrt_rn(rad)) ? "" : " (NOT NaN?)") +
              ", layer " + std::to_string(z0) + " only because the saturating conversion maps NaN to 0; first wrong lambda " +
              std::to_string(fw) + " (layer " + std::to_string(zw) + " for " + std::to_string(tet_root(fw)) + ")");
    }
  }
  return 0;
}
