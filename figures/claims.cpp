// figures/claims.cpp — the rule of every claim id of paper/reported.csv.
//
// A rule computes OUR value from the CSVs (or from the map library / CPU oracle)
// and compares it with the paper's value by the verdict rule of its unit:
//   I, ratio, ΔI   |ours − paper| ≤ kTolI                       -> holds
//   %              |ours − paper| ≤ kTolPct (percentage points)  -> holds
//   x, ms, N       |ours − paper| ≤ kTolRel · |paper|            -> holds
//   ranges a-b     inside [a − tol(a), b + tol(b)]               -> holds
//   bounds <, <=, >, >=   the inequality                        -> holds
// otherwise "differs", with the distance in words. A rule may state another
// comparison (e.g. "at least": exact ranges); its text says so.
#include "claims.hpp"

#include <tdmaps/registry.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>

namespace figs {
namespace {

const double kInf = std::numeric_limits<double>::infinity();
// The SDH setup of 004 (Results): 10,000 points, bucket width 500, 256 threads per block.
constexpr double kSdhN = 10000, kSdhBucket = 500, kSdhTpb = 256;

std::string pct(double v) { return fmt(v, std::fabs(v) < 1 ? 3 : 1); }
std::string vfmt(const std::string& unit, double v) {
  if (unit == "%") return pct(v) + "%";
  if (unit == "I" || unit == "ratio" || unit == "ΔI") return fmt(v, 3);
  if (unit == "N" || unit == "blocks" || unit == "threads" || unit == "launches" || unit == "rank")
    return fmt_int(v);
  if (unit == "ms") return fmt_g(v, 3) + " ms";
  if (unit == "x") return fmt_g(v, 3) + "×";
  return fmt_g(v, 4);
}

struct Tol {
  double t;
  bool rel;
};
Tol tol_of(const std::string& unit) {
  if (unit == "%") return {kTolPct, false};
  if (unit == "I" || unit == "ratio" || unit == "ΔI") return {kTolI, false};
  return {kTolRel, true};
}
std::string tol_text(const std::string& unit, Tol t) {
  if (t.rel) return "±" + fmt(100 * t.t, 0) + "%";
  if (unit == "%") return "±" + pct(t.t) + " points";
  return "±" + vfmt(unit, t.t);
}

Outcome not_measured(const std::string& why) { return {"—", "not measured", why}; }

// The verdict of a numeric claim. cmp overrides the paper value's comparison
// (e.g. ">=" for "exact at least up to"); tol overrides the unit's tolerance.
Outcome judge(const Claim& c, double ours, const std::string& ours_text, std::string cmp = "",
              std::optional<Tol> tol = std::nullopt) {
  if (!std::isfinite(ours)) return not_measured("no value could be computed");
  const PaperValue& p = c.pv;
  if (!p.numeric()) return {ours_text, "context", "the paper's value is not a number"};
  if (cmp.empty()) cmp = p.cmp;
  const Tol t = tol ? *tol : tol_of(c.unit);
  const auto T = [&](double ref) { return t.rel ? t.t * std::fabs(ref) : t.t; };
  const auto F = [&](double v) { return vfmt(c.unit, v); };
  Outcome o{ours_text, "", ""};
  if (cmp == "=") {
    const double d = ours - p.lo;
    if (std::fabs(d) <= T(p.lo)) {
      o.verdict = "holds";
      o.reason = "within " + tol_text(c.unit, t) + " of " + F(p.lo);
    } else if (t.rel && p.lo != 0) {
      o.verdict = "differs";
      const double r = ours / p.lo;
      if (r >= 2) o.reason = "ours is " + fmt_g(r, 3) + " times " + F(p.lo);
      else if (r > 0 && r <= 0.5) o.reason = "ours is 1/" + fmt_g(1 / r, 3) + " of " + F(p.lo);
      else o.reason = "ours is " + fmt(100 * std::fabs(d) / std::fabs(p.lo), 0) + "% " + (d > 0 ? "above " : "below ") + F(p.lo);
      o.reason += " (tolerance " + tol_text(c.unit, t) + ")";
    } else {
      o.verdict = "differs";
      o.reason = "ours is " + (c.unit == "%" ? pct(std::fabs(d)) + " points" : F(std::fabs(d))) +
                 (d > 0 ? " above " : " below ") + F(p.lo) + " (tolerance " + tol_text(c.unit, t) + ")";
    }
  } else if (cmp == "range") {
    const double lo = p.lo - T(p.lo), hi = p.hi + T(p.hi);
    o.verdict = (ours >= lo && ours <= hi) ? "holds" : "differs";
    o.reason = std::string(o.verdict == "holds" ? "inside " : "outside ") + "[" + F(p.lo) + ", " + F(p.hi) +
               "] widened by " + tol_text(c.unit, t);
  } else {
    bool ok = false;
    if (cmp == "<") ok = ours < p.lo;
    else if (cmp == "<=") ok = ours <= p.lo;
    else if (cmp == ">") ok = ours > p.lo;
    else if (cmp == ">=") ok = ours >= p.lo;
    o.verdict = ok ? "holds" : "differs";
    const std::string sym = cmp == "<=" ? "≤" : cmp == ">=" ? "≥" : cmp;
    o.reason = "ours " + F(ours) + (ok ? " is " : " is not ") + sym + " " + F(p.lo);
  }
  return o;
}

// ---- data access ------------------------------------------------------------------------
const Table* need(const GpuData* g, const std::string& file, std::string* why) {
  if (!g) {
    *why = "no GPU results";
    return nullptr;
  }
  const Table* t = g->get(file);
  if (!t) *why = g->reason(file);
  return t;
}

enum class St { MedLarge, Max, Last, MeanAll, MedAll, First };
double stat(const Pts& all, St s, double xmax = kInf) {
  Pts p;
  for (const auto& q : all)
    if (q.first <= xmax) p.push_back(q);
  switch (s) {
    case St::MedLarge: return med_from(p, kLargeN);
    case St::Max: return max_pt(p).second;
    case St::Last: return last_pt(p).second;
    case St::MeanAll: return mean(ys(p));
    case St::MedAll: return median(ys(p));
    case St::First: return p.empty() ? NAN : p.front().second;
  }
  return NAN;
}
std::string stat_text(St s, double xmax = kInf) {
  std::string t;
  switch (s) {
    case St::MedLarge: t = "median over N ≥ " + fmt_int(kLargeN); break;
    case St::Max: t = "maximum over N"; break;
    case St::Last: t = "value at the largest N"; break;
    case St::MeanAll: t = "mean over all N"; break;
    case St::MedAll: t = "median over all N"; break;
    case St::First: t = "value at the smallest N"; break;
  }
  if (std::isfinite(xmax)) t += " ≤ " + fmt_int(xmax);
  return t;
}
std::string stat_short(St s) {
  switch (s) {
    case St::MedLarge: return "median N≥" + fmt_int(kLargeN);
    case St::Max: return "max";
    case St::Last: return "at largest N";
    case St::MeanAll: return "mean";
    case St::MedAll: return "median";
    case St::First: return "at smallest N";
  }
  return "";
}

const std::vector<std::string> kLTM = {"ltm-r", "ltm-e", "ltm-x", "ltm-n", "ltm-d"};
const std::vector<std::string> kUTM = {"utm-n", "utm-x"};

// The first candidate map whose statistic exists; "" if none.
std::string pick(const Table& t, const Sel& s, const std::vector<std::string>& cands, St st, double xmax = kInf) {
  for (const std::string& m : cands)
    if (std::isfinite(stat(curve(t, s, m), st, xmax))) return m;
  return "";
}

std::string sel_text(const std::string& file, const Sel& s) {
  std::string t = file;
  for (const auto& [k, v] : s.eq) t += ", " + k + "=" + v;
  if (std::isfinite(s.rho)) t += ", ρ=" + fmt_int(s.rho);
  if (!s.exact_only) t += ", inexact rows included";
  return t;
}
std::string cands_text(const std::vector<std::string>& c) { return join(c, " else "); }

// I of a claim from one statistic of one map (the first candidate with data).
double to_unit(const std::string& unit, double I) { return unit == "%" ? 100.0 * (I - 1.0) : I; }

using Fn = std::function<Outcome(const Claim&, const GpuData*, const Ctx&)>;
struct Rule {
  std::string how;
  Fn fn;
  bool gpu = true;
};

Rule i_rule(const std::string& file, Sel sel, std::vector<std::string> cands, St st, double xmax = kInf) {
  Rule r;
  r.how = stat_text(st, xmax) + " of I, " + sel_text(file, sel) + "; map " + cands_text(cands) +
          " (the first with data)";
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need(g, file, &why);
    if (!t) return not_measured(why);
    const std::string m = pick(*t, sel, cands, st, xmax);
    if (m.empty()) return not_measured("no rows of " + cands_text(cands) + " in " + sel_text(file, sel));
    const double v = to_unit(c.unit, stat(curve(*t, sel, m), st, xmax));
    return judge(c, v, vfmt(c.unit, v) + " (" + m + ", " + stat_short(st) + ")");
  };
  return r;
}

// Several selections of one statistic (e.g. 1 and 4 features); holds if each holds.
Rule i_multi(const std::string& file, std::vector<std::pair<std::string, Sel>> sels, std::vector<std::string> cands,
             St st) {
  Rule r;
  std::vector<std::string> parts;
  for (const auto& [label, s] : sels) parts.push_back(label + ": " + sel_text(file, s));
  r.how = stat_text(st) + " of I, each of {" + join(parts, "; ") + "}; map " + cands_text(cands) +
          "; holds if every one holds";
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need(g, file, &why);
    if (!t) return not_measured(why);
    std::vector<std::string> txt, reasons;
    bool all = true, any = false;
    for (const auto& [label, s] : sels) {
      const std::string m = pick(*t, s, cands, st);
      if (m.empty()) {
        txt.push_back(label + ": —");
        all = false;
        continue;
      }
      const double v = to_unit(c.unit, stat(curve(*t, s, m), st));
      const Outcome o = judge(c, v, "");
      any = true;
      all = all && o.verdict == "holds";
      txt.push_back(label + ": " + vfmt(c.unit, v) + " (" + m + ")");
      reasons.push_back(label + " " + o.reason);
    }
    if (!any) return not_measured("no rows of " + cands_text(cands));
    return Outcome{join(txt, "; ") + " [" + stat_short(st) + "]", all ? "holds" : "differs", join(reasons, "; ")};
  };
  return r;
}

