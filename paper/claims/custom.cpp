// paper/claims/custom.cpp — the one-off rules of the claim table: counts of the map
// library, the papers' formulas as printed, exact ranges (both rounding modes), the
// tetrahedral layout, SDH. Each is a named function; rules.cpp lists which claim uses it.
#include "custom.hpp"
#include "select.hpp"

#include <tdmaps/counts.hpp>
#include <tdmaps/layout3d.hpp>
#include <tdmaps/registry.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace figs {
namespace rules {
namespace {
constexpr double kSdhN = 10000, kSdhBucket = 500, kSdhTpb = 256;
Sel dummy_store() { return pick_rows::dummy(pick_rows::Form::Store); }
}  // namespace

// ---- the bound I < 2 and the hypothesis 1.00–1.33 ------------------------------------------
namespace {
struct BestLtm {
  double v = NAN, spread = NAN, max = NAN;
  std::string map, file, over, max_at;
};
BestLtm best_ltm(const GpuData* g) {
  BestLtm b;
  for (const char* f : {"dummy.csv", "sqrt.csv"}) {
    const Table* t = g->get(f);
    if (!t) continue;
    for (const std::string& m : kLTM) {
      const Pts p = curve(*t, dummy_store(), m);
      const double v = med_from(p, kLargeN);
      if (std::isfinite(v) && !(v <= b.v)) {
        b.v = v;
        b.map = m;
        b.file = f;
        b.spread = stat_spread(*t, dummy_store(), m, St::MedLarge);
      }
      const auto mx = max_pt(p);
      if (std::isfinite(mx.second) && !(mx.second <= b.max)) {
        b.max = mx.second;
        b.max_at = std::string(f) + " " + m + " N=" + fmt_int(mx.first);
      }
    }
    if (std::isfinite(b.v)) return b;
  }
  return b;
}
}  // namespace
Rule bound_I(bool hypothesis) {
  return custom(std::string("median over N ≥ ") + fmt_int(kLargeN) +
                    " of I of the best LTM variant (ltm-r, ltm-e, ltm-x, ltm-n, ltm-d) on our linear grid, dummy.csv "
                    "form=store ρ=" + fmt_int(current_rho()) + " (else sqrt.csv)" +
                    (hypothesis ? "" : "; a bound on a gain: holds for 1 < I < 2; the largest single row shown beside"),
                [hypothesis](const Claim& c, const GpuData* g, const Ctx&) {
                  if (!g) return not_measured("no GPU results");
                  const BestLtm b = best_ltm(g);
                  if (!std::isfinite(b.v))
                    return needs("dummy.csv", "form=store, ρ=" + fmt_int(current_rho()) + ", LTM rows at N ≥ " + fmt_int(kLargeN));
                  std::string txt = fmt(b.v, 3) + " (" + b.map + ", " + b.file + ", median N≥" + fmt_int(kLargeN);
                  if (std::isfinite(b.spread)) txt += "; run-to-run ±" + fmt(b.spread, 3);
                  if (!hypothesis) txt += "; largest row " + fmt(b.max, 3) + ": " + b.max_at;
                  txt += ")";
                  Judge j;
                  j.gain = !hypothesis;
                  j.noise = b.spread;
                  Outcome o = judge(c, b.v, txt, j);
                  if (o.verdict == "differs") o.reason += ". Why: " + bound_note(g, b.file, dummy_store(), b.map);
                  return o;
                },
                true);
}

// ---- wasted blocks, launches: the map library ------------------------------------------------
Rule wasted_bb() {
  return custom("counts2<BB> of the map library at N = 1,024…30,720 (step 1,024), ρ=16: wasted == n(n−1)/2 at every N?",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Wasted2& w = ctx.wasted2();
                  size_t ok = 0;
                  for (size_t k = 0; k < w.N.size(); ++k) ok += w.wasted.at("bb")[k] == w.n[k] * (w.n[k] - 1) / 2;
                  const std::string ours = "n(n−1)/2 at " + std::to_string(ok) + " of " + std::to_string(w.N.size()) +
                                           " N (N=" + fmt_int(w.N.back()) + ": " + fmt_int(w.wasted.at("bb").back()) + ")";
                  return Outcome{ours, ok == w.N.size() ? "holds" : "differs",
                                 ok == w.N.size() ? "the library's BB wastes exactly n(n−1)/2 blocks" : "some N differ", false};
                },
                false);
}
Rule wasted_ltm() {
  return custom(
      "two readings of \"n/2 wasted blocks\": (a) whole blocks of the balanced grid n' = ceil(sqrt(n(n+1)/2)) of "
      "000 §III-A / 001 §II-A: wasted = n'² − n(n+1)/2 over N = 1,024…30,720, ρ=" + fmt_int(kRho) +
      " (holds if ≤ n/2 at every N); (b) 001 §II-A \"conditional statements will only occur when the block lies on "
      "the diagonal\": the threads above the diagonal inside the n diagonal blocks, in blocks (wasted threads / ρ² of "
      "the library's LTM, counts2_closed<LTM_E>, without the balanced grid's padding; holds if ≤ n/2 at every N)",
      [](const Claim&, const GpuData*, const Ctx& ctx) {
        const Wasted2& w = ctx.wasted2();
        double worst = 0, worstN = 0, lib = 0, dworst = 0;
        size_t over = 0, dover = 0;
        std::vector<double> rel;
        for (size_t k = 0; k < w.N.size(); ++k) {
          const double q = w.balanced[k] / w.n[k];
          rel.push_back(q);
          if (q > worst) { worst = q; worstN = w.N[k]; }
          over += w.balanced[k] > w.n[k] / 2;
          lib = std::max(lib, w.wasted.at("ltm-e")[k]);
          const tdmaps::Counts cn = tdmaps::counts2_closed<tdmaps::LTM_E>(tdmaps::LTM_E::plan((long long)w.N[k], int(kRho)));
          const double diag = double(cn.wasted_threads()) / (double(kRho) * kRho);
          dworst = std::max(dworst, diag / w.n[k]);
          dover += diag > w.n[k] / 2;
        }
        const std::string ours_a = "up to " + fmt(worst, 2) + "·n (N=" + fmt_int(worstN) + "), mean " + fmt(mean(rel), 2) +
                                   "·n; library linear grid: " + fmt_int(lib) + " whole blocks";
        const Outcome a{ours_a, over == 0 ? "holds" : "differs",
                        over == 0 ? "≤ n/2 at every N"
                                  : "the balanced grid wastes more than n/2 blocks at " + std::to_string(over) + " of " +
                                        std::to_string(w.N.size()) + " N (still O(n): < 2n')",
                        false};
        const std::string ours_b = "up to " + fmt(dworst, 3) + "·n block-equivalents";
        const Outcome b{ours_b, dover == 0 ? "holds" : "differs",
                        dover == 0 ? "≤ n/2 at every N: n diagonal blocks, each less than half wasted"
                                   : "more than n/2 at " + std::to_string(dover) + " of " + std::to_string(w.N.size()) + " N",
                        false};
        return combine_readings({{"whole blocks of the balanced grid", a}, {"half-wasted diagonal blocks (001 §II-A)", b}});
      },
      false);
}
Rule rb_wasted() {
  return custom("counts2<RB> over N = 1,024…30,720, ρ=16: holds if the wasted blocks do not grow with N (max over the "
                "upper half of the sweep ≤ max over the lower half)",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const auto& v = ctx.wasted2().wasted.at("rb");
                  double lo = 0, hi = 0;
                  for (size_t k = 0; k < v.size(); ++k) (k < v.size() / 2 ? lo : hi) = std::max(k < v.size() / 2 ? lo : hi, v[k]);
                  return Outcome{"max " + fmt_int(std::max(lo, hi)) + " blocks (lower half " + fmt_int(lo) + ", upper half " +
                                     fmt_int(hi) + ")",
                                 hi <= lo ? "holds" : "differs", hi <= lo ? "constant in N" : "grows with N", false};
                },
                false);
}
Rule rec_passes() {
  return custom("REC::plan(N, 16) of the map library for every valid N of 1,024…30,720: passes == k + 1?",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Wasted2& w = ctx.wasted2();
                  size_t valid = 0, ok = 0;
                  std::string ex;
                  for (size_t k = 0; k < w.N.size(); ++k) {
                    if (!std::isfinite(w.rec_passes[k])) continue;
                    ++valid;
                    ok += w.rec_passes[k] == w.rec_k[k] + 1;
                    ex = "N=" + fmt_int(w.N[k]) + ": k=" + fmt_int(w.rec_k[k]) + ", " + fmt_int(w.rec_passes[k]) + " launches";
                  }
                  return Outcome{"k+1 at " + std::to_string(ok) + " of " + std::to_string(valid) + " valid N (" + ex + ")",
                                 ok == valid && valid ? "holds" : "differs", "from the library's plan", false};
                },
                false);
}

