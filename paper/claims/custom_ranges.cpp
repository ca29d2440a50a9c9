// paper/claims/custom_ranges.cpp — the one-off rules of the claim table (a section of the former
// custom.cpp; custom.hpp declares them): exact ranges in both rounding modes.
#include "custom.hpp"
#include "select.hpp"

#include <tdmaps/counts.hpp>
#include <tdmaps/layout3d.hpp>
#include <tdmaps/numbers.hpp>  // the rounding modes' names (Fused::name)
#include <tdmaps/registry.hpp>
#include "registry/map_names.hpp"  // the host emulation's name of a root (host_suffix)

#include <algorithm>
#include <map>
#include <set>

namespace claims {
namespace rules {

// ---- exact ranges: both rounding modes --------------------------------------------------------
namespace {
// Both tables' rounding column holds a tdmaps rounding's name (numbers.hpp: Pinned::name, Fused::name), as
// their writers spell it (exact_range_gpu and exact_ranges_cpu of layouts.hpp); a row without one is pinned.
bool row_is_fma(const TableRow& r) { return r.has("rounding") && r.s("rounding") == tdmaps::Fused::name; }
}  // namespace
std::optional<RangeVal> exact_N(const Ctx& ctx, const GpuData* g, const std::string& variant, bool fma, bool gpu_only) {
  const std::string col = "largest_exact_N_rho" + std::to_string(int(current_rho()));
  const auto from = [&](const Table* t, const std::string& source) -> std::optional<RangeVal> {
    if (!t || !t->has("variant")) return std::nullopt;
    for (const TableRow& r : t->rows()) {
      const std::string v = r.s("variant");
      double N = NAN;
      if (fma) {
        if (v == variant && row_is_fma(r)) N = r.d(col);
      } else if (v == variant && !row_is_fma(r)) {
        N = r.d(col);
      }
      if (std::isfinite(N)) return RangeVal{N, r.s("first_wrong") == "none", source};
    }
    return std::nullopt;
  };
  if (g)
    if (auto r = from(g->get(results::layout::exact_range_gpu), "GPU")) return r;
  if (gpu_only) return std::nullopt;
  const Table* cpu = ctx.cpu_exact_table ? &*ctx.cpu_exact_table : nullptr;
  if (auto r = from(cpu, "CPU oracle")) return r;
  if (!fma) {
    // the host emulation of a device root, then the oracle's proven constants
    if (cpu && cpu->has("variant"))
      for (const TableRow& r : cpu->rows())
        if (r.s("variant") == variant + tdmaps::host_suffix && std::isfinite(r.d(col)))
          return RangeVal{r.d(col), false, "CPU host emulation"};
    if (variant == tdmaps::UTM_N::name) return RangeVal{double(tdmaps::limits::utm_n_max_N), false, "library constant (CPU oracle)"};
    if (variant == tdmaps::UTM_X::name) return RangeVal{double(tdmaps::limits::utm_x_max_N), false, "library constant (CPU oracle)"};
  }
  return std::nullopt;
}
std::string range_text(const std::optional<RangeVal>& r) {
  return r ? (r->lower_bound ? "≥ " : "") + fmt_int(r->N) + " (" + r->source + ")" : std::string("—");
}
namespace {
std::string both_text(const Ctx& ctx, const GpuData* g, const std::string& v) {
  return v + ": FMA " + range_text(exact_N(ctx, g, v, true, false)) + ", no FMA (the library's pinned rounding) " +
         range_text(exact_N(ctx, g, v, false, false));
}
std::string fma_rows(const std::vector<std::string>& v) {
  return "FMA-contracted rows (rounding " + std::string(tdmaps::Fused::name) + ") of " + join(v, ", ");
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
          return Outcome{join(txt, "; "), kNotMeasured,
                         "not measured yet (needs " + kRangeFiles + ": " + fma_rows(missing) + ")", false};
        return Outcome{join(txt, "; "), bad.empty() ? kHolds : kDiffers,
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
          return Outcome{join(txt, "; "), kNotMeasured,
                         "not measured yet (needs " + kRangeFiles + ": rows of " + join(missing, ", ") + ")", false};
        return Outcome{join(txt, "; "), bad.empty() ? kHolds : kDiffers,
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
// Why UTM's exact range is what it is: the radicand of its root, x = 4n² − 4n − 8k + 1 ≤ 4N² (000 §IV-B), at the
// first wrong N, against the domain Avril et al. state for their root ("accurate for x ∈ [0, 100M]", 000 §II) and
// the N that domain gives (000 converts it to N ≤ 3,000; with x ≤ 4N² it is N = 5,000).
std::string utm_radicand_note(double N) {
  const double m = N + 1, x = 4 * m * m;
  const double avril_N = 5000, paper_N = 3000;  // x ≤ 10⁸ = 4N² at N = 5,000; 000's own conversion
  // the words: paper/notes.template.md, section utm_radicand
  tmpl::Scope v;
  v.set("N", fmt_int(m)).set("x", fmt_g(x, 3)).set("log2_x", fmt(std::log2(x), 1)).set("avril_N", fmt_int(avril_N));
  v.set("past_pct", fmt(100 * (m / avril_N - 1), 0)).set("paper_N", fmt_int(paper_N)).set("paper_x", fmt_g(4 * paper_N * paper_N, 3));
  return note("utm_radicand", v);
}
Rule utm_range_mode(bool fma) {
  return custom(std::string("largest exact N of utm-n (Avril's fast square root with two repairs) in the ") +
                    (fma ? "FMA-contracted mode" : "pinned mode") +
                    "; exact_range_gpu.csv else the CPU oracle; ±20% of the paper's N",
                [fma](const Claim& c, const GpuData* g, const Ctx& ctx) {
                  const auto n = exact_N(ctx, g, tdmaps::UTM_N::name, fma, false);
                  if (!n) return Outcome{"—", kNotMeasured, "not measured yet (needs " + kRangeFiles + ": utm-n rows)", false};
                  Outcome o = judge(c, n->N, "utm-n " + range_text(n));
                  if (o.verdict == kDiffers) add_why(o, utm_radicand_note(n->N));
                  return o;
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
                  const std::string txt = both_text(ctx, g, tdmaps::UTM_N::name) + "; " + both_text(ctx, g, tdmaps::UTM_X::name);
                  const auto n = exact_N(ctx, g, tdmaps::UTM_N::name, true, false);
                  if (!n)
                    return Outcome{txt, kNotMeasured, "not measured yet (needs " + kRangeFiles + ": " + fma_rows({tdmaps::UTM_N::name}) + ")", false};
                  return judge(c, n->N, txt);
                },
                false);
}
Rule utm_arg() {
  return context("Avril's fast square root is accurate for x ∈ [0, 100M] (cited, the root's accuracy domain, not the "
                 "repaired map's range)",
                 [](const Claim&, const GpuData* g, const Ctx& ctx) {
                   const auto n = exact_N(ctx, g, tdmaps::UTM_N::name, false, false);
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
                  const auto l = exact_N(ctx, g, tdmaps::LTM_R::name, true, false), u = exact_N(ctx, g, tdmaps::UTM_N::name, true, false);
                  const auto l0 = exact_N(ctx, g, tdmaps::LTM_R::name, false, false), u0 = exact_N(ctx, g, tdmaps::UTM_N::name, false, false);
                  std::string txt = "no FMA: " + (l0 && u0 ? fmt(l0->N / u0->N, 2) + "× (ltm-r " + fmt_int(l0->N) + " / utm-n " + fmt_int(u0->N) + ")" : "—");
                  if (!l || !u)
                    return Outcome{txt, kNotMeasured, "not measured yet (needs " + kRangeFiles + ": " + fma_rows({tdmaps::LTM_R::name, tdmaps::UTM_N::name}) + ")", false};
                  txt = "FMA: " + fmt(l->N / u->N, 2) + "× (ltm-r " + fmt_int(l->N) + " / utm-n " + fmt_int(u->N) + "); " + txt;
                  Outcome o = judge(c, l->N / u->N, txt);
                  if (o.verdict == kDiffers)
                    add_why(o, "LTM's exact range is a count of blocks (λ < its limit, so N ≤ ρ·n_max) and grows with "
                                "the block side, while UTM's is a count of threads whatever ρ: here ltm-r reaches N = " +
                                fmt_int(l->N) + " at ρ = " + fmt_int(current_rho()) + " (" + fmt_int(l->N / current_rho()) +
                                " block rows) and utm-n N = " + fmt_int(u->N) + ", so the ratio is " + fmt(l->N / u->N, 2) +
                                " at this ρ and doubles with ρ; the paper's 10× divides its tested 30,720 by the cited 3,000 (000 §VI)");
                  return o;
                },
                false);
}

}  // namespace rules
}  // namespace claims