// Every listed strategy has the statistic of I below 1.
Rule below_one(const std::string& file, Sel sel, std::vector<std::vector<std::string>> strategies, St st) {
  Rule r;
  std::vector<std::string> names;
  for (const auto& s : strategies) names.push_back(cands_text(s));
  r.how = stat_text(st) + " of I for each of {" + join(names, "; ") + "}, " + sel_text(file, sel) +
          "; holds if every one is < 1";
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need(g, file, &why);
    if (!t) return not_measured(why);
    std::vector<std::string> txt;
    bool all = true, any = false;
    for (const auto& cands : strategies) {
      const std::string m = pick(*t, sel, cands, st);
      if (m.empty()) continue;
      const double v = stat(curve(*t, sel, m), st);
      any = true;
      all = all && v < 1;
      txt.push_back(m + " " + fmt(v, 3));
    }
    if (!any) return not_measured("none of the maps has rows in " + sel_text(file, sel));
    (void)c;
    return Outcome{join(txt, ", ") + " [" + stat_short(st) + "]", all ? "holds" : "differs",
                   all ? "every one is below 1" : "at least one is ≥ 1"};
  };
  return r;
}

// The strategies of the papers' comparisons: RB, LTM, REC, UTM (one variant each).
struct Ranked {
  std::vector<std::pair<std::string, double>> order;  // best first
};
Ranked rank_maps(const Table& t, const Sel& s, bool with_utm, bool common) {
  std::vector<std::vector<std::string>> strat = {{"rb"}, kLTM, {"rec"}};
  if (with_utm) strat.push_back(kUTM);
  std::vector<std::pair<std::string, Pts>> curves;
  for (const auto& cands : strat) {
    const std::string m = pick(t, s, cands, common ? St::MedAll : St::MedLarge);
    if (!m.empty()) curves.emplace_back(m, curve(t, s, m));
  }
  Ranked r;
  if (common) {
    std::set<double> xs;
    bool first = true;
    for (const auto& [m, p] : curves) {
      std::set<double> here;
      for (const auto& q : p) here.insert(q.first);
      if (first) xs = here;
      else {
        std::set<double> both;
        std::set_intersection(xs.begin(), xs.end(), here.begin(), here.end(), std::inserter(both, both.begin()));
        xs = both;
      }
      first = false;
    }
    for (const auto& [m, p] : curves) {
      std::vector<double> v;
      for (const auto& q : p)
        if (xs.count(q.first)) v.push_back(q.second);
      r.order.emplace_back(m, median(v));
    }
  } else {
    for (const auto& [m, p] : curves) r.order.emplace_back(m, med_from(p, kLargeN));
  }
  r.order.erase(std::remove_if(r.order.begin(), r.order.end(), [](const auto& e) { return !std::isfinite(e.second); }),
                r.order.end());
  std::sort(r.order.begin(), r.order.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return r;
}
bool is_of(const std::string& m, const std::string& which) {
  if (which == "ltm") return m.rfind("ltm-", 0) == 0;
  if (which == "utm") return m.rfind("utm-", 0) == 0;
  return m == which;
}
Rule rank_rule(const std::string& file, Sel sel, const std::string& which, bool with_utm, bool common) {
  Rule r;
  r.how = std::string("rank by ") + (common ? "median I over the N every strategy has" : stat_text(St::MedLarge) + " of I") +
          " among RB, LTM (" + cands_text(kLTM) + "), REC" + (with_utm ? ", UTM (" + cands_text(kUTM) + ")" : "") +
          "; " + sel_text(file, sel) + (with_utm ? " (UTM: inexact rows included)" : "");
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need(g, file, &why);
    if (!t) return not_measured(why);
    Sel s = sel;
    if (with_utm) s.exact_only = false;
    const Ranked rk = rank_maps(*t, s, with_utm, common);
    int pos = 0;
    std::vector<std::string> txt;
    for (size_t k = 0; k < rk.order.size(); ++k) {
      txt.push_back(rk.order[k].first + " " + fmt(rk.order[k].second, 3));
      if (is_of(rk.order[k].first, which)) pos = int(k) + 1;
    }
    if (pos == 0) return not_measured("no rows of " + which);
    const std::string ours = "rank " + std::to_string(pos) + " of " + std::to_string(rk.order.size()) + " (" +
                             join(txt, " > ") + ")";
    if (c.value == "last") {
      const bool ok = pos == int(rk.order.size());
      return Outcome{ours, ok ? "holds" : "differs", ok ? "last, as stated" : "not last"};
    }
    const bool ok = c.pv.numeric() && pos == int(c.pv.lo);
    return Outcome{ours, ok ? "holds" : "differs",
                   ok ? "rank " + std::to_string(pos) + ", as stated" : "the paper has rank " + c.value};
  };
  return r;
}