// ---- the papers' formulas as printed --------------------------------------------------------
Rule eq9_printed() {
  return custom(
      "eq. (9) of 000 as printed, i = ⌊√(1/4 + 2λ) + 1/2⌋, j = λ − i(i+1)/2, evaluated in double for every λ < T(n) "
      "(n = 2,048 rows, no diagonal) against the strictly lower triangle (row i holds j = 0…i−1); holds if it is a "
      "bijection onto it. The library's LTM (with diagonal, eqs. (7)-(8)) is proven by the oracle",
      [](const Claim&, const GpuData*, const Ctx&) {
        const long long n = 2048, T = n * (n - 1) / 2;
        long long wrong = 0, first = -1, fi = 0, fj = 0;
        std::set<std::pair<long long, long long>> hit;
        for (long long l = 0; l < T; ++l) {
          const long long i = (long long)std::floor(std::sqrt(0.25 + 2.0 * double(l)) + 0.5);
          const long long j = l - i * (i + 1) / 2;
          const bool in = i >= 1 && i < n && j >= 0 && j < i;
          if (!in || !hit.insert({i, j}).second) {
            ++wrong;
            if (first < 0) { first = l; fi = i; fj = j; }
          }
        }
        if (first < 0) return Outcome{"bijection on " + fmt_int(double(T)) + " λ", "holds", "as printed", false};
        return Outcome{"λ = " + fmt_int(double(first)) + " lands at (" + std::to_string(fi) + ", " + std::to_string(fj) +
                           "); " + fmt_int(double(wrong)) + " of " + fmt_int(double(T)) + " λ outside the triangle",
                       "differs",
                       "the printed j = λ − i(i+1)/2 is off by i: the row of i with no diagonal starts at i(i−1)/2", false};
      },
      false);
}
Rule rb_printed() {
  return custom(
      "RB as printed in 000 §IV-B on the rectangle of threads t_x < N/2, t_y ≤ N (even N = 8…64): below the diagonal "
      "(t_y > t_x) (i, j) = (t_y − 1, t_x), in or above it i = N − t_y − 1, j = N − i − 1; cells of the triangle "
      "j ≤ i < N counted: holds if every cell is hit once. Ours (tdmaps::RB::cell over its grid) checked the same way",
      [](const Claim&, const GpuData*, const Ctx&) {
        long long dup_p = 0, miss_p = 0, out_p = 0, bad_ours = 0;
        for (long long N = 8; N <= 64; N += 2) {
          std::map<std::pair<long long, long long>, int> hit;
          for (long long ty = 0; ty <= N; ++ty)
            for (long long tx = 0; tx < N / 2; ++tx) {
              long long i, j;
              if (ty > tx) { i = ty - 1; j = tx; }
              else { i = N - ty - 1; j = N - i - 1; }
              if (i < 0 || i >= N || j < 0 || j > i) { ++out_p; continue; }
              ++hit[{i, j}];
            }
          for (long long i = 0; i < N; ++i)
            for (long long j = 0; j <= i; ++j) {
              const int h = hit.count({i, j}) ? hit[{i, j}] : 0;
              if (h == 0) ++miss_p;
              if (h > 1) dup_p += h - 1;
            }
          // ours
          const tdmaps::Plan2 p = tdmaps::RB::plan(N, 4);
          const tdmaps::Dim3 gr = tdmaps::RB::grid(p, 0);
          std::map<std::pair<long long, long long>, int> h2;
          for (unsigned by = 0; by < gr.y; ++by)
            for (unsigned bx = 0; bx < gr.x; ++bx)
              for (unsigned ty = 0; ty < 4; ++ty)
                for (unsigned tx = 0; tx < 4; ++tx) {
                  const auto cl = tdmaps::RB::cell<long long>(p, 0, bx, by, tx, ty);
                  if (cl.inside) ++h2[{(long long)cl.i, (long long)cl.j}];
                }
          for (long long i = 0; i < N; ++i)
            for (long long j = 0; j <= i; ++j) bad_ours += !(h2.count({i, j}) && h2[{i, j}] == 1);
          bad_ours += (long long)h2.size() != N * (N + 1) / 2;
        }
        const bool ok = dup_p == 0 && miss_p == 0;
        return Outcome{"printed: " + fmt_int(double(miss_p)) + " cells missed, " + fmt_int(double(dup_p)) +
                           " hit twice or more, " + fmt_int(double(out_p)) + " threads outside (N = 8…64); ours: " +
                           (bad_ours == 0 ? "a bijection at every N" : fmt_int(double(bad_ours)) + " cells wrong"),
                       ok ? "holds" : "differs",
                       ok ? "the printed form is a bijection"
                          : "as printed, j = N − i − 1 = t_y does not depend on t_x: the threads of one row above the "
                            "diagonal all land on one cell (ours, map_rb.hpp, folds row r with row N−1−r)",
                       false};
      },
      false);
}
Rule eq14_float() {
  return custom(
      "eq. (14) of 003 evaluated in float: the first λ whose layer ⌊v⌋ is wrong, from tet_exact_range_gpu.csv "
      "(root=tet-f, part=layer: the device's cbrtf/sqrtf) and verify/results/exact_ranges_cpu.csv (tet-f-host); "
      "λ = 0 computed here: √(729·0² − 3) is the root of a negative number",
      [](const Claim&, const GpuData* g, const Ctx& ctx) {
        std::vector<std::string> txt;
        double first = NAN;
        if (g)
          if (const Table* t = g->get("tet_exact_range_gpu.csv"))
            for (const Row& r : t->rows())
              if (r.s("root") == "tet-f" && r.s("part") == "layer") {
                txt.push_back("GPU: first wrong λ = " + r.s("first_wrong"));
                first = r.d("first_wrong");
              }
        if (ctx.cpu_exact_table)
          for (const Row& r : ctx.cpu_exact_table->rows())
            if (r.s("variant") == "tet-f-host") {
              txt.push_back("CPU host cbrtf (" + (r.s("rounding").empty() ? std::string("rounding not recorded") : r.s("rounding")) +
                            "): first wrong λ = " + r.s("first_wrong"));
              if (!std::isfinite(first)) first = r.d("first_wrong");
            }
        // eq. (14) has a real value only where 729λ² ≥ 3: the λ below that have none, in exact arithmetic too
        // (integers, compared exactly)
        long long no_real = 0;
        while (729 * no_real * no_real < 3) ++no_real;
        const std::string gap = no_real == 1 ? std::string("λ = 0") : "λ < " + std::to_string(no_real);
        txt.push_back(gap + ": 729λ² − 3 < 0, no real value in exact arithmetic");
        if (!std::isfinite(first)) return Outcome{join(txt, "; "), "not measured", "no tet-f row in the exact-range tables", false};
        return Outcome{join(txt, "; "), "differs",
                       "eq. (14) has no real value at " + gap +
                           " (√ of a negative number: the formula's domain, not float rounding); the first wrong λ "
                           "of the float sweeps is " + fmt_int(first) + " (listed per sweep; a sweep whose first wrong λ "
                           "lies in that domain gap does not show where float rounding first fails); the exact maps "
                           "tet-e / tet-fast replace it",
                       false};
      },
      true);
}

// ---- N ≥ 800 (000 §VI) -----------------------------------------------------------------------
Rule n800() {
  // 000 §VI: "Assuming a warp of 32 threads, a value of N ≥ 800 already generates more than double the number of
  // blocks in parallel for any of the GPUs we used". A warp does not fix ρ (a 32×32 block is 32 warps), and the
  // grid that "generates" the blocks is not named: ρ is read at 16 and 32 (family n800), the grid as LTM's
  // n(n+1)/2 blocks and as BB's n² blocks (the strategy BB "will still remain useful" below it).
  const double rho = current_rho();
  return custom(
      "smallest N whose grid at ρ = " + fmt_int(rho) + " has more than twice the largest sblocks of Table I (rows "
      "000-sblocks-*), read for LTM's grid (LTM_E::plan(N, ρ).total = n(n+1)/2 blocks) and BB's (BB::plan(N, ρ).total "
      "= n² blocks); each reading holds if ≤ 800",
      [rho](const Claim& c, const GpuData* g, const Ctx& ctx) {
        double sb = NAN;
        for (const char* id : {"000-sblocks-680", "000-sblocks-765m", "000-sblocks-k40"})
          if (const Claim* s = ctx.claim(id))
            if (s->pv.numeric() && !(s->pv.lo <= sb)) sb = s->pv.lo;
        if (!std::isfinite(sb)) return not_measured("Table I rows missing from reported.csv");
        const int r = int(rho);
        const auto blocks = [&](bool bb, long long N) {
          return double(bb ? tdmaps::BB::plan(N, r).total : tdmaps::LTM_E::plan(N, r).total);
        };
        std::vector<std::pair<std::string, Outcome>> outs;
        for (const bool bb : {false, true}) {
          long long N = 1;
          while (blocks(bb, N) <= 2 * sb) ++N;
          std::string ours = fmt_int(double(N)) + " (" + fmt_int(blocks(bb, N)) + " blocks > 2×" + fmt_int(sb) +
                             "; at N = 800: " + fmt_int(blocks(bb, 800)) + " blocks)";
          Judge j;
          j.cmp = "<=";
          Outcome o = judge(c, double(N), ours, j);
          if (o.verdict == "differs")
            o.reason += ": at N = 800 this grid has " + fmt_int(blocks(bb, 800)) + " blocks, not more than 2×" +
                        fmt_int(sb) + " (the largest sblocks of Table I)";
          outs.emplace_back(bb ? "BB's n² grid" : "LTM's n(n+1)/2 grid", o);
        }
        Outcome o = combine_readings(outs);
        if (g && !g->meta("sm_count").empty())
          o.ours += "; at N = 800, LTM's grid gives our " + g->name() + " " +
                    fmt(blocks(false, 800) / to_num(g->meta("sm_count")), 1) + " blocks per SM";
        return o;
      },
      false);
}

// ---- hardware context ------------------------------------------------------------------------
Rule hw_context() {
  return context("hardware of the paper, not a result", [](const Claim&, const GpuData* g, const Ctx&) {
    if (!g) return Outcome{"—", "", "", false};
    const std::string sm = g->meta("sm_count");
    return Outcome{g->name() + (sm.empty() ? "" : ": " + sm + " SMs"), "", "", false};
  });
}

// 000 Table I's sblocks is the most blocks the GPU keeps resident at once (GTX 680: 8 SMX × 16). Ours: the SM count
// of the run's metadata times the resident-block limit per SM of its compute capability (the CUDA C++ Programming
// Guide's table of compute-capability limits: a property of the architecture, not a measurement), and the limit a
// ρ×ρ block of ρ = 16 (256 threads) meets through the threads per SM.
Rule sblocks_context() {
  return context(
      "hardware of the paper, not a result; ours = SMs (metadata sm_count) × resident blocks per SM of the compute "
      "capability (metadata cc; CUDA C++ Programming Guide, compute-capability table), and at 256-thread blocks (ρ = 16) "
      "the threads-per-SM limit",
      [](const Claim&, const GpuData* g, const Ctx&) {
        if (!g) return Outcome{"—", "", "", false};
        // compute capability → (resident blocks per SM, resident threads per SM)
        static const std::map<std::string, std::pair<int, int>> kLimits = {
            {"3.0", {16, 2048}}, {"3.5", {16, 2048}}, {"3.7", {16, 2048}}, {"5.0", {32, 2048}}, {"5.2", {32, 2048}},
            {"6.0", {32, 2048}}, {"6.1", {32, 2048}}, {"7.0", {32, 2048}}, {"7.5", {16, 1024}}, {"8.0", {32, 2048}},
            {"8.6", {16, 1536}}, {"8.9", {24, 1536}}, {"9.0", {32, 2048}}};
        const std::string cc = g->meta("cc"), sm = g->meta("sm_count");
        const auto it = kLimits.find(cc);
        if (sm.empty() || it == kLimits.end())
          return Outcome{g->name() + (sm.empty() ? "" : ": " + sm + " SMs") + " (resident-block limit of cc " + cc +
                             " not in the table: not measured)",
                         "", "", false};
        const double n = to_num(sm), per = it->second.first, by_threads = std::min(per, double(it->second.second / 256));
        return Outcome{g->name() + ": " + fmt_int(n * per) + " resident blocks (" + sm + " SMs × " + fmt_int(per) +
                           " per SM, cc " + cc + "); " + fmt_int(n * by_threads) + " of 256 threads (ρ = 16: " +
                           fmt_int(by_threads) + " per SM)",
                       "", "", false};
      });
}

// ---- square roots ----------------------------------------------------------------------------
Rule sqrt_all_alike() {
  return custom(stat_text(St::MedLarge) + " of I of each of ltm-x, ltm-n, ltm-r, sqrt.csv form=store ρ=" + fmt_int(current_rho()) + "; holds if all "
                "three are within the tolerance",
                [](const Claim& c, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "sqrt.csv", &why);
                  if (!t) return not_measured(why);
                  std::vector<std::string> txt;
                  bool all = true, any = false, noise = false;
                  std::vector<std::string> whys;
                  for (const char* m : {"ltm-x", "ltm-n", "ltm-r"}) {
                    const double v = med_from(curve(*t, dummy_store(), m), kLargeN);
                    if (!std::isfinite(v)) continue;
                    any = true;
                    Judge j;
                    j.noise = stat_spread(*t, dummy_store(), m, St::MedLarge);
                    const Outcome o = judge(c, v, "", j);
                    all = all && o.verdict == "holds";
                    if (o.verdict != "holds") whys.push_back(std::string(m) + ": " + bound_note(g, "sqrt.csv", dummy_store(), m));
                    noise = noise || o.noise;
                    txt.push_back(std::string(m) + " " + fmt(v, 3));
                  }
                  if (!any) return needs("sqrt.csv", "form=store, ltm-x/ltm-n/ltm-r rows");
                  Outcome o{join(txt, ", ") + " [median N≥" + fmt_int(kLargeN) + "]", all ? "holds" : "differs",
                            (all ? "all within ±" : "not all within ±") + fmt(kTolI, 2) + " of " + fmt(c.pv.lo, 3), noise};
                  if (!all) o.reason += ". Why: " + join(whys, "; ");
                  return o;
                },
                true);
}
Rule rsqrt_best() {
  return custom("rank of ltm-r among ltm-x, ltm-n, ltm-r by the " + stat_text(St::MedLarge) + " of I, sqrt.csv form=store ρ=" + fmt_int(current_rho()),
                [](const Claim& c, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "sqrt.csv", &why);
                  if (!t) return not_measured(why);
                  std::vector<std::pair<std::string, double>> v;
                  for (const char* m : {"ltm-x", "ltm-n", "ltm-r"}) {
                    const double i = med_from(curve(*t, dummy_store(), m), kLargeN);
                    if (std::isfinite(i)) v.emplace_back(m, i);
                  }
                  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
                  int pos = 0;
                  std::vector<std::string> txt;
                  for (size_t k = 0; k < v.size(); ++k) {
                    txt.push_back(v[k].first + " " + fmt(v[k].second, 3));
                    if (v[k].first == "ltm-r") pos = int(k) + 1;
                  }
                  if (!pos) return needs("sqrt.csv", "form=store, map=ltm-r rows");
                  const bool ok = c.pv.numeric() && pos == int(c.pv.lo);
                  Outcome o{"rank " + std::to_string(pos) + " (" + join(txt, " > ") + ")", ok ? "holds" : "differs",
                            ok ? "rank " + std::to_string(pos) + ", as stated" : "the paper has rank " + c.value, false};
                  if (v.size() >= 2) {
                    const double sp = stat_spread(*t, dummy_store(), v[0].first, St::MedLarge) +
                                      stat_spread(*t, dummy_store(), v[1].first, St::MedLarge);
                    if (std::isfinite(sp) && v[0].second - v[1].second <= sp) {
                      o.noise = true;
                      o.reason += "; within noise: " + v[0].first + " and " + v[1].first + " differ by " +
                                  fmt(v[0].second - v[1].second, 3) + ", run-to-run spread ±" + fmt(sp, 3);
                    }
                  }
                  return o;
                },
                true);
}

