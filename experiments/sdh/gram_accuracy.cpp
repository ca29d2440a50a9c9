// experiments/sdh/gram_accuracy.cpp — how accurate is each SDH rule (issue #26, fast-gram)? Host only.
// For bench_sdh's points (uniform in the 23000 box, default seed, w = 500, B = 80) at N = 10^4, 10^5
// and 10^6, counts the pairs that each rule (pinned, fused, gram; src/support/apps/sdh_cpu.hpp)
// puts in another bucket than the exact distance does: the exact squared distance of the float
// points (their differences are exact in double, the sum rounded once to double), bucket
// min(floor(sqrt(.) / w), B - 1) in double. Also the largest |s - exact| over the pairs checked and,
// for gram, the bound u (17 Pc + 4.1 sqrt(S Pc)) at the largest exact S (verify/test_sdh_cpu.cpp).
// Every pair i < j at N <= 10^5; at N = 10^6 the rows i = 0, row_step, 2 row_step, ... with every
// j > i (the Gram rule's centre is still that of all 10^6 points).
//
//   sdh_gram_accuracy [OUT_DIR] [--max-n N]   writes OUT_DIR/cpu/sdh_gram_accuracy.csv
//                                             (default experiments/results; --max-n: sizes up to N)
#include <apps/sdh_cpu.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>
#include <results/csv_file.hpp>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)

using namespace tdmaps;
using namespace tdmaps::sdh;

namespace {
struct Tally {
  u64 pairs = 0, differ[3] = {0, 0, 0};
  double max_err[3] = {0, 0, 0}, max_ex = 0;
};
}  // namespace

int main(int argc, char** argv) {
  std::string out = "experiments/results";
  i64 max_n = 1000000;
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    if (s == "--max-n" && a + 1 < argc) {
      max_n = std::atoll(argv[++a]);
    } else if (s.rfind("-", 0) == 0 || a != 1) {
      std::fprintf(stderr, "usage: sdh_gram_accuracy [OUT_DIR] [--max-n N]   (writes OUT_DIR/cpu/sdh_gram_accuracy.csv)\n");
      return 2;
    } else {
      out = s;
    }
  }
  const std::string path = out + "/cpu/" + results::layout::sdh_gram_accuracy.file;
  results::CsvFile f(path,
                   "{\"program\":\"sdh_gram_accuracy\",\"date_utc\":\"" + results::utc_now() +
                       "\",\"points\":\"uniform cube, default seed\","
                       "\"exact\":\"floor(sqrt(double sum of exact float differences squared)/w), clamped\"}",
                   results::layout::sdh_gram_accuracy);
  const float w = default_width, box = default_box;
  const u32 B = default_buckets(box, w);
  const double u = std::ldexp(1.0, -24);
  const Rule rules[3] = {Rule::pinned, Rule::fused, Rule::gram};
  for (i64 N : {i64(10000), i64(100000), i64(1000000)}) {
    if (N > max_n) break;
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<Point> pts = uniform_points(N, box);
    const std::vector<GramPoint> g = gram_points(pts.data(), N);
    double Pc = 0;
    for (const GramPoint& q : g) Pc = std::max(Pc, double(q.n));
    const i64 step = N > 100000 ? 1000 : 1;  // rows checked: i % step == 0
    const i64 rows = (N + step - 1) / step;
    const unsigned workers = bench::host_workers(1024);
    std::vector<Tally> part(workers);
    bench::parallel_chunks(
        u64(rows), 4,
        [&](unsigned tw, u64 b, u64 e) {
          Tally& T = part[tw];
          for (i64 r = i64(b); r < i64(e); ++r) {
            const i64 i = r * step;
            const Point a = pts[size_t(i)];
            const GramPoint ga = g[size_t(i)];
            for (i64 j = i + 1; j < N; ++j) {
              const Point c = pts[size_t(j)];
              const double dx = double(a.x - c.x), dy = double(a.y - c.y), dz = double(a.z - c.z);
              const double ex = dx * dx + dy * dy + dz * dz;
              const u32 ke = u32(std::min(std::floor(std::sqrt(ex) / double(w)), double(B - 1)));
              const float s[3] = {dist2(a, c), dist2_fma(a, c), dist2_gram(ga, g[size_t(j)])};
              for (int k = 0; k < 3; ++k) {
                T.differ[k] += bucket(s[k], w, B) != ke;
                T.max_err[k] = std::max(T.max_err[k], std::fabs(double(s[k]) - ex));
              }
              T.max_ex = std::max(T.max_ex, ex);
              ++T.pairs;
            }
          }
        },
        workers);
    Tally all;
    for (const Tally& T : part) {
      all.pairs += T.pairs;
      for (int k = 0; k < 3; ++k) {
        all.differ[k] += T.differ[k];
        all.max_err[k] = std::max(all.max_err[k], T.max_err[k]);
      }
      all.max_ex = std::max(all.max_ex, T.max_ex);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (int k = 0; k < 3; ++k) {
      const double bound = rules[k] == Rule::gram ? u * (17.0 * Pc + 4.1 * std::sqrt(all.max_ex * Pc)) : 0.0;
      results::RowOf<results::layout::sdh_gram_accuracy> r;
      r.set(TD_COL("N"), (long long)N).set(TD_COL("pairs_checked"), (unsigned long long)all.pairs).set(TD_COL("row_step"), (long long)step);
      r.set(TD_COL("box"), results::sig(box)).set(TD_COL("bucket_width"), results::sig(w)).set(TD_COL("buckets"), B).set(TD_COL("max_c2"), results::sig(Pc));
      r.set(TD_COL("rule"), rule_name(rules[k])).set(TD_COL("other_bucket_than_exact"), (unsigned long long)all.differ[k]);
      r.set(TD_COL("fraction"), results::sci(double(all.differ[k]) / double(all.pairs), 4));
      r.set(TD_COL("max_abs_err"), results::sig(all.max_err[k])).set(TD_COL("err_bound"), results::sig(bound));
      f.row(r);
    }
    std::fprintf(stderr, "N=%lld: %llu pairs in %.1f s; other bucket than exact: pinned %llu, fused %llu, gram %llu\n",
                 (long long)N, (unsigned long long)all.pairs, secs, (unsigned long long)all.differ[0],
                 (unsigned long long)all.differ[1], (unsigned long long)all.differ[2]);
  }
  std::fprintf(stderr, "wrote %s\n", path.c_str());
  return 0;
}