// ---- exact ranges --------------------------------------------------------------------------
struct Range {
  double N = NAN;
  bool lower_bound = false;  // nothing failed below searched_up_to
  std::string source;
};
std::optional<Range> range_from(const Table* t, const std::string& variant, const std::string& col,
                                const std::string& source) {
  if (!t || !t->has("variant") || !t->has(col)) return std::nullopt;
  for (const Row& r : t->rows())
    if (r.s("variant") == variant && std::isfinite(r.d(col))) {
      Range g;
      g.N = r.d(col);
      g.lower_bound = r.s("first_wrong") == "none";
      g.source = source;
      return g;
    }
  return std::nullopt;
}
// GPU table first (the device's own rounding), then the CPU oracle's table, then
// (UTM only) the library constant the oracle proved.
std::optional<Range> exact_N(const Ctx& ctx, const GpuData* g, const std::string& variant, bool gpu_only) {
  const std::string col = "largest_exact_N_rho" + std::to_string(kRho);
  if (g) {
    for (const char* f : {"exact_range_gpu.csv", "tet_exact_range_gpu.csv"})
      if (auto r = range_from(g->get(f), variant, col, "GPU")) return r;
  }
  if (gpu_only) return std::nullopt;
  const Table* cpu = ctx.cpu_exact_table ? &*ctx.cpu_exact_table : nullptr;
  if (auto r = range_from(cpu, variant, col, "CPU oracle")) return r;
  if (auto r = range_from(cpu, variant + "-host", col, "CPU host emulation")) return r;
  if (variant == "utm-n") return Range{double(tdmaps::limits::utm_n_max_N), false, "library constant (CPU oracle)"};
  if (variant == "utm-x") return Range{double(tdmaps::limits::utm_x_max_N), false, "library constant (CPU oracle)"};
  return std::nullopt;
}
std::string range_text(const Range& r) {
  return (r.lower_bound ? "≥ " : "") + fmt_int(r.N) + " (" + r.source + ")";
}

Rule range_rule(std::vector<std::string> variants) {
  Rule r;
  r.how = "largest exact N at ρ=" + std::to_string(kRho) + " of " + join(variants, " and ") +
          ": exact_range_gpu.csv (device rounding) else verify/results/exact_ranges_cpu.csv; holds if every one "
          "is ≥ the paper's N";
  r.gpu = false;
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx& ctx) {
    std::vector<std::string> txt, bad;
    bool any = false, provisional = false;
    for (const std::string& v : variants) {
      const auto rg = exact_N(ctx, g, v, false);
      if (!rg) {
        txt.push_back(v + " —");
        continue;
      }
      any = true;
      provisional = provisional || rg->source == "CPU host emulation";
      txt.push_back(v + " " + range_text(*rg));
      if (!(rg->N >= c.pv.lo)) bad.push_back(v);
    }
    if (!any) return not_measured("no exact-range table has " + join(variants, ", "));
    Outcome o{join(txt, "; "), bad.empty() ? "holds" : "differs",
              bad.empty() ? "every variant is exact at least up to " + fmt_int(c.pv.lo)
                          : join(bad, ", ") + " stop(s) being exact below " + fmt_int(c.pv.lo)};
    if (provisional) o.reason += " (host emulation stands in for the device's rsqrtf until the GPU table exists)";
    return o;
  };
  return r;
}

// ---- SDH -------------------------------------------------------------------------------------
double sdh_time(const Row& r) {
  const double w = r.d("with_transfers_ms");
  return std::isfinite(w) ? w : r.d("median_ms");
}
// The row of each ladder slot at N (preferring the paper's bucket width and block size).
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
  return what + "; sdh.csv rows at N=" + fmt_int(kSdhN) + " (bucket_width " + fmt_int(kSdhBucket) +
         " and threads_per_block " + fmt_int(kSdhTpb) +
         " preferred), implementations matched to the paper's versions by name (cpu, v1..v5); time = "
         "with_transfers_ms where given (the paper includes transfers), else median_ms";
}
Rule sdh_time_rule(const std::string& slot) {
  Rule r;
  r.how = sdh_how("time of " + slot);
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need(g, "sdh.csv", &why);
    if (!t) return not_measured(why);
    const auto lad = sdh_ladder(*t, kSdhN);
    const auto it = lad.find(slot);
    if (it == lad.end()) return not_measured("no implementation of sdh.csv matches " + slot + " at N=" + fmt_int(kSdhN));
    const double v = sdh_time(it->second);
    return judge(c, v, vfmt("ms", v) + " (" + it->second.s("impl") + ")");
  };
  return r;
}
Rule sdh_ratio_rule(const std::string& num, const std::string& den, std::optional<Tol> tol = std::nullopt) {
  Rule r;
  r.how = sdh_how("time(" + num + ") / time(" + den + ")");
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need(g, "sdh.csv", &why);
    if (!t) return not_measured(why);
    const auto lad = sdh_ladder(*t, kSdhN);
    if (!lad.count(num) || !lad.count(den)) return not_measured("sdh.csv lacks " + num + " or " + den + " at N=" + fmt_int(kSdhN));
    const double v = sdh_time(lad.at(num)) / sdh_time(lad.at(den));
    return judge(c, v, vfmt("x", v) + " (" + lad.at(num).s("impl") + " / " + lad.at(den).s("impl") + ")", "", tol);
  };
  return r;
}

// ---- the rules ---------------------------------------------------------------------------------
Sel sel_eq(std::map<std::string, std::string> eq, bool exact_only = true) {
  Sel s;
  s.eq = std::move(eq);
  s.exact_only = exact_only;
  return s;
}