// ---- exact ranges: both rounding modes --------------------------------------------------------
namespace {
bool truthy(const std::string& v) {
  return v == "1" || v == "yes" || v == "true" || v == "on" || v == "fma" || v == "fused" || v == "contract" ||
         v == "contracted" || v == "fast";
}
const char* const kModeCols[] = {"rounding", "fma", "contract", "fp_contract", "fmad", "mode"};
bool row_is_fma(const Row& r) {
  for (const char* c : kModeCols)
    if (r.has(c) && truthy(r.s(c))) return true;
  return false;
}
}  // namespace
std::optional<RangeVal> exact_N(const Ctx& ctx, const GpuData* g, const std::string& variant, bool fma, bool gpu_only) {
  const std::string col = "largest_exact_N_rho" + std::to_string(int(current_rho()));
  const auto from = [&](const Table* t, const std::string& source) -> std::optional<RangeVal> {
    if (!t || !t->has("variant")) return std::nullopt;
    for (const Row& r : t->rows()) {
      const std::string v = r.s("variant");
      double N = NAN;
      if (fma) {
        if (v == variant + "-fma" || (v == variant && row_is_fma(r))) N = r.d(col);
        else if (v == variant && r.has(col + "_fma")) N = r.d(col + "_fma");
      } else if (v == variant && !row_is_fma(r)) {
        N = r.d(col);
      }
      if (std::isfinite(N)) return RangeVal{N, r.s("first_wrong") == "none", source};
    }
    return std::nullopt;
  };
  if (g)
    if (auto r = from(g->get("exact_range_gpu.csv"), "GPU")) return r;
  if (gpu_only) return std::nullopt;
  const Table* cpu = ctx.cpu_exact_table ? &*ctx.cpu_exact_table : nullptr;
  if (auto r = from(cpu, "CPU oracle")) return r;
  if (!fma) {
    // the host emulation of a device root, then the oracle's proven constants
    if (cpu && cpu->has("variant"))
      for (const Row& r : cpu->rows())
        if (r.s("variant") == variant + "-host" && std::isfinite(r.d(col)))
          return RangeVal{r.d(col), false, "CPU host emulation"};
    if (variant == "utm-n") return RangeVal{double(tdmaps::limits::utm_n_max_N), false, "library constant (CPU oracle)"};
    if (variant == "utm-x") return RangeVal{double(tdmaps::limits::utm_x_max_N), false, "library constant (CPU oracle)"};
  }
  return std::nullopt;
}
namespace {
std::string range_text(const std::optional<RangeVal>& r) {
  return r ? (r->lower_bound ? "≥ " : "") + fmt_int(r->N) + " (" + r->source + ")" : std::string("—");
}
std::string both_text(const Ctx& ctx, const GpuData* g, const std::string& v) {
  return v + ": FMA " + range_text(exact_N(ctx, g, v, true, false)) + ", no FMA (the library's pinned rounding) " +
         range_text(exact_N(ctx, g, v, false, false));
}
const std::string kRangeFiles = "exact_range_gpu.csv / verify/results/exact_ranges_cpu.csv";
std::string fma_rows(const std::vector<std::string>& v) {
  return "FMA-contracted rows (a rounding/fma column, or variant <map>-fma) of " + join(v, ", ");
}
}  // namespace
Rule range_at_least(std::vector<std::string> variants) {
  return custom(
      "largest exact N at ρ=" + fmt_int(current_rho()) + " of " + join(variants, " and ") +
          " in the FMA-contracted mode (nvcc's default, what the papers' binaries most likely ran): exact_range_gpu.csv "
          "(device rounding) else verify/results/exact_ranges_cpu.csv; holds if every one is ≥ the paper's N. The "
          "no-FMA mode (the library's pinned rounding) shown beside",
      [variants](const Claim& c, const GpuData* g, const Ctx& ctx) {
        std::vector<std::string> txt, bad, missing;
        for (const std::string& v : variants) {
          txt.push_back(both_text(ctx, g, v));
          const auto r = exact_N(ctx, g, v, true, false);
          if (!r) missing.push_back(v);
          else if (!(r->N >= c.pv.lo)) bad.push_back(v + " " + fmt_int(r->N));
        }
        if (!missing.empty())
          return Outcome{join(txt, "; "), "not measured",
                         "not measured yet (needs " + kRangeFiles + ": " + fma_rows(missing) + ")", false};
        return Outcome{join(txt, "; "), bad.empty() ? "holds" : "differs",
                       bad.empty() ? "with FMA every variant is exact at least up to " + fmt_int(c.pv.lo)
                                   : "with FMA " + join(bad, ", ") + " stop(s) being exact below " + fmt_int(c.pv.lo),
                       false};
      },
      false);
}
Rule range_at_least_mode(std::vector<std::string> variants, bool fma) {
  const std::string mode = fma ? "FMA-contracted mode (nvcc's default -fmad=true)" : "pinned mode (every product and sum rounded on its own, the library's)";
  return custom(
      "largest exact N at ρ=" + fmt_int(current_rho()) + " of " + join(variants, " and ") + " in the " + mode +
          ": exact_range_gpu.csv (device rounding) else verify/results/exact_ranges_cpu.csv; holds if every one is ≥ "
          "the paper's N",
      [variants, fma](const Claim& c, const GpuData* g, const Ctx& ctx) {
        std::vector<std::string> txt, bad, missing;
        for (const std::string& v : variants) {
          const auto r = exact_N(ctx, g, v, fma, false);
          txt.push_back(v + " " + range_text(r));
          if (!r) missing.push_back(v);
          else if (!(r->N >= c.pv.lo)) bad.push_back(v + " " + fmt_int(r->N) + " (" + r->source + ")");
        }
        if (!missing.empty())
          return Outcome{join(txt, "; "), "not measured",
                         "not measured yet (needs " + kRangeFiles + ": rows of " + join(missing, ", ") + ")", false};
        return Outcome{join(txt, "; "), bad.empty() ? "holds" : "differs",
                       bad.empty() ? "every variant is exact at least up to N = " + fmt_int(c.pv.lo)
                                   : join(bad, ", ") + ": the largest exact N, below the paper's " + fmt_int(c.pv.lo) +
                                         " (measured: the first wrong λ of the sweep)",
                       false};
      },
      false);
}
Rule range_readings(std::vector<std::string> variants) {
  return readings({{"FMA (nvcc's default; neither paper states its build flags: this reading is ours)",
                    range_at_least_mode(variants, true)},
                   {"pinned rounding (no contraction)", range_at_least_mode(variants, false)}});
}
Rule utm_range_mode(bool fma) {
  return custom(std::string("largest exact N of utm-n (Avril's fast square root with two repairs) in the ") +
                    (fma ? "FMA-contracted mode" : "pinned mode") +
                    "; exact_range_gpu.csv else the CPU oracle; ±20% of the paper's N",
                [fma](const Claim& c, const GpuData* g, const Ctx& ctx) {
                  const auto n = exact_N(ctx, g, "utm-n", fma, false);
                  if (!n) return Outcome{"—", "not measured", "not measured yet (needs " + kRangeFiles + ": utm-n rows)", false};
                  return judge(c, n->N, "utm-n " + range_text(n));
                },
                false);
}
Rule utm_range_readings() {
  return readings({{"FMA (nvcc's default; the paper does not state its build flags: this reading is ours)", utm_range_mode(true)},
                   {"pinned rounding (no contraction)", utm_range_mode(false)}});
}
Rule utm_range() {
  return custom("largest exact N of utm-n (Avril's fast square root with two repairs), FMA mode (judged) and no-FMA "
                "(shown); exact_range_gpu.csv else the CPU oracle; ±20%",
                [](const Claim& c, const GpuData* g, const Ctx& ctx) {
                  const std::string txt = both_text(ctx, g, "utm-n") + "; " + both_text(ctx, g, "utm-x");
                  const auto n = exact_N(ctx, g, "utm-n", true, false);
                  if (!n)
                    return Outcome{txt, "not measured", "not measured yet (needs " + kRangeFiles + ": " + fma_rows({"utm-n"}) + ")", false};
                  return judge(c, n->N, txt);
                },
                false);
}
Rule utm_arg() {
  return context("Avril's fast square root is accurate for x ∈ [0, 100M] (cited, the root's accuracy domain, not the "
                 "repaired map's range)",
                 [](const Claim&, const GpuData* g, const Ctx& ctx) {
                   const auto n = exact_N(ctx, g, "utm-n", false, false);
                   if (!n) return Outcome{"—", "", "", false};
                   const double m = n->N + 1, x = 4 * m * m - 4 * m + 1;
                   return Outcome{"our repaired utm-n is exact to N = " + fmt_int(n->N) + " (" + n->source +
                                      "): its largest root argument 4n² − 4n + 1 = " + fmt_g(x, 3),
                                  "", "", false};
                 });
}
Rule range_10x() {
  return custom("largest exact N of ltm-r divided by that of utm-n, ρ=" + fmt_int(current_rho()) + ", FMA mode (judged; no-FMA shown)",
                [](const Claim& c, const GpuData* g, const Ctx& ctx) {
                  const auto l = exact_N(ctx, g, "ltm-r", true, false), u = exact_N(ctx, g, "utm-n", true, false);
                  const auto l0 = exact_N(ctx, g, "ltm-r", false, false), u0 = exact_N(ctx, g, "utm-n", false, false);
                  std::string txt = "no FMA: " + (l0 && u0 ? fmt(l0->N / u0->N, 2) + "× (ltm-r " + fmt_int(l0->N) + " / utm-n " + fmt_int(u0->N) + ")" : "—");
                  if (!l || !u)
                    return Outcome{txt, "not measured", "not measured yet (needs " + kRangeFiles + ": " + fma_rows({"ltm-r", "utm-n"}) + ")", false};
                  txt = "FMA: " + fmt(l->N / u->N, 2) + "× (ltm-r " + fmt_int(l->N) + " / utm-n " + fmt_int(u->N) + "); " + txt;
                  return judge(c, l->N / u->N, txt);
                },
                false);
}

