// paper/claims/custom_audit.cpp — the one-off rules of the claim table (a section of the former
// custom.cpp; custom.hpp declares them): the claims of #24 item 6 and of audit E (statements without a number).
#include "custom.hpp"
#include "select.hpp"

#include <tdmaps/counts.hpp>
#include <tdmaps/layout3d.hpp>
#include <tdmaps/registry.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace claims {
namespace rules {

// ---- #24 item 6: claims added on a second reading of the seeds ---------------------------------
Rule fewer_instructions() {
  return custom("map instructions per thread (SASS, sm_90, 32-bit path, dummy kernel form cond) of each LTM variant "
                "against the UTM variant with the same square root (ltm-x vs utm-x: sqrtf; ltm-r vs utm-n: the fast "
                "root), experiments/results/cpu/map_instructions.csv; the table counts every instruction, not only "
                "floating-point ones (its mufu column: the special-function ones); holds if each LTM count is lower",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Table* t = ctx.cpu.get(results::layout::map_instructions);
                  if (!t) return needs("experiments/results/cpu/map_instructions.csv", "sm_90 2D rows");
                  const auto at = [&](const std::string& m, const char* col) {
                    for (const TableRow& r : t->rows())
                      if (r.s("map") == m && r.s("dim") == "2" && r.s("index_bits") == "32" && r.s("form") == "cond")
                        return r.d(col);
                    return double(NAN);
                  };
                  std::vector<std::string> txt, bad;
                  for (const auto& [l, u] : {std::pair<std::string, std::string>{tdmaps::LTM_X::name, tdmaps::UTM_X::name}, {tdmaps::LTM_R::name, tdmaps::UTM_N::name}}) {
                    const double a = at(l, "map_instructions"), b = at(u, "map_instructions");
                    if (!std::isfinite(a) || !std::isfinite(b)) return needs(results::layout::map_instructions.file, l + " and " + u + " rows");
                    txt.push_back(l + " " + fmt_int(a) + " (mufu " + fmt_int(at(l, "mufu")) + ") vs " + u + " " + fmt_int(b) +
                                  " (mufu " + fmt_int(at(u, "mufu")) + ")");
                    if (!(a < b)) bad.push_back(l + " vs " + u);
                  }
                  return Outcome{join(txt, "; "), bad.empty() ? kHolds : kDiffers,
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
                                 std::isfinite(first) ? kDiffers : kHolds,
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
                  return Outcome{"x / rsqrtf(x): " + txt(first_div) + "; x · rsqrtf(x): " + txt(first_mul), ok ? kHolds : kDiffers,
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
      for (const auto& [N, I] : curve(t, pick_rows::edm(edm_variant::full, f), m)) byN[N].push_back(I);
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
Rule maps_differ_edm(pick_rows::Grid grid) {
  const std::vector<std::string> L = pick_rows::ltm(grid);
  return custom("spread (max − min) of the median over N ≥ " + fmt_int(kLargeN) + " of I of RB, LTM (" + join(L, " else ") + ") "
                "and REC, edm.csv variant=full features=4 ρ=" + fmt_int(current_rho()) +
                "; holds if the spread exceeds the verdict tolerance for I (±" + fmt(kTolI, 2) + ")",
                [L](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, results::layout::edm, &why);
                  if (!t) return not_measured(why);
                  const Sel s = pick_rows::edm(edm_variant::full, 4);
                  std::vector<std::string> txt;
                  double lo = NAN, hi = NAN;
                  for (const auto& cands : std::vector<std::vector<std::string>>{pick_rows::rb(), L, pick_rows::rec()}) {
                    const auto [m, v] = med_large(*t, s, cands);
                    if (m.empty() || !std::isfinite(v)) return needs(results::layout::edm.file, "variant=full, features=4, " + join(cands, " else ") + " rows at N ≥ " + fmt_int(kLargeN));
                    txt.push_back(m + " " + fmt(v, 3));
                    if (!(v >= lo)) lo = v;
                    if (!(v <= hi)) hi = v;
                  }
                  const double d = hi - lo;
                  Outcome o{"spread " + fmt(d, 3) + " (" + join(txt, ", ") + ", median N≥" + fmt_int(kLargeN) + ")",
                            d > kTolI ? kHolds : kDiffers,
                            d > kTolI ? "the maps differ by more than ±" + fmt(kTolI, 2) + " in I"
                                      : "the maps lie within ±" + fmt(kTolI, 2) + " of each other: no difference manifests",
                            false};
                  if (!(d > kTolI)) add_why(o, "reason not measured");
                  return o;
                },
                true);
}
Rule feat_similar(pick_rows::Grid grid) {
  const std::vector<std::string> L = pick_rows::ltm(grid);
  return custom("for RB, LTM (" + join(L, " else ") + ") and REC: the median over N ≥ " + fmt_int(kLargeN) + " of I with 2 and "
                "with 3 features inside [min, max] of the same with 1 and 4 features, widened by ±" + fmt(kTolI, 2) +
                "; edm.csv variant=full ρ=" + fmt_int(current_rho()) + " (UTM has no rows at large N: left out, said so)",
                [L](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, results::layout::edm, &why);
                  if (!t) return not_measured(why);
                  std::vector<std::string> txt, off;
                  for (const auto& cands : std::vector<std::vector<std::string>>{pick_rows::rb(), L, pick_rows::rec()}) {
                    double v[5] = {NAN, NAN, NAN, NAN, NAN};
                    std::string m;
                    for (int f = 1; f <= 4; ++f) {
                      const auto r = med_large(*t, pick_rows::edm(edm_variant::full, f), cands);
                      if (m.empty()) m = r.first;
                      v[f] = r.second;
                    }
                    for (int f = 1; f <= 4; ++f)
                      if (!std::isfinite(v[f])) return needs(results::layout::edm.file, "variant=full, features=" + std::to_string(f) + ", " + join(cands, " else ") + " rows at N ≥ " + fmt_int(kLargeN));
                    const double lo = std::min(v[1], v[4]) - kTolI, hi = std::max(v[1], v[4]) + kTolI;
                    txt.push_back(m + " d=1 " + fmt(v[1], 3) + ", d=2 " + fmt(v[2], 3) + ", d=3 " + fmt(v[3], 3) + ", d=4 " + fmt(v[4], 3));
                    for (int f : {2, 3})
                      if (v[f] < lo || v[f] > hi) off.push_back(m + " d=" + std::to_string(f));
                  }
                  Outcome o{join(txt, "; ") + " (median N≥" + fmt_int(kLargeN) + ")", off.empty() ? kHolds : kDiffers,
                            off.empty() ? "2 and 3 features lie within the range of 1 and 4 features (±" + fmt(kTolI, 2) + ")"
                                        : "outside the range of 1 and 4 features: " + join(off, ", "),
                            false};
                  if (!off.empty()) add_why(o, "reason not measured");
                  return o;
                },
                true);
}
Rule feat_rec() {
  return custom("at the largest N with all four features, max − min over features 1..4 of I of REC, edm.csv variant=full ρ=" +
                    fmt_int(current_rho()) + "; holds if it exceeds the verdict tolerance for I (±" + fmt(kTolI, 2) + ")",
                [](const Claim&, const GpuData* g, const Ctx&) {
                  std::string why;
                  const Table* t = need_table(g, results::layout::edm, &why);
                  if (!t) return not_measured(why);
                  double d = NAN;
                  const auto [m, txt] = feature_swing(*t, pick_rows::rec(), &d);
                  if (m.empty()) return needs(results::layout::edm.file, "variant=full, rec at one N with all four features");
                  Outcome o{m + " ΔI " + fmt(d, 3) + " (" + txt + ")", d > kTolI ? kHolds : kDiffers,
                            d > kTolI ? "the number of features changes REC's I by more than ±" + fmt(kTolI, 2)
                                      : "REC's I changes by no more than ±" + fmt(kTolI, 2) + " over the features",
                            false};
                  if (o.verdict == kDiffers)
                    add_why(o, bound_note(g, results::layout::edm, pick_rows::edm(edm_variant::full, 1), m) + " (1 feature); " +
                                   bound_note(g, results::layout::edm, pick_rows::edm(edm_variant::full, 4), m) + " (4 features)");
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
                                 bad ? kDiffers : kHolds, bad ? "the printed bound fails at some n" : "eq. (5)'s bound holds",
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
                  return Outcome{join(txt, "; "), ok ? kHolds : kDiffers,
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
                    const auto r = exact_N(ctx, g, tdmaps::UTM_N::name, fma, false);
                    txt.push_back(std::string(fma ? "FMA" : "pinned") + ": " + range_text(r));
                    if (r) {
                      any = true;
                      finite = finite || !r->lower_bound;
                    }
                  }
                  if (!any) return needs(kRangeFiles, "utm-n rows");
                  double lastN = NAN;
                  for (bool fma : {false, true})
                    if (const auto r = exact_N(ctx, g, tdmaps::UTM_N::name, fma, false); r && !r->lower_bound) lastN = r->N;
                  Outcome o{"utm-n exact up to " + join(txt, "; "), finite ? kDiffers : kHolds,
                            finite ? "the two conditionals stop fixing the root one N past that range (the sweep's "
                                     "first wrong N)"
                                   : "no failure found in the searched range",
                            false};
                  if (finite && std::isfinite(lastN)) add_why(o, utm_radicand_note(lastN));
                  return o;
                },
                true);
}
Rule tet_eq16_exact() {
  return custom("tet-e (003's eq. (16) with an exact layer: estimate within one + one compare-and-step each way) in "
                "verify/results/exact_ranges_cpu.csv: the first wrong λ of the oracle's search",
                [](const Claim&, const GpuData*, const Ctx& ctx) {
                  const Table* t = ctx.cpu_exact_table ? &*ctx.cpu_exact_table : nullptr;
                  if (!t) return needs("verify/results/exact_ranges_cpu.csv", "tet-e rows");
                  for (const TableRow& r : t->rows())
                    if (r.s("variant") == tdmaps::TET_E::name)
                      return Outcome{"first wrong λ: " + r.s("first_wrong") + " (searched λ < " + fmt_int(r.d("searched_up_to")) + ")",
                                     r.s("first_wrong") == "none" ? kHolds : kDiffers,
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
                    return Outcome{ours, std::isfinite(bad_exact) ? kDiffers : kHolds,
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
                                   wrong_n < 0 ? kHolds : kDiffers,
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
                  for (const TableRow& r : t->rows())
                    if (r.s("variant") == tdmaps::LTM_E::name)
                      return Outcome{"ltm-e: first wrong λ " + r.s("first_wrong") + " (searched λ < " +
                                         fmt_int(r.d("searched_up_to")) + ")",
                                     r.s("first_wrong") == "none" ? kHolds : kDiffers,
                                     r.s("first_wrong") == "none" ? "an error within one is fixed by the block-level step for every λ searched"
                                                                  : "wrong from λ = " + r.s("first_wrong"),
                                     false};
                  return needs("verify/results/exact_ranges_cpu.csv", "ltm-e rows");
                },
                false);
}

}  // namespace rules
}  // namespace claims