std::map<std::string, Rule> make_rules() {
  std::map<std::string, Rule> R;
  const Sel sqrt_store = sel_eq({{"form", "store"}});
  const Sel dummy = sel_eq({{"form", "store"}});
  const Sel dummy_all = sel_eq({{"form", "store"}}, false);
  const Sel edm4 = sel_eq({{"variant", "full"}, {"features", "4"}});
  const Sel edm1 = sel_eq({{"variant", "full"}, {"features", "1"}});
  const Sel edm4_all = sel_eq({{"variant", "full"}, {"features", "4"}}, false);
  const Sel col3 = sel_eq({{"variant", "3d"}});
  const Sel col3_all = sel_eq({{"variant", "3d"}}, false);
  const Sel col1 = sel_eq({{"variant", "1d"}});

  // ---- bounds and hypothesis: every LTM variant in the 2D data ---------------------------
  const auto bound_rule = [&](bool hypothesis) {
    Rule r;
    r.how = hypothesis ? "median over N ≥ " + fmt_int(kLargeN) +
                             " of I of the best LTM variant, dummy.csv (form=store, ρ=16) else sqrt.csv"
                       : "largest I of any LTM variant in any row of sqrt.csv, dummy.csv, edm.csv, collision.csv";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      if (!g) return not_measured("no GPU results");
      if (!hypothesis) {
        double best = NAN;
        std::string where;
        for (const char* f : {"sqrt.csv", "dummy.csv", "edm.csv", "collision.csv"}) {
          const Table* t = g->get(f);
          if (!t) continue;
          for (const Row& row : t->rows()) {
            if (row.s("map").rfind("ltm-", 0) != 0) continue;
            const double i = row_I(row);
            if (std::isfinite(i) && !(i <= best)) {
              best = i;
              where = std::string(f) + " " + row.s("map") + " N=" + row.s("N");
            }
          }
        }
        if (!std::isfinite(best)) return not_measured("no LTM rows");
        return judge(c, best, fmt(best, 3) + " (max; " + where + ")");
      }
      for (const char* f : {"dummy.csv", "sqrt.csv"}) {
        const Table* t = g->get(f);
        if (!t) continue;
        double best = NAN;
        std::string bm;
        for (const std::string& m : kLTM) {
          const double v = med_from(curve(*t, sqrt_store, m), kLargeN);
          if (std::isfinite(v) && !(v <= best)) { best = v; bm = m; }
        }
        if (std::isfinite(best)) return judge(c, best, fmt(best, 3) + " (" + bm + ", " + f + ")");
      }
      return not_measured("neither dummy.csv nor sqrt.csv has LTM rows at N ≥ " + fmt_int(kLargeN));
    };
    return r;
  };
  R["000-bound-I"] = bound_rule(false);
  R["001-bound-I"] = bound_rule(false);
  R["000-hyp-I"] = bound_rule(true);
  R["001-hyp-I"] = bound_rule(true);

  // ---- wasted blocks from the map library -----------------------------------------------------
  {
    Rule r;
    r.gpu = false;
    r.how = "counts2<BB> of the map library at N = 1,024…30,720 (step 1,024), ρ=16: wasted == n(n−1)/2 at every N?";
    r.fn = [](const Claim&, const GpuData*, const Ctx& ctx) {
      const Wasted2& w = ctx.wasted2();
      size_t ok = 0;
      for (size_t k = 0; k < w.N.size(); ++k) ok += w.wasted.at("bb")[k] == w.n[k] * (w.n[k] - 1) / 2;
      const std::string ours = "n(n−1)/2 at " + std::to_string(ok) + " of " + std::to_string(w.N.size()) +
                               " N (N=" + fmt_int(w.N.back()) + ": " + fmt_int(w.wasted.at("bb").back()) + ")";
      return Outcome{ours, ok == w.N.size() ? "holds" : "differs",
                     ok == w.N.size() ? "the library's BB wastes exactly n(n−1)/2 blocks" : "some N differ"};
    };
    R["000-wasted-bb"] = r;
    R["001-wasted-bb"] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "balanced grid n' = ceil(sqrt(n(n+1)/2)) of §III-A: wasted = n'² − n(n+1)/2 over N = 1,024…30,720, ρ=16 "
            "(holds if ≤ n/2 at every N); the library's LTM (linear grid, counts2<LTM_E>) shown beside";
    r.fn = [](const Claim&, const GpuData*, const Ctx& ctx) {
      const Wasted2& w = ctx.wasted2();
      double worst = 0, worstN = 0, lib = 0;
      size_t over = 0;
      std::vector<double> rel;
      for (size_t k = 0; k < w.N.size(); ++k) {
        const double q = w.balanced[k] / w.n[k];
        rel.push_back(q);
        if (q > worst) { worst = q; worstN = w.N[k]; }
        over += w.balanced[k] > w.n[k] / 2;
        lib = std::max(lib, w.wasted.at("ltm-e")[k]);
      }
      const std::string ours = "balanced grid: up to " + fmt(worst, 2) + "·n (N=" + fmt_int(worstN) + "), mean " +
                               fmt(mean(rel), 2) + "·n; library linear grid: " + fmt_int(lib);
      return Outcome{ours, over == 0 ? "holds" : "differs",
                     over == 0 ? "≤ n/2 at every N"
                               : "the balanced grid wastes more than n/2 blocks at " + std::to_string(over) + " of " +
                                     std::to_string(w.N.size()) + " N (still O(n): < 2n'); the library's linear grid wastes none"};
    };
    R["000-wasted-ltm"] = r;
    R["001-wasted-ltm"] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "counts2<RB> over N = 1,024…30,720, ρ=16: holds if the wasted blocks do not grow with N (max over the upper "
            "half of the sweep ≤ max over the lower half)";
    r.fn = [](const Claim&, const GpuData*, const Ctx& ctx) {
      const Wasted2& w = ctx.wasted2();
      const auto& v = w.wasted.at("rb");
      double lo = 0, hi = 0;
      for (size_t k = 0; k < v.size(); ++k) (k < v.size() / 2 ? lo : hi) = std::max(k < v.size() / 2 ? lo : hi, v[k]);
      return Outcome{"max " + fmt_int(std::max(lo, hi)) + " blocks (lower half " + fmt_int(lo) + ", upper half " +
                         fmt_int(hi) + ")",
                     hi <= lo ? "holds" : "differs", hi <= lo ? "constant in N" : "grows with N"};
    };
    R["000-rb-wasted"] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "REC::plan(N, 16) of the map library for every valid N of 1,024…30,720: passes == k + 1?";
    r.fn = [](const Claim&, const GpuData*, const Ctx& ctx) {
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
                     ok == valid && valid ? "holds" : "differs", "from the library's plan"};
    };
    R["000-rec-passes"] = r;
  }
  // ---- hardware context and the N ≥ 800 remark -------------------------------------------------
  for (const char* id : {"000-sblocks-680", "000-sblocks-765m", "000-sblocks-k40", "004-gpu-cores"}) {
    Rule r;
    r.how = "hardware of the paper (context); ours: the SM count of our GPU from the CSV metadata";
    r.fn = [](const Claim&, const GpuData* g, const Ctx&) {
      if (!g) return Outcome{"—", "context", "hardware of the paper, not a result"};
      const std::string sm = g->meta("sm_count");
      return Outcome{g->name() + (sm.empty() ? "" : ": " + sm + " SMs"), "context", "hardware of the paper, not a result"};
    };
    R[id] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "smallest N whose LTM grid (LTM_E::plan(N, 16).total = n(n+1)/2 blocks) exceeds twice the largest sblocks "
            "of Table I (rows 000-sblocks-*); holds if ≤ 800";
    r.fn = [](const Claim& c, const GpuData* g, const Ctx& ctx) {
      double sb = NAN;
      for (const char* id : {"000-sblocks-680", "000-sblocks-765m", "000-sblocks-k40"})
        if (const Claim* s = ctx.claim(id))
          if (s->pv.numeric() && !(s->pv.lo <= sb)) sb = s->pv.lo;
      if (!std::isfinite(sb)) return not_measured("Table I rows missing from reported.csv");
      long long N = 1;
      while (double(tdmaps::LTM_E::plan(N, kRho).total) <= 2 * sb) ++N;
      std::string ours = fmt_int(double(N)) + " (" + fmt_int(double(tdmaps::LTM_E::plan(N, kRho).total)) + " blocks > 2×" +
                         fmt_int(sb) + ")";
      if (g && !g->meta("sm_count").empty())
        ours += "; at N=800 our " + g->name() + " gets " +
                fmt(double(tdmaps::LTM_E::plan(800, kRho).total) / to_num(g->meta("sm_count")), 1) + " blocks per SM";
      return judge(c, double(N), ours, "<=");
    };
    R["000-n800"] = r;
  }

  // ---- square roots (Fig. 3) -------------------------------------------------------------------
  R["000-sqrt-ltmx-680"] = i_rule("sqrt.csv", sqrt_store, {"ltm-x"}, St::MedLarge);
  R["000-sqrt-ltmx-765m"] = i_rule("sqrt.csv", sqrt_store, {"ltm-x"}, St::MedLarge);
  R["000-sqrt-ltmn-680"] = i_rule("sqrt.csv", sqrt_store, {"ltm-n"}, St::MedLarge);
  R["000-sqrt-ltmn-765m"] = i_rule("sqrt.csv", sqrt_store, {"ltm-n"}, St::MedLarge);
  R["000-sqrt-ltmr-680"] = i_rule("sqrt.csv", sqrt_store, {"ltm-r"}, St::MedLarge);
  R["000-sqrt-ltmr-765m"] = i_rule("sqrt.csv", sqrt_store, {"ltm-r"}, St::MedLarge);
  R["001-sqrt-ltmx"] = i_rule("sqrt.csv", sqrt_store, {"ltm-x"}, St::MedLarge);
  R["001-sqrt-ltmn"] = i_rule("sqrt.csv", sqrt_store, {"ltm-n"}, St::MedLarge);
  R["001-sqrt-ltmr"] = i_rule("sqrt.csv", sqrt_store, {"ltm-r"}, St::MedLarge);
  R["001-avg-115"] = i_rule("sqrt.csv", sqrt_store, {"ltm-r"}, St::MeanAll);
  {
    Rule r;
    r.how = stat_text(St::MedLarge) + " of I of each of ltm-x, ltm-n, ltm-r, sqrt.csv form=store ρ=16; holds if all "
            "three are within the tolerance";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "sqrt.csv", &why);
      if (!t) return not_measured(why);
      std::vector<std::string> txt;
      bool all = true, any = false;
      for (const char* m : {"ltm-x", "ltm-n", "ltm-r"}) {
        const double v = med_from(curve(*t, sqrt_store, m), kLargeN);
        if (!std::isfinite(v)) continue;
        any = true;
        all = all && judge(c, v, "").verdict == "holds";
        txt.push_back(std::string(m) + " " + fmt(v, 3));
      }
      if (!any) return not_measured("no LTM rows in sqrt.csv");
      return Outcome{join(txt, ", ") + " [" + stat_short(St::MedLarge) + "]", all ? "holds" : "differs",
                     all ? "all within ±" + fmt(kTolI, 2) + " of " + fmt(c.pv.lo, 3)
                         : "not all within ±" + fmt(kTolI, 2) + " of " + fmt(c.pv.lo, 3)};
    };
    R["000-sqrt-k40"] = r;
  }
  {
    Rule r;
    r.how = "ratio of the " + stat_text(St::MedLarge) + " of I, ltm-x / ltm-r, sqrt.csv form=store ρ=16";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "sqrt.csv", &why);
      if (!t) return not_measured(why);
      const double x = med_from(curve(*t, sqrt_store, "ltm-x"), kLargeN),
                   rr = med_from(curve(*t, sqrt_store, "ltm-r"), kLargeN);
      return judge(c, x / rr, fmt(x / rr, 3) + " (ltm-x " + fmt(x, 3) + " / ltm-r " + fmt(rr, 3) + ")");
    };
    R["000-k40-sqrtf"] = r;
  }
  {
    Rule r;
    r.how = "rank of ltm-r among ltm-x, ltm-n, ltm-r by the " + stat_text(St::MedLarge) + " of I, sqrt.csv form=store ρ=16";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "sqrt.csv", &why);
      if (!t) return not_measured(why);
      std::vector<std::pair<std::string, double>> v;
      for (const char* m : {"ltm-x", "ltm-n", "ltm-r"}) {
        const double i = med_from(curve(*t, sqrt_store, m), kLargeN);
        if (std::isfinite(i)) v.emplace_back(m, i);
      }
      std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
      int pos = 0;
      std::vector<std::string> txt;
      for (size_t k = 0; k < v.size(); ++k) {
        txt.push_back(v[k].first + " " + fmt(v[k].second, 3));
        if (v[k].first == "ltm-r") pos = int(k) + 1;
      }
      if (!pos) return not_measured("no ltm-r rows in sqrt.csv");
      const bool ok = c.pv.numeric() && pos == int(c.pv.lo);
      return Outcome{"rank " + std::to_string(pos) + " (" + join(txt, " > ") + ")", ok ? "holds" : "differs",
                     ok ? "rank " + std::to_string(pos) + ", as stated" : "the paper has rank " + c.value};
    };
    R["000-rsqrt-best"] = r;
  }

  // ---- exact ranges --------------------------------------------------------------------------
  R["000-eps-range"] = range_rule({"ltm-n", "ltm-r"});
  R["001-eps-ltmn"] = range_rule({"ltm-n"});
  R["001-eps-ltmr"] = range_rule({"ltm-r"});
  {
    Rule r;
    r.gpu = false;
    r.how = "largest exact N of utm-n (Avril's fast square root with two repairs) and utm-x: exact_range_gpu.csv "
            "else the CPU oracle; compared with " + fmt(100 * kTolRel, 0) + "% tolerance";
    r.fn = [](const Claim& c, const GpuData* g, const Ctx& ctx) {
      const auto n = exact_N(ctx, g, "utm-n", false), x = exact_N(ctx, g, "utm-x", false);
      if (!n && !x) return not_measured("no exact range of utm-n / utm-x");
      std::string ours = (n ? "utm-n " + range_text(*n) : std::string("utm-n —")) + "; " +
                         (x ? "utm-x " + range_text(*x) : std::string("utm-x —"));
      return judge(c, n ? n->N : x->N, ours);
    };
    R["000-utm-range"] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "the largest square-root argument UTM evaluates while exact: x = 4n² − 4n + 1 (k = 0) with n = N + 1 at "
            "the largest exact N of utm-n (else utm-x)";
    r.fn = [](const Claim& c, const GpuData* g, const Ctx& ctx) {
      auto n = exact_N(ctx, g, "utm-n", false);
      std::string which = "utm-n";
      if (!n) { n = exact_N(ctx, g, "utm-x", false); which = "utm-x"; }
      if (!n) return not_measured("no exact range of utm-n / utm-x");
      const double m = n->N + 1, x = 4 * m * m - 4 * m + 1;
      return judge(c, x, fmt_g(x, 3) + " (" + which + ", N=" + fmt_int(n->N) + ")");
    };
    R["000-utm-arg"] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "largest exact N of ltm-r (GPU; else ltm-n) divided by that of utm-n, ρ=16";
    r.fn = [](const Claim& c, const GpuData* g, const Ctx& ctx) {
      auto l = exact_N(ctx, g, "ltm-r", true);
      std::string which = "ltm-r";
      if (!l) { l = exact_N(ctx, g, "ltm-n", false); which = "ltm-n"; }
      const auto u = exact_N(ctx, g, "utm-n", false);
      if (!l || !u) return not_measured("exact ranges missing");
      return judge(c, l->N / u->N, fmt(l->N / u->N, 2) + "× (" + which + " " + fmt_int(l->N) + " / utm-n " +
                                       fmt_int(u->N) + "; ltm-e is exact everywhere)");
    };
    R["000-range-10x"] = r;
  }
  for (const char* id : {"000-avril-2x", "001-fermi"}) {
    Rule r;
    r.gpu = false;
    r.how = std::string(id) == "001-fermi" ? "needs a Fermi GPU: out of scope" : "a cited result of other work: out of scope";
    r.fn = [](const Claim&, const GpuData*, const Ctx&) {
      return Outcome{"—", "not measured", "out of scope of this reproduction"};
    };
    R[id] = r;
  }

  // ---- dummy kernel (Fig. 5) ---------------------------------------------------------------------
  R["000-dummy-rb-33"] = i_rule("dummy.csv", dummy, {"rb"}, St::Max);
  R["001-dummy-rb-25"] = i_rule("dummy.csv", dummy, {"rb"}, St::Max);
  R["000-dummy-ltm-18"] = i_rule("dummy.csv", dummy, kLTM, St::MedLarge);
  R["001-dummy-ltm-13"] = i_rule("dummy.csv", dummy, kLTM, St::MedLarge);
  R["000-dummy-rb-first"] = rank_rule("dummy.csv", dummy, "rb", false, false);
  R["000-dummy-ltm-second"] = rank_rule("dummy.csv", dummy, "ltm", false, false);
  R["000-dummy-rec-utm"] = below_one("dummy.csv", dummy_all, {{"rec"}, kUTM}, St::Max);
  R["001-dummy-rec-utm"] = below_one("dummy.csv", dummy_all, {{"rec"}, kUTM}, St::Max);
  {
    Rule r;
    r.how = stat_text(St::MedLarge) + " of I of RB, LTM (" + cands_text(kLTM) +
            ") and REC, dummy.csv form=store ρ=16: holds if their mean improvement is within ±" + fmt(kTolPct, 0) +
            " points of the paper's and their spread ≤ " + fmt(kTolPct, 0) + " points";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "dummy.csv", &why);
      if (!t) return not_measured(why);
      std::vector<double> v;
      std::vector<std::string> txt;
      for (const auto& cands : std::vector<std::vector<std::string>>{{"rb"}, kLTM, {"rec"}}) {
        const std::string m = pick(*t, dummy, cands, St::MedLarge);
        if (m.empty()) continue;
        const double p = to_unit("%", med_from(curve(*t, dummy, m), kLargeN));
        v.push_back(p);
        txt.push_back(m + " " + fmt(p, 1) + "%");
      }
      if (v.empty()) return not_measured("no RB / LTM / REC rows at N ≥ " + fmt_int(kLargeN));
      const double spread = *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end());
      Outcome o = judge(c, mean(v), "mean " + fmt(mean(v), 1) + "% (" + join(txt, ", ") + "), spread " + fmt(spread, 1) + " points");
      if (o.verdict == "holds" && spread > kTolPct) {
        o.verdict = "differs";
        o.reason = "the maps do not converge: spread " + fmt(spread, 1) + " points";
      }
      return o;
    };
    R["000-dummy-k40-7"] = r;
  }

  // ---- EDM ---------------------------------------------------------------------------------------
  R["000-edm-rb-28"] = i_rule("edm.csv", edm4, {"rb"}, St::Max);
  R["000-edm-rb-first"] = rank_rule("edm.csv", edm4, "rb", false, false);
  R["000-edm-ltm-second"] = rank_rule("edm.csv", edm4, "ltm", false, false);
  R["000-col-ltm-first"] = rank_rule("collision.csv", col3, "ltm", false, false);
  {
    Rule r;
    r.how = "ratio of the " + stat_text(St::MedLarge) + " of I, LTM (" + cands_text(kLTM) +
            ") / RB, edm.csv variant=full features=4 ρ=16";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "edm.csv", &why);
      if (!t) return not_measured(why);
      const std::string m = pick(*t, edm4, kLTM, St::MedLarge);
      const double l = m.empty() ? NAN : med_from(curve(*t, edm4, m), kLargeN), rb = med_from(curve(*t, edm4, "rb"), kLargeN);
      if (!std::isfinite(l) || !std::isfinite(rb)) return not_measured("edm.csv lacks LTM or RB at N ≥ " + fmt_int(kLargeN));
      return judge(c, l / rb, fmt(l / rb, 3) + " (" + m + " " + fmt(l, 3) + " / rb " + fmt(rb, 3) + ")");
    };
    R["001-ltm-vs-rb"] = r;
    R["000-ltm-vs-rb"] = r;
  }
  R["000-edm-ltm-18"] = i_rule("edm.csv", edm4, kLTM, St::MedLarge);
  R["000-edm-rec-12"] = i_rule("edm.csv", edm4, {"rec"}, St::Last);
  R["000-edm-utm-slower"] = below_one("edm.csv", edm4_all, {kUTM}, St::MedAll);
  R["000-edm-utm-4"] = i_rule("edm.csv", edm4, kUTM, St::Max, 3000);
  R["001-edm-rb-14"] = i_multi("edm.csv", {{"d=4", edm4}, {"d=1", edm1}}, {"rb"}, St::MeanAll);
  R["001-edm-ltm-12-15"] = i_multi("edm.csv", {{"d=4", edm4}, {"d=1", edm1}}, kLTM, St::MedLarge);
  R["001-edm-rec-5"] = i_rule("edm.csv", edm4, {"rec"}, St::Last);
  R["001-edm-utm-last"] = rank_rule("edm.csv", edm4, "utm", true, true);
  {
    Rule r;
    r.how = "smallest N of edm.csv (full, 4 features, ρ=16) from which I of REC stays > 1 at every larger N";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "edm.csv", &why);
      if (!t) return not_measured(why);
      const Pts p = curve(*t, edm4, "rec");
      if (p.empty()) return not_measured("no rec rows in edm.csv");
      double from = NAN;
      for (size_t k = p.size(); k-- > 0;) {
        if (p[k].second > 1) from = p[k].first;
        else break;
      }
      if (!std::isfinite(from)) return Outcome{"never (I ≤ 1 at the largest N)", "differs", "REC is not faster than BB at large N"};
      return judge(c, from, "N ≥ " + fmt_int(from) + " (grid of the sweep)");
    };
    R["001-edm-rec-5000"] = r;
  }
  {
    Rule r;
    r.how = "at the largest N with all features, max − min over features 1..4 of I for LTM (" + cands_text(kLTM) +
            ") and RB, edm.csv variant=full ρ=16; holds if both ≤ " + fmt(kTolI, 2);
    r.fn = [=](const Claim&, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "edm.csv", &why);
      if (!t) return not_measured(why);
      std::vector<std::string> txt;
      bool all = true, any = false;
      for (const auto& cands : std::vector<std::vector<std::string>>{kLTM, {"rb"}}) {
        for (const std::string& m : cands) {
          std::map<double, std::vector<double>> byN;  // N -> I per feature
          for (int f = 1; f <= 4; ++f)
            for (const auto& [N, I] : curve(*t, sel_eq({{"variant", "full"}, {"features", std::to_string(f)}}), m))
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
          break;
        }
      }
      if (!any) return not_measured("edm.csv lacks LTM / RB at one N with all four features");
      return Outcome{join(txt, "; "), all ? "holds" : "differs",
                     all ? "I changes by ≤ " + fmt(kTolI, 2) + " over the features" : "I changes by more than " + fmt(kTolI, 2)};
    };
    R["001-feat-flat"] = r;
  }
  {
    Rule r;
    r.how = "I(4 features) − I(1 feature) of UTM (" + cands_text(kUTM) +
            ") at the largest N with both, edm.csv variant=full ρ=16 (inexact rows included)";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "edm.csv", &why);
      if (!t) return not_measured(why);
      for (const std::string& m : kUTM) {
        const Pts p1 = curve(*t, sel_eq({{"variant", "full"}, {"features", "1"}}, false), m),
                  p4 = curve(*t, sel_eq({{"variant", "full"}, {"features", "4"}}, false), m);
        std::map<double, double> a(p1.begin(), p1.end());
        double N = NAN, d = NAN;
        for (const auto& [n, i4] : p4)
          if (a.count(n)) { N = n; d = i4 - a[n]; }
        if (std::isfinite(d)) return judge(c, d, fmt(d, 3) + " (" + m + ", N=" + fmt_int(N) + ")");
      }
      return not_measured("edm.csv lacks UTM at one N with 1 and 4 features");
    };
    R["001-feat-utm"] = r;
  }

  // ---- collision detection -------------------------------------------------------------------
  R["000-col-ltm-7"] = i_rule("collision.csv", col3, kLTM, St::Max);
  R["000-col-rb-rec-slower"] = below_one("collision.csv", col3, {{"rb"}, {"rec"}}, St::MedAll);
  R["000-col-utm-100"] = i_rule("collision.csv", col3_all, kUTM, St::First);
  R["000-col1d-ltm"] = i_rule("collision.csv", col1, kLTM, St::MedLarge);
  {
    Rule r;
    r.how = "the strategies among RB, LTM (" + cands_text(kLTM) + "), REC whose " + stat_text(St::MedLarge) +
            " of I exceeds 1, collision.csv variant=3d ρ=16; holds if that set is LTM alone";
    r.fn = [=](const Claim&, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "collision.csv", &why);
      if (!t) return not_measured(why);
      std::vector<std::string> above, txt;
      bool any = false;
      for (const auto& cands : std::vector<std::vector<std::string>>{{"rb"}, kLTM, {"rec"}}) {
        const std::string m = pick(*t, col3, cands, St::MedLarge);
        if (m.empty()) continue;
        any = true;
        const double v = med_from(curve(*t, col3, m), kLargeN);
        txt.push_back(m + " " + fmt(v, 3));
        if (v > 1) above.push_back(m);
      }
      if (!any) return not_measured("no rows at N ≥ " + fmt_int(kLargeN));
      const bool ok = above.size() == 1 && above[0].rfind("ltm-", 0) == 0;
      return Outcome{"I > 1: {" + join(above, ", ") + "} (" + join(txt, ", ") + ")", ok ? "holds" : "differs",
                     ok ? "only LTM beats BB" : "the set differs from {LTM}"};
    };
    R["000-col-only-ltm"] = r;
  }

  // ---- 3D -----------------------------------------------------------------------------------------
  {
    Rule r;
    r.how = "largest I of any tetrahedral map (map ≠ bb3) in any verified, exact row of tet_dummy.csv and "
            "tet_threebody.csv (any form, mode and ρ; column I, else bb3_median_ms / median_ms)";
    r.fn = [](const Claim& c, const GpuData* g, const Ctx&) {
      if (!g) return not_measured("no GPU results");
      double best = NAN;
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
            where = std::string(f) + " " + row.s("map") + (row.has("mode") ? " " + row.s("mode") : "") +
                    (row.has("form") ? " " + row.s("form") : "") + " N=" + row.s("N") + " ρ=" + row.s("rho");
          }
        }
      }
      if (!std::isfinite(best)) return not_measured("no tetrahedral-map rows in tet_dummy.csv / tet_threebody.csv");
      return judge(c, best, fmt(best, 3) + "× (max; " + where + ")");
    };
    R["003-map-6x"] = r;
  }
  {
    Rule r;
    r.how = "largest linear_over_blocked of the blocked-layout rows of tet_layout.csv (verified rows, any map, mode "
            "and ρ), else time(linear) / time(blocked) at the same N, ρ, map and mode";
    r.fn = [](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "tet_layout.csv", &why);
      if (!t) return not_measured(why);
      double v = NAN;
      std::string where;
      const auto ok = [&](const Row& row) { return !(row.has("verified") && row.s("verified") == "0"); };
      const auto label = [&](const Row& row) {
        std::string k;
        for (const char* h : {"map", "mode", "N", "rho"})
          if (row.has(h)) k += (k.empty() ? "" : " ") + std::string(h) + "=" + row.s(h);
        return k;
      };
      const std::string rc = t->first_of({"linear_over_blocked", "ratio", "speedup"});
      if (!rc.empty()) {
        for (const Row& row : t->rows()) {
          if (!ok(row) || (row.has("layout") && row.s("layout") != "blocked")) continue;
          const double x = row.d(rc);
          if (std::isfinite(x) && !(x <= v)) { v = x; where = label(row); }
        }
      } else if (t->has("layout") && t->has("median_ms")) {
        std::map<std::string, std::map<std::string, double>> by;  // key -> layout -> ms
        for (const Row& row : t->rows())
          if (ok(row)) by[label(row)][row.s("layout")] = row.d("median_ms");
        for (const auto& [k, m] : by)
          if (m.count("linear") && m.count("blocked") && m.at("blocked") > 0) {
            const double x = m.at("linear") / m.at("blocked");
            if (!(x <= v)) { v = x; where = k; }
          }
      }
      if (!std::isfinite(v)) return not_measured("tet_layout.csv has neither a ratio column nor linear/blocked rows");
      return judge(c, v, fmt(v, 3) + "× (max; " + where + ")");
    };
    R["003-layout-2x"] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "counts3 of the map library, ρ=8, n = 1…128: launched blocks of BB3 / of TET-E, compared with eq. (17) "
            "at β = τ, 6n³/(n³ + 3n² + 2n); holds if equal at every n and below 6";
    r.fn = [](const Claim&, const GpuData*, const Ctx& ctx) {
      const Wasted3& w = ctx.wasted3();
      bool ok = true;
      for (size_t k = 0; k < w.n.size(); ++k) {
        const double n = w.n[k], q = w.bb3_launched[k] / w.tet_launched[k];
        const double eq17 = 6 * n * n * n / (n * n * n + 3 * n * n + 2 * n);
        ok = ok && std::fabs(q - eq17) <= 1e-9 * eq17 && q < 6;
      }
      const double last = w.bb3_launched.back() / w.tet_launched.back();
      return Outcome{fmt(last, 3) + "× at n=" + fmt_int(w.n.back()) + " (N=" + fmt_int(w.N.back()) + ")",
                     ok ? "holds" : "differs", ok ? "equals eq. (17) at every n; tends to 6 from below" : "differs from eq. (17)"};
    };
    R["003-blocks-6x"] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "counts3<TET_E> of the map library, ρ=8, n = 1…128: wasted threads / (n²ρ³); holds if ≤ 1 at every n "
            "(BB3's wasted threads / (n³ρ³) shown beside)";
    r.fn = [](const Claim&, const GpuData*, const Ctx& ctx) {
      const Wasted3& w = ctx.wasted3();
      double worst = 0, bbq = 0;
      const double r3 = double(kRho3) * kRho3 * kRho3;
      for (size_t k = 0; k < w.n.size(); ++k) {
        worst = std::max(worst, w.tet_wasted_threads[k] / (w.n[k] * w.n[k] * r3));
        bbq = w.bb3_wasted_threads[k] / (w.n[k] * w.n[k] * w.n[k] * r3);
      }
      return Outcome{"tet-e: ≤ " + fmt(worst, 3) + "·n²ρ³; bb3: " + fmt(bbq, 3) + "·n³ρ³ at n=" + fmt_int(w.n.back()),
                     worst <= 1 ? "holds" : "differs", worst <= 1 ? "bounded by n²ρ³" : "exceeds n²ρ³"};
    };
    R["003-threads"] = r;
  }
  {
    Rule r;
    r.gpu = false;
    r.how = "eq. (6) evaluated: 100/(2k) percent with k = 128; compared to ±0.01 points (the paper rounds)";
    r.fn = [](const Claim& c, const GpuData*, const Ctx&) {
      const double v = 100.0 / (2.0 * 128.0);
      return judge(c, v, fmt(v, 4) + "%", "", Tol{0.01, false});
    };
    R["003-fa128"] = r;
  }
  {
    Rule r;
    r.how = "the larger " + stat_text(St::MedLarge) + " of LTM's improvement (" + cands_text(kLTM) +
            ") on edm.csv (full, 4 features) and collision.csv (3d), ρ=16";
    r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
      if (!g) return not_measured("no GPU results");
      double best = NAN;
      std::string where;
      for (const auto& [f, s] : std::vector<std::pair<std::string, Sel>>{{"edm.csv", edm4}, {"collision.csv", col3}}) {
        const Table* t = g->get(f);
        if (!t) continue;
        const std::string m = pick(*t, s, kLTM, St::MedLarge);
        if (m.empty()) continue;
        const double v = to_unit("%", med_from(curve(*t, s, m), kLargeN));
        if (std::isfinite(v) && !(v <= best)) { best = v; where = f + " " + m; }
      }
      if (!std::isfinite(best)) return not_measured("no LTM rows in edm.csv / collision.csv");
      return judge(c, best, fmt(best, 1) + "% (" + where + ")");
    };
    R["003-2d-20"] = r;
  }

  // ---- SDH ------------------------------------------------------------------------------------------
  R["004-cpu-818"] = sdh_time_rule("cpu");
  R["004-v1-94"] = sdh_time_rule("v1");
  R["004-v2-54"] = sdh_time_rule("v2");
  R["004-v3-54"] = sdh_time_rule("v3");
  R["004-v4-43"] = sdh_time_rule("v4");
  R["004-v5-30"] = sdh_time_rule("v5");
  R["004-private-2-5"] = sdh_ratio_rule("v1", "v2");
  R["004-v5-3x"] = sdh_ratio_rule("v1", "v5");
  R["004-divergence-none"] = sdh_ratio_rule("v2", "v3", Tol{kTolI, false});
  {
    Rule r;
    r.how = sdh_how("time(cpu) / time(v5); without a single-thread CPU row, speedup_vs_cpu_mt of v5 (multi-threaded "
                    "CPU, stated)");
    r.fn = [](const Claim& c, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "sdh.csv", &why);
      if (!t) return not_measured(why);
      const auto lad = sdh_ladder(*t, kSdhN);
      if (!lad.count("v5")) return not_measured("no v5 row at N=" + fmt_int(kSdhN));
      if (lad.count("cpu")) {
        const double v = sdh_time(lad.at("cpu")) / sdh_time(lad.at("v5"));
        return judge(c, v, vfmt("x", v) + " (" + lad.at("cpu").s("impl") + " / " + lad.at("v5").s("impl") + ")");
      }
      const double v = lad.at("v5").d("speedup_vs_cpu_mt");
      return judge(c, v, vfmt("x", v) + " (vs the multi-threaded CPU)");
    };
    R["004-speedup-30"] = r;
  }
  {
    Rule r;
    r.how = "v5 rows of sdh.csv at N=" + fmt_int(kSdhN) + " over threads_per_block: the fastest block size; holds if "
            "the largest block size tested is slower than " + fmt_int(kSdhTpb);
    r.fn = [](const Claim&, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "sdh.csv", &why);
      if (!t) return not_measured(why);
      std::map<double, double> byT;
      for (const Row& row : t->rows())
        if (row.d("N") == kSdhN && sdh_slot(row.s("impl")) == "v5" && std::isfinite(row.d("threads_per_block")))
          byT[row.d("threads_per_block")] = sdh_time(row);
      if (byT.size() < 2 || !byT.count(kSdhTpb)) return not_measured("sdh.csv has no block-size sweep of v5 including 256");
      double bt = NAN, bv = NAN;
      for (const auto& [tp, v] : byT)
        if (!(v >= bv)) { bv = v; bt = tp; }
      const bool ok = byT.rbegin()->second > byT.at(kSdhTpb);
      return Outcome{"fastest at " + fmt_int(bt) + " threads; " + fmt_int(byT.rbegin()->first) + " threads: " +
                         fmt_g(byT.rbegin()->second, 3) + " ms vs " + fmt_g(byT.at(kSdhTpb), 3) + " ms at 256",
                     ok ? "holds" : "differs", ok ? "larger blocks are slower" : "larger blocks are not slower"};
    };
    R["004-tpb-256"] = r;
  }
  {
    Rule r;
    r.how = sdh_how("the gain of each step of the ladder, time(v_k) / time(v_k+1), k = 1..4; holds if the two largest "
                    "are v1→v2 and v4→v5");
    r.fn = [](const Claim&, const GpuData* g, const Ctx&) {
      std::string why;
      const Table* t = need(g, "sdh.csv", &why);
      if (!t) return not_measured(why);
      const auto lad = sdh_ladder(*t, kSdhN);
      std::vector<std::pair<double, std::string>> steps;
      std::vector<std::string> txt;
      for (int k = 1; k <= 4; ++k) {
        const std::string a = "v" + std::to_string(k), b = "v" + std::to_string(k + 1);
        if (!lad.count(a) || !lad.count(b)) return not_measured("sdh.csv lacks " + a + " or " + b + " at N=" + fmt_int(kSdhN));
        const double gain = sdh_time(lad.at(a)) / sdh_time(lad.at(b));
        steps.emplace_back(gain, a + "→" + b);
        txt.push_back(a + "→" + b + " " + fmt(gain, 2) + "×");
      }
      std::sort(steps.rbegin(), steps.rend());
      std::set<std::string> top = {steps[0].second, steps[1].second};
      const bool ok = top.count("v1→v2") && top.count("v4→v5");
      return Outcome{join(txt, ", "), ok ? "holds" : "differs",
                     "largest: " + steps[0].second + " and " + steps[1].second};
    };
    R["004-biggest-steps"] = r;
  }
  return R;
}