// ---- dummy kernel: K40 convergence ------------------------------------------------------------
Rule dummy_converge() {
  return custom(stat_text(St::MedLarge) + " of I of RB, LTM on the papers' n'×n' grid (ltm-r-sq else ltm-e-sq; the grid "
                "both papers fix) and REC, dummy.csv form=store ρ=" + fmt_int(current_rho()) + ": holds "
                "if their mean improvement is within ±5 points of the paper's and their spread ≤ 5 points",
                [](const Claim& c, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "dummy.csv", &why);
                  if (!t) return not_measured(why);
                  std::vector<double> v;
                  std::vector<std::string> txt;
                  std::string ltm_map;
                  for (const auto& cands : std::vector<std::vector<std::string>>{{"rb"}, pick_rows::ltm(pick_rows::Grid::Papers), {"rec"}}) {
                    const std::string m = pick(*t, dummy_store(), cands, St::MedLarge);
                    if (m.empty()) continue;
                    const double p = 100 * (med_from(curve(*t, dummy_store(), m), kLargeN) - 1);
                    v.push_back(p);
                    txt.push_back(m + " " + fmt(p, 1) + "%");
                    if (m.rfind("ltm-", 0) == 0) ltm_map = m;
                  }
                  if (v.empty()) return needs("dummy.csv", "form=store, RB / LTM / REC rows at N ≥ 15,000");
                  const double spread = *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end());
                  Outcome o = judge(c, mean(v), "mean " + fmt(mean(v), 1) + "% (" + join(txt, ", ") + "), spread " + fmt(spread, 1) + " points");
                  if (o.verdict == "holds" && spread > kTolPct) {
                    o.verdict = "differs";
                    o.reason = "the maps do not converge: spread " + fmt(spread, 1) + " points";
                  }
                  if (o.verdict == "differs") o.reason += ". Why: " + bound_note(g, "dummy.csv", dummy_store(), ltm_map);
                  return o;
                },
                true);
}

// ---- EDM ------------------------------------------------------------------------------------------
Rule rec_from_N() {
  const Sel edm4 = pick_rows::edm("full", 4);
  return custom("smallest N of edm.csv (full, 4 features, ρ=" + fmt_int(current_rho()) + ") from which I of REC stays > 1 at every larger N",
                [edm4](const Claim& c, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "edm.csv", &why);
                  if (!t) return not_measured(why);
                  const Pts p = curve(*t, edm4, "rec");
                  if (p.empty()) return needs("edm.csv", "variant=full, features=4, map=rec rows");
                  double from = NAN;
                  for (size_t k = p.size(); k-- > 0;) {
                    if (p[k].second > 1) from = p[k].first;
                    else break;
                  }
                  if (!std::isfinite(from)) return Outcome{"never (I ≤ 1 at the largest N)", "differs", "REC is not faster than BB at large N", false};
                  // the sweep's step: the claim is judged on the grid of N measured
                  Outcome o = judge(c, from, "N ≥ " + fmt_int(from) + " (grid of the sweep, step " +
                                                 (p.size() > 1 ? fmt_int(p[1].first - p[0].first) : std::string("—")) + ")");
                  const Pts r = rel_spread(*t, edm4, "rec");
                  for (const auto& q : p)
                    if (q.first < from && q.first >= from - 2 * (p.size() > 1 ? p[1].first - p[0].first : 0))
                      for (const auto& s : r)
                        if (s.first == q.first && std::fabs(q.second - 1) <= q.second * s.second) {
                          o.noise = true;
                          o.reason += "; within noise: at N=" + fmt_int(q.first) + " I = " + fmt(q.second, 3) +
                                      ", run-to-run ±" + fmt(q.second * s.second, 3);
                        }
                  return o;
                },
                true);
}
Rule feat_flat() {
  return custom("at the largest N with all features, max − min over features 1..4 of I for LTM (ltm-r else ltm-e …) and "
                "RB, edm.csv variant=full ρ=" + fmt_int(current_rho()) + "; holds if both ≤ 0.05",
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "edm.csv", &why);
                  if (!t) return not_measured(why);
                  std::vector<std::string> txt;
                  bool all = true, any = false;
                  std::vector<std::string> moved;
                  for (const auto& cands : std::vector<std::vector<std::string>>{kLTM, {"rb"}}) {
                    for (const std::string& m : cands) {
                      std::map<double, std::vector<double>> byN;
                      for (int f = 1; f <= 4; ++f)
                        for (const auto& [N, I] : curve(*t, pick_rows::edm("full", f), m))
                          byN[N].push_back(I);
                      double N = NAN;
                      for (const auto& [n, v] : byN)
                        if (v.size() == 4) N = n;
                      if (!std::isfinite(N)) continue;
                      const auto& v = byN[N];
                      const double d = *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end());
                      txt.push_back(m + " ΔI " + fmt(d, 3) + " (N=" + fmt_int(N) + ")");
                      any = true;
                      all = all && d <= kTolI;
                      if (d > kTolI) moved.push_back(m);
                      break;
                    }
                  }
                  if (!any) return needs("edm.csv", "variant=full, LTM / RB at one N with all four features");
                  Outcome o{join(txt, "; "), all ? "holds" : "differs",
                            all ? "I changes by ≤ 0.05 over the features" : "I changes by more than 0.05 over the features", false};
                  if (!all) {
                    std::vector<std::string> w;
                    for (const std::string& m : moved)
                      w.push_back(bound_note(g, "edm.csv", pick_rows::edm("full", 1), m) + " (1 feature); " +
                                  bound_note(g, "edm.csv", pick_rows::edm("full", 4), m) + " (4 features)");
                    o.reason += ". Why: " + join(w, "; ");
                  }
                  return o;
                },
                true);
}
Rule feat_utm() {
  return custom("I(4 features) − I(1 feature) of UTM (utm-n else utm-x) at the largest N with both, edm.csv variant=full "
                "ρ=" + fmt_int(current_rho()) + " (inexact rows included); the N range UTM was measured over shown",
                [](const Claim& c, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "edm.csv", &why);
                  if (!t) return not_measured(why);
                  for (const std::string& m : kUTM) {
                    const Sel s1 = pick_rows::edm("full", 1, false),
                              s4 = pick_rows::edm("full", 4, false);
                    const Pts p1 = curve(*t, s1, m), p4 = curve(*t, s4, m);
                    std::map<double, double> a(p1.begin(), p1.end());
                    double N = NAN, d = NAN;
                    for (const auto& [n, i4] : p4)
                      if (a.count(n)) { N = n; d = i4 - a[n]; }
                    if (!std::isfinite(d)) continue;
                    Judge j;
                    const double s = stat_spread(*t, s4, m, St::Last) + stat_spread(*t, s1, m, St::Last);
                    j.noise = s;
                    return judge(c, d, fmt(d, 3) + " (" + m + ", N=" + fmt_int(N) + "; " + m + " measured over " +
                                           n_range(*t, s4, m) + (std::isfinite(s) ? "; run-to-run ±" + fmt(s, 3) : "") + ")",
                                 j);
                  }
                  return needs("edm.csv", "variant=full, utm-n at one N with 1 and 4 features");
                },
                true);
}

// ---- collision: UTM (direct kernel) against the shared-memory maps ------------------------------
namespace {
Sel col_shared() { return pick_rows::collision(pick_rows::Kernel::Shared, "3d"); }
Sel col_direct() { return pick_rows::collision(pick_rows::Kernel::Direct, "3d", false); }
std::map<double, double> ms_of(const Table& t, const Sel& s, const std::string& m) {
  const Pts p = curve(t, s, m, "median_ms");
  return std::map<double, double>(p.begin(), p.end());
}
}  // namespace
Rule col_utm_low() {
  return custom("I = t(BB, test=collision: shared memory) / t(utm-n, test=collision-direct) at the smallest N both have, "
                "collision.csv variant=3d ρ=" + fmt_int(current_rho()) + ": UTM cannot use the shared-memory pattern, so the paper compares its "
                "direct kernel with BB's shared-memory one",
                [](const Claim& c, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "collision.csv", &why);
                  if (!t) return not_measured(why);
                  const auto u = ms_of(*t, col_direct(), "utm-n"), b = ms_of(*t, col_shared(), "bb");
                  for (const auto& [N, tu] : u)
                    if (b.count(N)) {
                      const double v = 100 * (b.at(N) / tu - 1);
                      return judge(c, v, fmt(v, 1) + "% (N=" + fmt_int(N) + ": bb " + fmt_g(b.at(N), 3) + " ms shared, utm-n " +
                                             fmt_g(tu, 3) + " ms direct)");
                    }
                  return needs("collision.csv", "test=collision-direct, variant=3d, map=utm-n rows (and test=collision bb rows at the same N)");
                },
                true);
}
Rule col_utm_overtaken() {
  return custom("t(utm-n, test=collision-direct) / t(best of ltm-r, ltm-e, rb-b, rec, test=collision) at each N both "
                "have, collision.csv variant=3d ρ=" + fmt_int(current_rho()) + "; holds if the ratio grows with N and exceeds 1 at the largest N",
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "collision.csv", &why);
                  if (!t) return not_measured(why);
                  const auto u = ms_of(*t, col_direct(), "utm-n");
                  if (u.empty()) return needs("collision.csv", "test=collision-direct, variant=3d, map=utm-n rows");
                  Pts q;
                  for (const auto& [N, tu] : u) {
                    double best = NAN;
                    for (const char* m : {"ltm-r", "ltm-e", "rb-b", "rec"}) {
                      const auto s = ms_of(*t, col_shared(), m);
                      if (s.count(N) && !(s.at(N) >= best)) best = s.at(N);
                    }
                    if (std::isfinite(best)) q.emplace_back(N, tu / best);
                  }
                  if (q.size() < 2) return needs("collision.csv", "test=collision rows of the blockwise maps at the N of utm-n");
                  const bool grows = q.back().second > q.front().second, over = q.back().second > 1;
                  return Outcome{"t_utm / t_best shared: " + fmt(q.front().second, 2) + " at N=" + fmt_int(q.front().first) +
                                     " → " + fmt(q.back().second, 2) + " at N=" + fmt_int(q.back().first),
                                 grows && over ? "holds" : "differs",
                                 grows && over ? "UTM falls behind the shared-memory maps as N grows"
                                               : "UTM is not overtaken within the N it was measured over",
                                 false};
                },
                true);
}

// ---- tetrahedral ------------------------------------------------------------------------------
Rule map_6x() {
  return custom("largest I of any tetrahedral map (map ≠ bb3) in any verified, exact row of tet_dummy.csv and "
                "tet_threebody.csv (any form, mode and ρ); a bound on a gain: holds for 1 < I ≤ 6",
                [](const Claim& c, const GpuData* g, const Ctx&) {
                  if (!g) return not_measured("no GPU results");
                  double best = NAN, noise = NAN;
                  std::string where;
                  Sel any;
                  any.rho = NAN;
                  for (const char* f : {"tet_dummy.csv", "tet_threebody.csv"}) {
                    const Table* t = g->get(f);
                    if (!t || !t->has("map")) continue;
                    for (const Row& row : t->rows()) {
                      if (row.s("map").rfind("bb", 0) == 0 || !selected(row, any)) continue;
                      const double i = row_I(row);
                      if (std::isfinite(i) && !(i <= best)) {
                        best = i;
                        noise = i * (row.d("p75_ms") - row.d("p25_ms")) / (2 * row.d("median_ms"));
                        where = std::string(f) + " " + row.s("map") + (row.has("mode") ? " " + row.s("mode") : "") +
                                (row.has("form") ? " " + row.s("form") : "") + " N=" + row.s("N") + " ρ=" + row.s("rho");
                      }
                    }
                  }
                  if (!std::isfinite(best)) return needs("tet_dummy.csv", "tetrahedral-map rows");
                  Judge j;
                  j.gain = true;
                  j.noise = noise;
                  return judge(c, best, fmt(best, 3) + "× (max; " + where + (std::isfinite(noise) ? "; map row ±" + fmt(noise, 3) : "") + ")", j);
                },
                true);
}
namespace {
// eq. (3)-(6) of 003 with k = 128: the fraction of aligned warps of a triangular layer of side n, and its bound
double F_eq6(double n, double k = 128) {
  const double R = std::floor(n / (2 * k)), W = R * (R + 1);
  return W / std::ceil(n * (n + 1) / (2 * k));
}
double F_bound(double n, double k = 128) { return 1 / (2 * k) + 1 / n; }
}  // namespace
Rule layout_2f() {
  return custom(
      "tet_layout.csv rows mode=bw (the bandwidth-bound layout kernel), layout=blocked: linear_over_blocked against "
      "eq. (10)'s 2 − F with F = eq. (6)'s bound 1/(2k) + 1/n (k = 128, n = N), judged (±20%) only on rows whose "
      "better layout reaches ≥ 70% of the bandwidth measured in the same run (eff_gbs against the reference row "
      "map=bw_copy: a plain float4 copy of the same bytes); the compute-bound rows (mode thread/block) shown as context. "
      "Two readings of 2 − F: eq. (10)'s \"≈ 2 − F\" and the abstract's \"up to 2×\" (within ±20%, a ceiling), and eq. (7)'s "
      "\"we expect the total cost ... to be at least\" with α = 2 \"the best possible scenario\" (2 − F a floor: holds if "
      "ours ≥ 2 − F)",
      [](const Claim& c, const GpuData* g, const Ctx&) {
        std::string why;
        const Table* t = need_table(g, "tet_layout.csv", &why);
        if (!t) return not_measured(why);
        // the compute-bound case, as context
        double cmin = NAN, cmax = NAN;
        double bw = NAN;
        for (const Row& r : t->rows()) {
          // the bandwidth reference of the same run and size: a plain float4 copy of the same bytes
          if (r.s("map") == "bw_copy" && r.s("mode") == "bw" && !(r.d("eff_gbs") <= bw)) bw = r.d("eff_gbs");
          if (r.s("mode") == "bw" || r.s("layout") != "blocked") continue;
          const double x = r.d("linear_over_blocked");
          if (!std::isfinite(x)) continue;
          if (!(x >= cmin)) cmin = x;
          if (!(x <= cmax)) cmax = x;
        }
        const std::string ctxt = std::isfinite(cmin) ? "compute-bound kernel (mode thread/block): linear/blocked " +
                                                           fmt(cmin, 2) + "–" + fmt(cmax, 2) : "";
        std::vector<double> ratio, pred, blk_frac, lin_frac;
        double best_frac = NAN;
        size_t bwrows = 0;
        for (const Row& r : t->rows()) {
          if (r.s("mode") != "bw" || r.s("layout") != "blocked" || (r.has("verified") && r.s("verified") == "0")) continue;
          ++bwrows;
          const double q = r.d("linear_over_blocked");
          const double lin = r.d("linear_median_ms"), blk = r.d("median_ms"), e = r.d("eff_gbs");
          // eff_gbs of the better layout: the blocked row's, scaled by the time ratio when linear is faster
          const double better = (std::isfinite(lin) && std::isfinite(blk) && lin < blk) ? e * blk / lin : e;
          const double frac = better / bw;
          if (std::isfinite(frac) && !(frac <= best_frac)) best_frac = frac;
          if (!(frac >= 0.7) || !std::isfinite(q)) continue;
          ratio.push_back(q);
          pred.push_back(2 - F_bound(r.d("N")));
          blk_frac.push_back(e / bw);
          lin_frac.push_back(e / bw / q);
        }
        if (!bwrows)
          return Outcome{ctxt.empty() ? "—" : ctxt, "not measured",
                         "not measured yet (needs tet_layout.csv: mode=bw rows, layouts linear and blocked, and a "
                         "bandwidth reference row map=bw_copy with eff_gbs)",
                         false};
        if (!std::isfinite(bw))
          return Outcome{ctxt, "not measured", "not measured yet (needs tet_layout.csv: a bandwidth reference row map=bw_copy, column eff_gbs)", false};
        if (ratio.empty())
          return Outcome{ctxt + "; bw kernel: the better layout reaches at most " + fmt(100 * best_frac, 0) + "% of " +
                             fmt_g(bw, 4) + " GB/s",
                         "not measured", "not judged: no bw row reaches 70% of the measured write bandwidth", false};
        const double v = median(ratio), p = median(pred);
        Judge j;
        j.cmp = "=";
        Claim cc = c;
        cc.pv.cmp = "=";
        cc.pv.lo = p;
        const std::string ours = "bw kernel: linear/blocked median " + fmt(v, 3) + " over " + std::to_string(ratio.size()) +
                                 " rows ≥ 70% of " + fmt_g(bw, 4) + " GB/s; 2 − F = " + fmt(p, 4) + (ctxt.empty() ? "" : "; " + ctxt);
        // what the judged rows say about the two layouts: the share of the copy bandwidth each moves
        const std::string cause = ". Why: over the judged rows the blocked layout moves a median " +
                                fmt(100 * median(blk_frac), 0) + "% of the bw_copy bandwidth of the same run and the linear "
                                "layout " + fmt(100 * median(lin_frac), 0) + "% (its eff_gbs scaled by the time ratio); "
                                "what makes each unaligned linear access cost more than eq. (7)'s α = 2 is not measured "
                                "(no profiler counters in this package): reason not measured";
        Outcome ceil_o = judge(cc, v, ours);
        if (ceil_o.verdict == "differs") ceil_o.reason += cause;
        Claim fc = cc;
        fc.pv.cmp = ">=";
        Judge fj;
        fj.cmp = ">=";
        Outcome floor_o = judge(fc, v, ours, fj);
        if (floor_o.verdict == "differs") floor_o.reason += cause;
        Outcome o = combine_readings({{"≈ 2 − F, up to 2× (eq. (10), abstract)", ceil_o},
                                      {"at least 2 − F (eq. (7) 'at least', α = 2 the best case)", floor_o}});
        o.ours = ours;
        return o;
      },
      true);
}
Rule fa_layouts() {
  return custom("eqs. (3)-(6) of 003 with k = 128 at the layer side n = N of every size of tet_layout.csv: the aligned "
                "fraction F = R(R+1)/⌈n(n+1)/2k⌉, R = ⌊n/2k⌋, against the bound 1/(2k) + 1/n; holds if F < bound at every N",
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "tet_layout.csv", &why);
                  if (!t) return not_measured(why);
                  const std::vector<double> Ns = distinct(*t, "N");
                  if (Ns.empty()) return needs("tet_layout.csv", "rows with N");
                  bool ok = true;
                  std::vector<std::string> txt;
                  for (double N : Ns) {
                    const double f = F_eq6(N), b = F_bound(N);
                    ok = ok && f < b;
                    txt.push_back("N=" + fmt_int(N) + ": F " + fmt(100 * f, 3) + "% < " + fmt(100 * b, 3) + "%");
                  }
                  return Outcome{join(txt, "; "), ok ? "holds" : "differs",
                                 ok ? "eq. (6)'s bound holds at every layer side we run; 2 − F ≥ " + fmt(2 - F_bound(Ns.front()), 3)
                                    : "F exceeds the bound at some N",
                                 false};
                },
                true);
}
Rule fa128() {
  return custom("eq. (6) evaluated: 100/(2k) percent with k = 128; compared to ±0.01 points (the paper rounds)",
                [](const Claim& c, const GpuData*, const Ctx&) {
                  const double v = 100.0 / (2.0 * 128.0);
                  Judge j;
                  j.tol = Tol{0.01, false};
                  return judge(c, v, fmt(v, 4) + "% (+ 1/n)", j);
                },
                false);
}
Rule blocks_6x() {
  return custom("counts3 of the map library, ρ=8, n = 1…128: launched blocks of BB3 / of TET-E, compared with eq. (17) "
                "at β = τ, 6n³/(n³ + 3n² + 2n); holds if equal at every n and below 6",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Wasted3& w = ctx.wasted3();
                  bool ok = true;
                  for (size_t k = 0; k < w.n.size(); ++k) {
                    const double n = w.n[k], q = w.bb3_launched[k] / w.tet_launched[k];
                    const double eq17 = 6 * n * n * n / (n * n * n + 3 * n * n + 2 * n);
                    ok = ok && std::fabs(q - eq17) <= 1e-9 * eq17 && q < 6;
                  }
                  const double last = w.bb3_launched.back() / w.tet_launched.back();
                  return Outcome{fmt(last, 3) + "× at n=" + fmt_int(w.n.back()) + " (N=" + fmt_int(w.N.back()) + ")",
                                 ok ? "holds" : "differs", ok ? "equals eq. (17) at every n; tends to 6 from below" : "differs from eq. (17)", false};
                },
                false);
}
Rule tet_threads() {
  return custom("counts3<TET_E> of the map library, ρ=8, n = 1…128: wasted threads / (n²ρ³); holds if ≤ 1 at every n "
                "(BB3's wasted threads / (n³ρ³) shown beside)",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Wasted3& w = ctx.wasted3();
                  double worst = 0, bbq = 0;
                  const double r3 = double(kRho3) * kRho3 * kRho3;
                  for (size_t k = 0; k < w.n.size(); ++k) {
                    worst = std::max(worst, w.tet_wasted_threads[k] / (w.n[k] * w.n[k] * r3));
                    bbq = w.bb3_wasted_threads[k] / (w.n[k] * w.n[k] * w.n[k] * r3);
                  }
                  return Outcome{"tet-e: ≤ " + fmt(worst, 3) + "·n²ρ³; bb3: " + fmt(bbq, 3) + "·n³ρ³ at n=" + fmt_int(w.n.back()),
                                 worst <= 1 ? "holds" : "differs", worst <= 1 ? "bounded by n²ρ³" : "exceeds n²ρ³", false};
                },
                false);
}
Rule cites_2d() {
  const Sel edm4 = pick_rows::edm("full", 4);
  const Sel col3 = pick_rows::collision(pick_rows::Kernel::Shared, "3d");
  // 003 §II cites 000 for "approximately 20% of improvement" on collision detection and EDM: a citation, not a
  // measurement of 003; what 000 itself reports is read from reported.csv (rows 000-edm-ltm-18, 000-col-ltm-7)
  return context(
      "003 citing 000 (no measurement of 003); ours: the larger median over N ≥ 15,000 of LTM's improvement (ltm-r "
      "else ltm-e …) on edm.csv (full, 4 features) and collision.csv (test=collision, 3d), ρ=16; a cross-paper note puts 000's own values "
      "(reported.csv rows 000-edm-ltm-18, 000-col-ltm-7) beside the cited value",
      [edm4, col3](const Claim& c, const GpuData* g, const Ctx& ctx) {
        std::vector<std::string> own;
        for (const char* id : {"000-edm-ltm-18", "000-col-ltm-7"})
          if (const Claim* k = ctx.claim(id)) own.push_back(k->value + k->unit + " (" + id + ")");
        const std::string note =
            own.empty() ? "" : "cross-paper note: 000 itself reports " + join(own, " and ") + " for LTM, not the " + c.value +
                                   c.unit + " that 003 attributes to it";
        if (!g) return Outcome{"—", "", note, false};
        double best = NAN;
        std::string where;
        for (const auto& [f, s] : std::vector<std::pair<std::string, Sel>>{{"edm.csv", edm4}, {"collision.csv", col3}}) {
          const Table* t = g->get(f);
          if (!t) continue;
          const std::string m = pick(*t, s, kLTM, St::MedLarge);
          if (m.empty()) continue;
          const double v = 100 * (med_from(curve(*t, s, m), kLargeN) - 1);
          if (std::isfinite(v) && !(v <= best)) { best = v; where = f + " " + m; }
        }
        return Outcome{std::isfinite(best) ? fmt(best, 1) + "% (" + where + ")" : "—", "", note, false};
      });
}