const std::map<std::string, Rule>& rules() {
  static const std::map<std::string, Rule> R = make_rules();
  return R;
}

}  // namespace

bool has_rule(const std::string& id) { return rules().count(id) > 0; }
std::string rule_text(const std::string& id) {
  const auto it = rules().find(id);
  return it == rules().end() ? "no rule" : it->second.how;
}
bool needs_gpu(const std::string& id) {
  const auto it = rules().find(id);
  return it == rules().end() || it->second.gpu;
}
Outcome evaluate(const Claim& c, const GpuData* gpu, const Ctx& ctx) {
  const auto it = rules().find(c.id);
  if (it == rules().end()) return Outcome{"—", "not measured", "no rule for this claim id"};
  try {
    return it->second.fn(c, gpu, ctx);
  } catch (const std::exception& e) {
    return Outcome{"—", "not measured", std::string("rule failed: ") + e.what()};
  }
}
std::string verdict_rule_text() {
  return "An improvement factor I (or a ratio of two) holds within ±" + fmt(kTolI, 2) +
         "; an improvement in percent, (I − 1)·100, within ±" + fmt(kTolPct, 0) +
         " points; times, speedups and sizes within ±" + fmt(100 * kTolRel, 0) +
         "% of the paper's value; a range a-b holds inside [a, b] widened by the same tolerance; a bound (<, ≤, >, ≥) "
         "holds when the inequality does; a rank holds when it is the paper's. Otherwise the claim differs.";
}

}  // namespace figs