// ---- SDH ----------------------------------------------------------------------------------------
namespace {
double sdh_time(const Row& r) {
  const double w = r.d("with_transfers_ms");
  return std::isfinite(w) ? w : r.d("median_ms");
}
std::map<std::string, Row> sdh_ladder(const Table& t, double N) {
  std::map<std::string, Row> best;
  std::map<std::string, int> score;
  for (const Row& r : t.rows()) {
    if (r.d("N") != N) continue;
    const std::string slot = sdh_slot(r.s("impl"));
    if (slot.empty()) continue;
    const int sc = (r.d("bucket_width") == kSdhBucket ? 2 : 0) + (r.d("threads_per_block") == kSdhTpb ? 1 : 0);
    if (!best.count(slot) || sc > score[slot]) {
      best.erase(slot);
      best.emplace(slot, r);
      score[slot] = sc;
    }
  }
  return best;
}
std::string sdh_how(const std::string& what) {
  return what + "; sdh.csv rows at N=10,000 (bucket_width 500 and threads_per_block 256 preferred), implementations "
                "matched to the paper's versions by name (cpu, v1..v5); time = with_transfers_ms where given (the paper "
                "includes transfers), else median_ms";
}
double sdh_noise(const Row& r) { return (r.d("p75_ms") - r.d("p25_ms")) / (2 * r.d("median_ms")); }
}  // namespace
Rule sdh_time_context(const std::string& slot) {
  Rule r = context("an absolute time on the paper's hardware (GTX 760 / Core i7-3770K)",
                   [slot](const Claim&, const GpuData* g, const Ctx&) {
                     std::string why;
                     const Table* t = need_table(g, "sdh.csv", &why);
                     if (!t) return Outcome{"—", "", why, false};
                     const auto lad = sdh_ladder(*t, kSdhN);
                     const auto it = lad.find(slot);
                     if (it == lad.end()) return Outcome{"—", "", "no implementation of sdh.csv matches " + slot, false};
                     return Outcome{vfmt("ms", sdh_time(it->second)) + " (" + it->second.s("impl") + ")", "", "", false};
                   });
  r.how = sdh_how("time of " + slot) + "; " + r.how;
  return r;
}
Rule sdh_ratio(const std::string& num, const std::string& den, std::optional<Tol> tol) {
  return custom(sdh_how("time(" + num + ") / time(" + den + ") of the same run"),
                [num, den, tol](const Claim& c, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "sdh.csv", &why);
                  if (!t) return not_measured(why);
                  const auto lad = sdh_ladder(*t, kSdhN);
                  if (!lad.count(num) || !lad.count(den)) return needs("sdh.csv", num + " and " + den + " rows at N=10,000");
                  const double v = sdh_time(lad.at(num)) / sdh_time(lad.at(den));
                  Judge j;
                  j.tol = tol;
                  j.noise = v * (sdh_noise(lad.at(num)) + sdh_noise(lad.at(den)));
                  return judge(c, v, vfmt("x", v) + " (" + lad.at(num).s("impl") + " / " + lad.at(den).s("impl") +
                                         (std::isfinite(j.noise) ? "; run-to-run ±" + fmt(j.noise, 2) : "") + ")", j);
                },
                true);
}
Rule sdh_speedup_context() {
  Rule r = context("a GPU-over-CPU speedup of other hardware (GTX 760 against a Core i7-3770K)",
                   [](const Claim&, const GpuData* g, const Ctx&) {
                     std::string why;
                     const Table* t = need_table(g, "sdh.csv", &why);
                     if (!t) return Outcome{"—", "", why, false};
                     const auto lad = sdh_ladder(*t, kSdhN);
                     if (!lad.count("v5")) return Outcome{"—", "", "no v5 row at N=10,000", false};
                     if (lad.count("cpu")) {
                       const double v = sdh_time(lad.at("cpu")) / sdh_time(lad.at("v5"));
                       return Outcome{vfmt("x", v) + " (" + lad.at("cpu").s("impl") + " / " + lad.at("v5").s("impl") + ")", "", "", false};
                     }
                     return Outcome{vfmt("x", lad.at("v5").d("speedup_vs_cpu_mt")) + " (v5 vs the multi-threaded CPU)", "", "", false};
                   });
  r.how = sdh_how("time(cpu) / time(v5), else speedup_vs_cpu_mt of v5") + "; " + r.how;
  return r;
}
Rule sdh_tpb() {
  return custom("v5 rows of sdh.csv at N=10,000 over threads_per_block: the fastest block size; holds if the largest "
                "block size tested is slower than 256",
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "sdh.csv", &why);
                  if (!t) return not_measured(why);
                  std::map<double, double> byT;
                  for (const Row& row : t->rows())
                    if (row.d("N") == kSdhN && sdh_slot(row.s("impl")) == "v5" && std::isfinite(row.d("threads_per_block")))
                      byT[row.d("threads_per_block")] = sdh_time(row);
                  if (byT.size() < 2 || !byT.count(kSdhTpb)) return needs("sdh.csv", "a block-size sweep of v5 including 256");
                  double bt = NAN, bv = NAN;
                  for (const auto& [tp, v] : byT)
                    if (!(v >= bv)) { bv = v; bt = tp; }
                  const bool ok = byT.rbegin()->second > byT.at(kSdhTpb);
                  return Outcome{"fastest at " + fmt_int(bt) + " threads; " + fmt_int(byT.rbegin()->first) + " threads: " +
                                     fmt_g(byT.rbegin()->second, 3) + " ms vs " + fmt_g(byT.at(kSdhTpb), 3) + " ms at 256",
                                 ok ? "holds" : "differs",
                                 ok ? "larger blocks are slower"
                                    : "larger blocks are not slower: " + fmt_int(byT.rbegin()->first) + " threads take " +
                                          fmt_g(byT.rbegin()->second, 3) + " ms (sdh.csv v5 rows)",
                                 false};
                },
                true);
}
Rule sdh_steps() {
  return custom(sdh_how("the gain of each step of the ladder, time(v_k) / time(v_k+1), k = 1..4; holds if the two largest "
                        "are v1→v2 and v4→v5"),
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "sdh.csv", &why);
                  if (!t) return not_measured(why);
                  const auto lad = sdh_ladder(*t, kSdhN);
                  std::vector<std::pair<double, std::string>> steps;
                  std::vector<std::string> txt;
                  for (int k = 1; k <= 4; ++k) {
                    const std::string a = "v" + std::to_string(k), b = "v" + std::to_string(k + 1);
                    if (!lad.count(a) || !lad.count(b)) return needs("sdh.csv", a + " and " + b + " rows at N=10,000");
                    const double gain = sdh_time(lad.at(a)) / sdh_time(lad.at(b));
                    steps.emplace_back(gain, a + "→" + b);
                    txt.push_back(a + "→" + b + " " + fmt(gain, 2) + "×");
                  }
                  std::sort(steps.rbegin(), steps.rend());
                  std::set<std::string> top = {steps[0].second, steps[1].second};
                  const bool ok = top.count("v1→v2") && top.count("v4→v5");
                  return Outcome{join(txt, ", "), ok ? "holds" : "differs", "largest: " + steps[0].second + " and " + steps[1].second, false};
                },
                true);
}
Rule sdh_internal() {
  return custom("the paper's own times (rows 004-v1-94 and 004-v2-54 of reported.csv): V1 / V2 against its stated "
                "2–5× (no tolerance: both numbers are the paper's)",
                [](const Claim& c, const GpuData*, const Ctx& ctx) {
                  const Claim* a = ctx.claim("004-v1-94");
                  const Claim* b = ctx.claim("004-v2-54");
                  if (!a || !b || !a->pv.numeric() || !b->pv.numeric()) return not_measured("rows 004-v1-94 / 004-v2-54 missing");
                  const double v = a->pv.lo / b->pv.lo;
                  Judge j;
                  j.tol = Tol{0, false};
                  Outcome o = judge(c, v, fmt(v, 2) + "× (" + a->value + " ms / " + b->value + " ms, the paper's Results)", j);
                  if (o.verdict == "differs") o.reason = "the paper's own V1/V2 = " + fmt(v, 2) + "× lies below its 2–5×";
                  return o;
                },
                false);
}

// ---- #24 item 6: claims added on a second reading of the seeds ---------------------------------
Rule fewer_instructions() {
  return custom("map instructions per thread (SASS, sm_90, 32-bit path, dummy kernel form cond) of each LTM variant "
                "against the UTM variant with the same square root (ltm-x vs utm-x: sqrtf; ltm-r vs utm-n: the fast "
                "root), experiments/results/cpu/map_instructions.csv; the table counts every instruction, not only "
                "floating-point ones (its mufu column: the special-function ones); holds if each LTM count is lower",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Table* t = ctx.cpu.get("map_instructions.csv");
                  if (!t) return needs("experiments/results/cpu/map_instructions.csv", "sm_90 2D rows");
                  const auto at = [&](const std::string& m, const char* col) {
                    for (const Row& r : t->rows())
                      if (r.s("map") == m && r.s("dim") == "2" && r.s("index_bits") == "32" && r.s("form") == "cond")
                        return r.d(col);
                    return double(NAN);
                  };
                  std::vector<std::string> txt, bad;
                  for (const auto& [l, u] : {std::pair<std::string, std::string>{"ltm-x", "utm-x"}, {"ltm-r", "utm-n"}}) {
                    const double a = at(l, "map_instructions"), b = at(u, "map_instructions");
                    if (!std::isfinite(a) || !std::isfinite(b)) return needs("map_instructions.csv", l + " and " + u + " rows");
                    txt.push_back(l + " " + fmt_int(a) + " (mufu " + fmt_int(at(l, "mufu")) + ") vs " + u + " " + fmt_int(b) +
                                  " (mufu " + fmt_int(at(u, "mufu")) + ")");
                    if (!(a < b)) bad.push_back(l + " vs " + u);
                  }
                  return Outcome{join(txt, "; "), bad.empty() ? "holds" : "differs",
                                 bad.empty() ? "each LTM variant runs fewer map instructions than its UTM counterpart"
                                             : "not fewer: " + join(bad, ", "),
                                 false};
                },
                false);
}
Rule eq16_printed_001() {
  return custom("001's eq. (16) as printed, √x = x / rsqrtf(x), evaluated in double with an exact 1/√x for x = 1/4 + "
                "2λ (000 eq. (9)'s radicand), λ < tri(4096): the first λ whose row ⌊(printed) + 1/2⌋ differs from "
                "the exact row (x / rsqrtf(x) = x^1.5)",
                [](const Claim&, const GpuData*, const Ctx&) {
                  const double lim = 4096.0 * 4097.0 / 2.0;
                  double first = NAN, right = 0;
                  for (double l = 0; l < lim; l += 1) {
                    const double x = 0.25 + 2.0 * l;
                    const double printed = x / (1.0 / std::sqrt(x)), exact = std::sqrt(x);
                    if (std::floor(printed + 0.5) == std::floor(exact + 0.5)) right += 1;
                    else if (!std::isfinite(first)) first = l;
                  }
                  return Outcome{"x / rsqrtf(x) = x^1.5; first wrong λ = " + fmt_int(first) + "; " + fmt_int(right) +
                                     " of " + fmt_int(lim) + " λ get the right row",
                                 std::isfinite(first) ? "differs" : "holds",
                                 "as printed in 001 the formula is x^1.5, not √x; 002 prints x/√x = x·rsqrtf(x), which "
                                 "the package uses (ltm-r); not only an extraction artefact: 000's eq. (15) prints the "
                                 "same x / rsqrtf(x) before x · rsqrtf(x) (claim 000-eq15-printed)",
                                 false};
                },
                false);
}
Rule eq15_printed_000() {
  return custom("000's eq. (15) as printed, √x = x / rsqrtf(x) = x · rsqrtf(x): each form evaluated in double with an "
                "1/√x for x = 1/4 + 2λ (eq. (9)'s radicand), λ < tri(4096): the first λ where a form is not √x (relative "
                "difference above 10⁻¹², far above double rounding and far below x^1.5's error); holds only if both forms "
                "are √x (an identity, so the row ⌊·+1/2⌋, which double rounding alone flips at the exact boundaries "
                "λ = k(k−1)/2, is not used)",
                [](const Claim&, const GpuData*, const Ctx&) {
                  const double lim = 4096.0 * 4097.0 / 2.0;
                  double first_div = NAN, first_mul = NAN;
                  for (double l = 0; l < lim; l += 1) {
                    const double x = 0.25 + 2.0 * l, r = 1.0 / std::sqrt(x), root = std::sqrt(x);
                    const auto off = [&](double v) { return std::fabs(v - root) > 1e-12 * root; };
                    if (!std::isfinite(first_div) && off(x / r)) first_div = l;
                    if (!std::isfinite(first_mul) && off(x * r)) first_mul = l;
                  }
                  const auto txt = [&](double f) {
                    return std::isfinite(f) ? "first wrong λ = " + fmt_int(f) : "right at every λ < " + fmt_int(lim);
                  };
                  const bool ok = !std::isfinite(first_div) && !std::isfinite(first_mul);
                  return Outcome{"x / rsqrtf(x): " + txt(first_div) + "; x · rsqrtf(x): " + txt(first_mul), ok ? "holds" : "differs",
                                 ok ? "both printed forms are √x"
                                    : "the printed chain is not an identity: x / rsqrtf(x) = x^1.5, x · rsqrtf(x) = √x (the "
                                      "form ltm-r uses); 001's eq. (16) prints only the first (claim 001-eq16-printed)",
                                 false};
                },
                false);
}
// ---- statements without a number (audit E) -----------------------------------------------------
namespace {
// median over N ≥ kLargeN of I of the first candidate with rows
std::pair<std::string, double> med_large(const Table& t, const Sel& s, const std::vector<std::string>& cands) {
  const std::string m = pick(t, s, cands, St::MedLarge);
  if (m.empty()) return {"", NAN};
  return {m, med_from(curve(t, s, m), kLargeN)};
}
// max − min over features 1..4 of I at the largest N that has all four, for the first candidate with rows
std::pair<std::string, std::string> feature_swing(const Table& t, const std::vector<std::string>& cands, double* d) {
  for (const std::string& m : cands) {
    std::map<double, std::vector<double>> byN;
    for (int f = 1; f <= 4; ++f)
      for (const auto& [N, I] : curve(t, pick_rows::edm("full", f), m)) byN[N].push_back(I);
    double N = NAN;
    for (const auto& [n, v] : byN)
      if (v.size() == 4) N = n;
    if (!std::isfinite(N)) continue;
    const auto& v = byN[N];
    *d = *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end());
    std::vector<std::string> each;
    for (size_t k = 0; k < v.size(); ++k) each.push_back("d=" + std::to_string(k + 1) + " " + fmt(v[k], 3));
    return {m, "N=" + fmt_int(N) + ": " + join(each, ", ")};
  }
  *d = NAN;
  return {"", ""};
}
}  // namespace
Rule maps_differ_edm() {
  return custom("spread (max − min) of the median over N ≥ " + fmt_int(kLargeN) + " of I of RB, LTM (ltm-r else ltm-e …) "
                "and REC, edm.csv variant=full features=4 ρ=" + fmt_int(current_rho()) +
                "; holds if the spread exceeds the verdict tolerance for I (±" + fmt(kTolI, 2) + ")",
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "edm.csv", &why);
                  if (!t) return not_measured(why);
                  const Sel s = pick_rows::edm("full", 4);
                  std::vector<std::string> txt;
                  double lo = NAN, hi = NAN;
                  for (const auto& cands : std::vector<std::vector<std::string>>{pick_rows::rb(), kLTM, pick_rows::rec()}) {
                    const auto [m, v] = med_large(*t, s, cands);
                    if (m.empty() || !std::isfinite(v)) return needs("edm.csv", "variant=full, features=4, " + join(cands, " else ") + " rows at N ≥ " + fmt_int(kLargeN));
                    txt.push_back(m + " " + fmt(v, 3));
                    if (!(v >= lo)) lo = v;
                    if (!(v <= hi)) hi = v;
                  }
                  const double d = hi - lo;
                  return Outcome{"spread " + fmt(d, 3) + " (" + join(txt, ", ") + ", median N≥" + fmt_int(kLargeN) + ")",
                                 d > kTolI ? "holds" : "differs",
                                 d > kTolI ? "the maps differ by more than ±" + fmt(kTolI, 2) + " in I"
                                           : "the maps lie within ±" + fmt(kTolI, 2) + " of each other: no difference manifests. Why: reason not measured",
                                 false};
                },
                true);
}
Rule feat_similar() {
  return custom("for RB, LTM (ltm-r else ltm-e …) and REC: the median over N ≥ " + fmt_int(kLargeN) + " of I with 2 and "
                "with 3 features inside [min, max] of the same with 1 and 4 features, widened by ±" + fmt(kTolI, 2) +
                "; edm.csv variant=full ρ=" + fmt_int(current_rho()) + " (UTM has no rows at large N: left out, said so)",
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "edm.csv", &why);
                  if (!t) return not_measured(why);
                  std::vector<std::string> txt, off;
                  for (const auto& cands : std::vector<std::vector<std::string>>{pick_rows::rb(), kLTM, pick_rows::rec()}) {
                    double v[5] = {NAN, NAN, NAN, NAN, NAN};
                    std::string m;
                    for (int f = 1; f <= 4; ++f) {
                      const auto r = med_large(*t, pick_rows::edm("full", f), cands);
                      if (m.empty()) m = r.first;
                      v[f] = r.second;
                    }
                    for (int f = 1; f <= 4; ++f)
                      if (!std::isfinite(v[f])) return needs("edm.csv", "variant=full, features=" + std::to_string(f) + ", " + join(cands, " else ") + " rows at N ≥ " + fmt_int(kLargeN));
                    const double lo = std::min(v[1], v[4]) - kTolI, hi = std::max(v[1], v[4]) + kTolI;
                    txt.push_back(m + " d=1 " + fmt(v[1], 3) + ", d=2 " + fmt(v[2], 3) + ", d=3 " + fmt(v[3], 3) + ", d=4 " + fmt(v[4], 3));
                    for (int f : {2, 3})
                      if (v[f] < lo || v[f] > hi) off.push_back(m + " d=" + std::to_string(f));
                  }
                  return Outcome{join(txt, "; ") + " (median N≥" + fmt_int(kLargeN) + ")", off.empty() ? "holds" : "differs",
                                 off.empty() ? "2 and 3 features lie within the range of 1 and 4 features (±" + fmt(kTolI, 2) + ")"
                                             : "outside the range of 1 and 4 features: " + join(off, ", ") + ". Why: reason not measured",
                                 false};
                },
                true);
}
Rule feat_rec() {
  return custom("at the largest N with all four features, max − min over features 1..4 of I of REC, edm.csv variant=full ρ=" +
                    fmt_int(current_rho()) + "; holds if it exceeds the verdict tolerance for I (±" + fmt(kTolI, 2) + ")",
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, "edm.csv", &why);
                  if (!t) return not_measured(why);
                  double d = NAN;
                  const auto [m, txt] = feature_swing(*t, pick_rows::rec(), &d);
                  if (m.empty()) return needs("edm.csv", "variant=full, rec at one N with all four features");
                  Outcome o{m + " ΔI " + fmt(d, 3) + " (" + txt + ")", d > kTolI ? "holds" : "differs",
                            d > kTolI ? "the number of features changes REC's I by more than ±" + fmt(kTolI, 2)
                                      : "REC's I changes by no more than ±" + fmt(kTolI, 2) + " over the features",
                            false};
                  if (o.verdict == "differs")
                    o.reason += ". Why: " + bound_note(g, "edm.csv", pick_rows::edm("full", 1), m) + " (1 feature); " +
                                bound_note(g, "edm.csv", pick_rows::edm("full", 4), m) + " (4 features)";
                  return o;
                },
                true);
}
Rule eq5_W() {
  return custom("eq. (5) of 003 with k = 128 for every n = 1 … 10⁶: W = R(R+1), R = ⌊n/2k⌋, against n²/4k² + n/2k; holds if "
                "W ≤ the bound at every n",
                [](const Claim&, const GpuData*, const Ctx&) {
                  const double k = 128;
                  long long bad = 0, first = -1;
                  double tight = kInf;  // the smallest margin bound − W
                  for (long long n = 1; n <= 1000000; ++n) {
                    const double R = std::floor(double(n) / (2 * k)), W = R * (R + 1);
                    const double b = double(n) * n / (4 * k * k) + double(n) / (2 * k);
                    if (W > b) {
                      ++bad;
                      if (first < 0) first = n;
                    }
                    tight = std::min(tight, b - W);
                  }
                  return Outcome{bad ? std::to_string(bad) + " n above the bound (first n = " + std::to_string(first) + ")"
                                     : "W ≤ bound at every n ≤ 10⁶ (smallest margin " + fmt(tight, 3) + ")",
                                 bad ? "differs" : "holds", bad ? "the printed bound fails at some n" : "eq. (5)'s bound holds",
                                 false};
                },
                false);
}
Rule blocked_size() {
  return custom("BlockedLayout3 of the map library (layout3d.hpp) at N = nρ, ρ ∈ {4, 8}, n = 8 … 1,024 (doubling): slots = "
                "tet(N) + padding; holds if the padding ≤ n²ρ³ (eq. (9)'s term) at every size and padding / tet(N) falls "
                "as N grows (o(n³))",
                [](const Claim&, const GpuData*, const Ctx&) {
                  bool within = true, falls = true;
                  std::vector<std::string> txt;
                  for (int rho : {4, 8}) {
                    double prev = kInf, last = NAN, first = NAN;
                    for (long long n = 8; n <= 1024; n *= 2) {
                      const long long N = n * rho;
                      const tdmaps::BlockedLayout3 L = tdmaps::BlockedLayout3::make(N, rho);
                      const double pad = double(L.padding()), cells = double(L.slots()) - pad;
                      within = within && pad <= double(n) * n * rho * rho * rho;
                      const double frac = pad / cells;
                      falls = falls && frac < prev;
                      prev = frac;
                      if (!std::isfinite(first)) first = frac;
                      last = frac;
                    }
                    txt.push_back("ρ=" + std::to_string(rho) + ": padding / tet(N) " + fmt(100 * first, 2) + "% (n=8) → " +
                                  fmt(100 * last, 3) + "% (n=1,024)");
                  }
                  const bool ok = within && falls;
                  return Outcome{join(txt, "; "), ok ? "holds" : "differs",
                                 ok ? "padding ≤ n²ρ³ at every size and a falling share of tet(N): O(n³) + o(n³)"
                                    : std::string(within ? "" : "padding above n²ρ³ at some size; ") +
                                          (falls ? "" : "the padding's share does not fall with N"),
                                 false};
                },
                false);
}

Rule two_conditionals() {
  return custom("largest exact N of utm-n (Avril's fast square root and its two repairing conditionals) in both rounding "
                "modes: exact_range_gpu.csv else the CPU oracle; 'all errors fixed' holds only if no N fails",
                [](const Claim&, const GpuData* g, const Ctx& ctx) {
                  std::vector<std::string> txt;
                  bool finite = false, any = false;
                  for (bool fma : {true, false}) {
                    const auto r = exact_N(ctx, g, "utm-n", fma, false);
                    txt.push_back(std::string(fma ? "FMA" : "pinned") + ": " + range_text(r));
                    if (r) {
                      any = true;
                      finite = finite || !r->lower_bound;
                    }
                  }
                  if (!any) return needs(kRangeFiles, "utm-n rows");
                  return Outcome{"utm-n exact up to " + join(txt, "; "), finite ? "differs" : "holds",
                                 finite ? "the two conditionals stop fixing the root one N past that range (the sweep's "
                                          "first wrong N)"
                                        : "no failure found in the searched range",
                                 false};
                },
                true);
}
Rule tet_eq16_exact() {
  return custom("tet-e (003's eq. (16) with an exact layer: estimate within one + one compare-and-step each way) in "
                "verify/results/exact_ranges_cpu.csv: the first wrong λ of the oracle's search",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Table* t = ctx.cpu_exact_table ? &*ctx.cpu_exact_table : nullptr;
                  if (!t) return needs("verify/results/exact_ranges_cpu.csv", "tet-e rows");
                  for (const Row& r : t->rows())
                    if (r.s("variant") == "tet-e")
                      return Outcome{"first wrong λ: " + r.s("first_wrong") + " (searched λ < " + fmt_int(r.d("searched_up_to")) + ")",
                                     r.s("first_wrong") == "none" ? "holds" : "differs",
                                     r.s("first_wrong") == "none" ? "exact for every λ searched" : "wrong from λ = " + r.s("first_wrong"),
                                     false};
                  return needs("verify/results/exact_ranges_cpu.csv", "tet-e rows");
                },
                false);
}

Rule eq2_printed() {
  return custom("eq. (2) as printed, i = ⌊√(1/4 + 2λ) − 1/2⌋, j = λ − i(i+1)/2, onto the lower triangle with its "
                "diagonal (0 ≤ j ≤ i): in exact arithmetic (double, every λ < tri(8192); a λ whose j leaves [0, i] is "
                "wrong) and in float (sqrtf, every operation rounded on its own), the first wrong λ below 2²⁶",
                [](const Claim&, const GpuData*, const Ctx&) {
                  static const Outcome out = [] {
                    const double lim = 8192.0 * 8193.0 / 2.0;
                    double bad_exact = NAN;
                    for (double l = 0; l < lim && !std::isfinite(bad_exact); l += 1) {
                      const double i = std::floor(std::sqrt(0.25 + 2.0 * l) - 0.5), j = l - i * (i + 1) / 2;
                      if (!(j >= 0 && j <= i)) bad_exact = l;
                    }
                    long long bad_float = -1;
                    for (long long l = 0; l < (1LL << 26) && bad_float < 0; ++l) {
                      volatile float two_l = 2.0f * float(l);
                      volatile float arg = 0.25f + two_l;
                      volatile float root = std::sqrt(float(arg));
                      const long long i = (long long)std::floor(float(root) - 0.5f);
                      const long long j = l - i * (i + 1) / 2;
                      if (!(j >= 0 && j <= i)) bad_float = l;
                    }
                    std::string ours = "exact arithmetic: " +
                                       (std::isfinite(bad_exact) ? "wrong from λ = " + fmt_int(bad_exact)
                                                                 : "a bijection for every λ < " + fmt_int(lim)) +
                                       "; float: " + (bad_float < 0 ? "right below 2²⁶" : "wrong from λ = " + fmt_int(double(bad_float)));
                    return Outcome{ours, std::isfinite(bad_exact) ? "differs" : "holds",
                                   std::isfinite(bad_exact) ? "the printed formula misplaces a block in exact arithmetic"
                                                            : "eq. (2) is right as printed (unlike eq. (9), claim 000+001-eq9-printed); "
                                                              "float rounding alone limits it (ltm-x's range)",
                                   false};
                  }();
                  return out;
                },
                false);
}
Rule utm_printed() {
  return custom("UTM as printed (000 §IV-B, 001 §III-B), a = ⌊(−(2n+1) + √(4n² − 4n − 8k + 1)) / −2⌋, b = (a + 1) + k − "
                "(a − 1)(2n − a)/2, with n = N (a thread map), in exact arithmetic (double) for every k < n(n−1)/2 and "
                "every n ≤ 256 and n = 4096: holds if it is a bijection onto 1 ≤ a < b ≤ n",
                [](const Claim&, const GpuData*, const Ctx&) {
                  static const Outcome out = [] {
                    std::vector<long long> ns;
                    for (long long n = 2; n <= 256; ++n) ns.push_back(n);
                    ns.push_back(4096);
                    long long wrong_n = -1, checked = 0;
                    for (long long n : ns) {
                      std::vector<char> seen(size_t(n * n), 0);
                      for (long long k = 0; k < n * (n - 1) / 2; ++k) {
                        const double D = 4.0 * n * n - 4.0 * n - 8.0 * k + 1.0;
                        const long long a = (long long)std::floor((-(2.0 * n + 1) + std::sqrt(D)) / -2.0);
                        const long long t = (a - 1) * (2 * n - a);
                        const long long b = (a + 1) + k - t / 2;
                        ++checked;
                        if (t % 2 != 0 || !(1 <= a && a < b && b <= n) || seen[size_t((a - 1) * n + (b - 1))]++) {
                          wrong_n = n;
                          break;
                        }
                      }
                      if (wrong_n >= 0) break;
                    }
                    return Outcome{wrong_n < 0 ? "a bijection onto 1 ≤ a < b ≤ n for every n ≤ 256 and n = 4,096 (" +
                                                     fmt_int(double(checked)) + " k checked)"
                                               : "not a bijection at n = " + fmt_int(double(wrong_n)),
                                   wrong_n < 0 ? "holds" : "differs",
                                   wrong_n < 0 ? "right as printed in exact arithmetic; in float (sqrtf) it is utm-x, exact for "
                                                 "N ≤ the range of claim 000-utm-range"
                                               : "the printed formula fails in exact arithmetic",
                                   false};
                  }();
                  return out;
                },
                false);
}
Rule error_le_one() {
  return custom("ltm-e in verify/results/exact_ranges_cpu.csv: an estimate of the row proven within one of it "
                "(verify/test_index_paths.cpp) fixed by one compare-and-step each way, no branch per thread; holds if "
                "the oracle's search finds no wrong λ",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Table* t = ctx.cpu_exact_table ? &*ctx.cpu_exact_table : nullptr;
                  if (!t) return needs("verify/results/exact_ranges_cpu.csv", "ltm-e rows");
                  for (const Row& r : t->rows())
                    if (r.s("variant") == "ltm-e")
                      return Outcome{"ltm-e: first wrong λ " + r.s("first_wrong") + " (searched λ < " +
                                         fmt_int(r.d("searched_up_to")) + ")",
                                     r.s("first_wrong") == "none" ? "holds" : "differs",
                                     r.s("first_wrong") == "none" ? "an error within one is fixed by the block-level step for every λ searched"
                                                                  : "wrong from λ = " + r.s("first_wrong"),
                                     false};
                  return needs("verify/results/exact_ranges_cpu.csv", "ltm-e rows");
                },
                false);
}

// ---- the first rule with data ------------------------------------------------------------------
Rule first_measured(std::vector<std::pair<std::string, Rule>> alts) {
  Rule r;
  std::vector<std::string> hows;
  for (const auto& [label, a] : alts) hows.push_back(label + ": " + a.how);
  r.how = "the first with rows of {" + join(hows, " | ") + "}";
  r.gpu = alts.front().second.gpu;
  r.fn = [alts](const Claim& c, const GpuData* g, const Ctx& ctx) {
    std::vector<std::string> skipped;
    for (const auto& [label, a] : alts) {
      Outcome o = a.fn(c, g, ctx);
      if (o.verdict != "not measured") {
        o.ours = label + ": " + o.ours;
        if (!skipped.empty()) o.reason += " [" + join(skipped, "; ") + "]";
        return o;
      }
      skipped.push_back(label + " " + o.reason);
    }
    return not_measured(join(skipped, "; "));
  };
  return r;
}

Outcome combine_readings(const std::vector<std::pair<std::string, Outcome>>& outs) {
  std::vector<std::string> ours, reasons, verdicts, unmeasured;
  std::string common;
  bool agree = true, noise = false;
  for (const auto& [label, o] : outs) {
    ours.push_back("[" + label + "] " + o.ours);
    if (o.verdict == "not measured") {
      unmeasured.push_back(label + ": " + o.reason);
      continue;
    }
    reasons.push_back("[" + label + "] " + o.verdict + (o.reason.empty() ? "" : ": " + o.reason));
    verdicts.push_back(label + " " + o.verdict);
    if (common.empty()) common = o.verdict;
    else if (common != o.verdict) agree = false;
    noise = noise || o.noise;
  }
  if (common.empty()) return not_measured(join(unmeasured, "; "));
  Outcome out;
  out.ours = join(ours, "; ");
  out.verdict = agree ? common : "depends on the reading";
  out.reason = (agree ? std::string() : "the readings disagree (" + join(verdicts, "; ") + "). ") + join(reasons, "; ");
  if (!agree) out.split = join(verdicts, "; ");
  if (!unmeasured.empty()) out.reason += "; not measured: " + join(unmeasured, "; ");
  out.noise = noise;
  return out;
}
Rule readings(std::vector<std::pair<std::string, Rule>> alts) {
  Rule r;
  std::vector<std::string> hows;
  for (const auto& [label, a] : alts) hows.push_back("reading \"" + label + "\": " + a.how);
  r.how = "every reading of a condition the paper does not fix, side by side {" + join(hows, " | ") +
          "}; the verdict when every measured reading agrees, else \"depends on the reading\"";
  r.gpu = false;
  for (const auto& [label, a] : alts) r.gpu = r.gpu || a.gpu;
  r.fn = [alts](const Claim& c, const GpuData* g, const Ctx& ctx) {
    std::vector<std::pair<std::string, Outcome>> outs;
    for (const auto& [label, a] : alts) outs.emplace_back(label, a.fn(c, g, ctx));
    return combine_readings(outs);
  };
  return r;
}
Rule fixed_reading(std::pair<std::string, Rule> fixed, std::vector<std::pair<std::string, Rule>> shown) {
  Rule r;
  std::vector<std::string> hows;
  for (const auto& [label, a] : shown) hows.push_back("\"" + label + "\": " + a.how);
  r.how = "judged under the condition the paper fixes, \"" + fixed.first + "\": " + fixed.second.how +
          "; shown beside it, without a vote: " + join(hows, " | ");
  r.gpu = fixed.second.gpu;
  for (const auto& [label, a] : shown) r.gpu = r.gpu || a.gpu;
  r.fn = [fixed, shown](const Claim& c, const GpuData* g, const Ctx& ctx) {
    Outcome o = fixed.second.fn(c, g, ctx);
    o.ours = "[" + fixed.first + ", judged] " + o.ours;
    for (const auto& [label, a] : shown) {
      const Outcome x = a.fn(c, g, ctx);
      o.ours += "; [" + label + ", shown] " + x.ours;
      o.reason += (o.reason.empty() ? "" : "; ") + std::string("under ") + label + " it would be " + x.verdict;
    }
    return o;
  };
  return r;
}

}  // namespace rules
}  // namespace figs
