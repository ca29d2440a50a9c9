// paper/claims/kinds.cpp — the rule kinds of the claim table (rules.hpp) and the
// verdict rule they share.
//
// Verdict rule (paper/report.template.md states it in the report, §3; report.cpp fills its tolerances):
//   I, ratio, ΔI   |ours − paper| ≤ kTolI                       -> holds
//   %              |ours − paper| ≤ kTolPct (percentage points)  -> holds
//   x, ms, N       |ours − paper| ≤ kTolRel · |paper|            -> holds
//   ranges a-b     inside [a − tol(a), b + tol(b)]               -> holds
//   bounds <, <=, >, >=   the inequality, in the paper's direction: a bound on a
//                  gain holds only for a gain (1 < ours)          -> holds
// otherwise "differs", with the distance and one line from the data on why. When
// ours lies within its run-to-run spread (p25/p75 quartiles) of the boundary of the
// accepted region, the verdict says "within noise".
#include "rules.hpp"
#include "select.hpp"
#include "registry/map_names.hpp"  // a map's family by name

#include <algorithm>
#include <map>
#include <set>

namespace claims {
namespace rules {

const std::vector<std::string> kLTM = pick_rows::ltm(pick_rows::Grid::Linear);
const std::vector<std::string> kUTM = pick_rows::utm();

namespace {
std::string pct(double v) { return fmt(v, std::fabs(v) < 1 ? 3 : 1); }
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
std::string cands_text(const std::vector<std::string>& c) { return join(c, " else "); }
double to_unit(const std::string& unit, double improvement) {
  return unit == "%" ? 100.0 * (improvement - 1.0) : improvement;
}
double spread_to_unit(const std::string& unit, double dI) { return unit == "%" ? 100.0 * dI : dI; }
std::string spread_text(const std::string& unit, double s) {
  if (!std::isfinite(s)) return "";
  return "run-to-run ±" + (unit == "%" ? fmt(s, 1) + " points" : fmt(s, 3));
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
// p25–p75 of y over the points (the spread over N of a median)
std::string over_n(const Pts& p, double xmin = 0) {
  std::vector<double> v;
  for (const auto& q : p)
    if (q.first >= xmin) v.push_back(q.second);
  if (v.size() < 4) return "";
  std::sort(v.begin(), v.end());
  const auto at = [&](double f) { return v[size_t(f * double(v.size() - 1) + 0.5)]; };
  return "over N " + fmt(at(0.25), 3) + "–" + fmt(at(0.75), 3) + " (p25–p75)";
}
// Whether map m is `which`: of its family, or that map.
bool is_of(const std::string& m, const Which& which) {
  return which.family ? tdmaps::in_family(m, *which.family) : m == which.word;
}
std::string strategies_text(const std::vector<std::vector<std::string>>& s) {
  std::vector<std::string> v;
  for (const auto& c : s) v.push_back(c.size() == 1 ? c[0] : "(" + cands_text(c) + ")");
  return join(v, ", ");
}
}  // namespace

std::string vfmt(const std::string& unit, double v) {
  if (unit == "%") return pct(v) + "%";
  if (unit == "I" || unit == "ratio" || unit == "ΔI") return fmt(v, 3);
  if (unit == "N" || unit == "blocks" || unit == "threads" || unit == "launches" || unit == "rank" || unit == "λ")
    return fmt_int(v);
  if (unit == "ms") return fmt_g(v, 3) + " ms";
  if (unit == "x") return fmt_g(v, 3) + "×";
  return fmt_g(v, 4);
}

Outcome not_measured(const std::string& why) { return {"—", kNotMeasured, why, false}; }
Outcome needs(const std::string& file, const std::string& rows) {
  return {"—", kNotMeasured, "not measured yet (needs " + file + ": " + rows + ")", false};
}

Outcome judge(const Claim& c, double ours, const std::string& ours_text, const Judge& j) {
  if (!std::isfinite(ours)) return not_measured("no value could be computed");
  const PaperValue& p = c.pv;
  if (!p.numeric()) return {ours_text, kContext, "the paper's value is not a number", false};
  const std::string cmp = j.cmp.empty() ? p.cmp : j.cmp;
  const Tol t = j.tol ? *j.tol : tol_of(c.unit);
  const auto T = [&](double ref) { return t.rel ? t.t * std::fabs(ref) : t.t; };
  const auto F = [&](double v) { return vfmt(c.unit, v); };
  // the accepted region [lo, hi] (open ends where the comparison is strict)
  double lo = -kInf, hi = kInf;
  Outcome o{ours_text, "", "", false};
  if (cmp == "=") {
    lo = p.lo - T(p.lo);
    hi = p.lo + T(p.lo);
    const double d = ours - p.lo;
    if (ours >= lo && ours <= hi) {
      o.verdict = kHolds;
      o.reason = "within " + tol_text(c.unit, t) + " of " + F(p.lo);
    } else if (t.rel && p.lo != 0) {
      o.verdict = kDiffers;
      const double r = ours / p.lo;
      if (r >= 2) o.reason = "ours is " + fmt_g(r, 3) + " times " + F(p.lo);
      else if (r > 0 && r <= 0.5) o.reason = "ours is 1/" + fmt_g(1 / r, 3) + " of " + F(p.lo);
      else o.reason = "ours is " + fmt(100 * std::fabs(d) / std::fabs(p.lo), 0) + "% " + (d > 0 ? "above " : "below ") + F(p.lo);
      o.reason += " (tolerance " + tol_text(c.unit, t) + ")";
    } else {
      o.verdict = kDiffers;
      o.reason = "ours is " + (c.unit == "%" ? pct(std::fabs(d)) + " points" : F(std::fabs(d))) +
                 (d > 0 ? " above " : " below ") + F(p.lo) + " (tolerance " + tol_text(c.unit, t) + ")";
    }
  } else if (cmp == "range") {
    lo = p.lo - T(p.lo);
    hi = p.hi + T(p.hi);
    o.verdict = (ours >= lo && ours <= hi) ? kHolds : kDiffers;
    o.reason = std::string(o.verdict == kHolds ? "inside " : "outside ") + "[" + F(p.lo) + ", " + F(p.hi) +
               "] widened by " + tol_text(c.unit, t);
  } else {
    bool ok = false;
    if (cmp == "<") { ok = ours < p.lo; hi = p.lo; }
    else if (cmp == "<=") { ok = ours <= p.lo; hi = p.lo; }
    else if (cmp == ">") { ok = ours > p.lo; lo = p.lo; }
    else if (cmp == ">=") { ok = ours >= p.lo; lo = p.lo; }
    const std::string sym = cmp == "<=" ? "≤" : cmp == ">=" ? "≥" : cmp;
    const double one = c.unit == "%" ? 0.0 : 1.0;  // no gain: I = 1, 0%
    if (j.gain && (cmp == "<" || cmp == "<=")) {
      lo = one;
      if (!(ours > one)) {
        o.verdict = kDiffers;
        o.reason = "ours " + F(ours) + " is no gain (≤ " + F(one) + "): a bound on a gain does not hold by a slowdown";
      } else {
        o.verdict = ok ? kHolds : kDiffers;
        o.reason = "ours " + F(ours) + (ok ? " is a gain and " : " is not ") + sym + " " + F(p.lo);
      }
    } else {
      o.verdict = ok ? kHolds : kDiffers;
      o.reason = "ours " + F(ours) + (ok ? " is " : " is not ") + sym + " " + F(p.lo);
    }
  }
  if (std::isfinite(j.noise) && j.noise > 0) {
    double margin = kInf;
    if (std::isfinite(lo)) margin = std::min(margin, std::fabs(ours - lo));
    if (std::isfinite(hi)) margin = std::min(margin, std::fabs(ours - hi));
    if (margin <= j.noise) {
      o.noise = true;
      o.reason += "; within noise: " + F(ours) + " is " + (c.unit == "%" ? fmt(margin, 1) + " points" : fmt(margin, 3)) +
                  " from the boundary, run-to-run spread ±" + (c.unit == "%" ? fmt(j.noise, 1) + " points" : fmt(j.noise, 3)) +
                  " (p25/p75)";
    }
  }
  return o;
}

Sel sel_eq(std::map<std::string, std::string> eq, bool exact_only, double rho) {
  Sel s;
  s.eq = std::move(eq);
  s.exact_only = exact_only;
  s.rho = rho;
  return s;
}
std::string sel_text(const std::string& file, const Sel& s) {
  std::string t = file;
  for (const auto& [k, v] : s.eq) t += ", " + k + "=" + v;
  if (std::isfinite(s.rho)) t += ", ρ=" + fmt_int(s.rho);
  if (!s.exact_only) t += ", inexact rows included";
  return t;
}

const Table* need_table(const GpuData* g, const results::Layout& layout, std::string* why) {
  if (!g) {
    *why = "no GPU results";
    return nullptr;
  }
  const Table* t = g->get(layout);
  if (!t) *why = g->reason(layout);
  return t;
}

double stat(const Pts& all, St s, double xmax) {
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
namespace {
double stat_x(const Pts& all, St s, double xmax) {
  Pts p;
  for (const auto& q : all)
    if (q.first <= xmax) p.push_back(q);
  if (p.empty()) return NAN;
  if (s == St::Max) return max_pt(p).first;
  if (s == St::Last) return p.back().first;
  if (s == St::First) return p.front().first;
  return NAN;
}
}  // namespace
std::string stat_text(St s, double xmax) {
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
std::string pick(const Table& t, const Sel& s, const std::vector<std::string>& cands, St st, double xmax) {
  for (const std::string& m : cands)
    if (std::isfinite(stat(curve(t, s, m), st, xmax))) return m;
  return "";
}

Pts rel_spread(const Table& t, const Sel& s, const std::string& map) {
  const auto rel = [&](const std::string& m) {
    std::map<double, double> out;
    const Pts a = curve(t, s, m, "p25_ms"), b = curve(t, s, m, "p75_ms"), md = curve(t, s, m, "median_ms");
    std::map<double, double> A(a.begin(), a.end()), B(b.begin(), b.end());
    for (const auto& [x, m50] : md)
      if (A.count(x) && B.count(x) && m50 > 0) out[x] = (B[x] - A[x]) / (2 * m50);
    return out;
  };
  const std::string bb = t.has_opt("bb3_median_ms") ? tdmaps::BB3::name : tdmaps::BB::name;  // unchecked: a 2D or a 3D table (csv.hpp's *_opt)
  const auto rm = rel(map), rb = map == bb ? std::map<double, double>{} : rel(bb);
  Pts p;
  for (const auto& [x, v] : rm) p.emplace_back(x, v + (rb.count(x) ? rb.at(x) : 0.0));
  return p;
}
double stat_spread(const Table& t, const Sel& s, const std::string& map, St st, double xmax) {
  const Pts improvement = curve(t, s, map);
  const Pts r = rel_spread(t, s, map);
  const double v = stat(improvement, st, xmax);
  if (r.empty() || !std::isfinite(v)) return NAN;
  const double x = stat_x(improvement, st, xmax);
  if (std::isfinite(x)) {
    for (const auto& q : r)
      if (q.first == x) return std::fabs(v) * q.second;
    return NAN;
  }
  std::vector<double> v2;
  for (const auto& q : r)
    if (q.first <= xmax && (st != St::MedLarge || q.first >= kLargeN)) v2.push_back(q.second);
  return std::fabs(v) * median(v2);
}

std::string n_range(const Table& t, const Sel& s, const std::string& map) {
  const Pts p = curve(t, s, map);
  if (p.empty()) return "";
  return "N = " + fmt_int(p.front().first) + "…" + fmt_int(p.back().first) + ", " + std::to_string(p.size()) + " sizes";
}

// The paper's I of the claim being evaluated (PaperScope), for the Kepler value a reason states.
namespace {
double g_paper_I = NAN;
}
PaperScope::PaperScope(const Claim& c) : prev_(g_paper_I) {
  double v = NAN;
  if (c.pv.numeric()) {
    const double x = c.pv.cmp == "range" ? (c.pv.lo + c.pv.hi) / 2 : c.pv.lo;
    if (c.unit == "I") v = x;
    else if (c.unit == "%") v = 1 + x / 100;
  }
  g_paper_I = v;
}
PaperScope::~PaperScope() { g_paper_I = prev_; }
double paper_I() { return g_paper_I; }

namespace {
// The median of column col over the rows of map m at N in table t, selection s (NaN if none).
double at_N(const Table& t, const Sel& s, const std::string& m, double N, const std::string& col) {
  std::vector<double> v;
  for (const TableRow& r : t.rows())
    if (r.s("map") == m && selected(r, s) && r.d("N") == N) v.push_back(r.d(col));
  return median(v);
}
// The empty-block floor c_e (ns of GPU time per launched block): BB's blocks in the dummy kernel without the store
// (form cond), at N and the selection's ρ; from `own` when it has cond rows (the same run), else dummy.csv of the
// same GPU folder. NaN when neither has them. *src names where it came from.
double floor_ns(const GpuData* g, const Table* own, const results::Layout& own_layout, const Sel& s, double N, std::string* src) {
  const std::string own_file = own_layout.file;
  Sel c = pick_rows::dummy(pick_rows::Form::Cond, true, s.rho);
  for (const auto& [t, f] : {std::pair<const Table*, std::string>{own, own_file}, {g->get(results::layout::dummy), results::layout::dummy.file}}) {
    if (!t || !t->has_opt("launched_blocks")) continue;  // unchecked: `own` is of any layout (edm.csv has none)
    const double ms = at_N(*t, c, tdmaps::BB::name, N, "median_ms"), bl = at_N(*t, c, tdmaps::BB::name, N, "launched_blocks");
    if (std::isfinite(ms) && bl > 0) {
      *src = f + " form=cond, bb";
      return ms * 1e6 / bl;
    }
  }
  return NAN;
}
}  // namespace

// Why a map's I is what it is, from measured numbers (issue #35 item 2). I = (BB's blocks / the map's blocks) / k
// with k = τ_map / τ_BB the papers' own k (000 eqs. (10)-(13)), τ the GPU time per launched block; the floor c_e (an
// empty block's cost, the dummy kernel without the store) says whether the block scheduler or the blocks' work sets
// τ; for the application kernels, c_u (a useful block's cost) and I_floor = 1 + W·c_e / t_map (the gain of skipping
// BB's W wasted blocks alone). The paper's I (PaperScope) gives the value the same quantity would need on its GPU.
std::string bound_note(const GpuData* g, const results::Layout& layout, const Sel& s, const std::string& map, double xmax) {
  if (!g) return "";
  const std::string file = layout.file;
  const Table* t = g->get(layout);
  if (!t || !t->has("map") || !t->has("N")) return "";
  // the claim's own map (ltm-r when the rule names none) at the largest N it has rows for
  const std::string m = map.empty() ? tdmaps::LTM_R::name : map;
  double nmax = NAN;
  for (const TableRow& r : t->rows())
    if (r.s("map") == m && selected(r, s) && r.d("N") <= xmax && !(r.d("N") <= nmax)) nmax = r.d("N");
  if (!std::isfinite(nmax)) return "";
  const auto at = [&](const std::string& mm, const std::string& col) { return at_N(*t, s, mm, nmax, col); };
  const double rho = std::isfinite(s.rho) ? s.rho : current_rho();
  // the words: paper/notes.template.md, sections bound_blocks and bound_app (partial bound_where)
  tmpl::Scope v;
  v.set("gpu", g->name()).set("N", fmt_int(nmax)).set("rho", fmt_int(rho)).set("map", m);
  v.set("xmax", std::isfinite(xmax) ? fmt_int(xmax) : "");
  const double bt = at(tdmaps::BB::name, "median_ms"), lt = at(m, "median_ms");
  if (!std::isfinite(bt) || !std::isfinite(lt) || !(bt > 0) || !(lt > 0)) return "";
  const double improvement = bt / lt, paper_improvement = paper_I();
  v.set("I", fmt(improvement, 3)).set("paper_I", std::isfinite(paper_improvement) ? fmt(paper_improvement, 3) : "");
  std::string src;
  const double ce = floor_ns(g, t, layout, s, nmax, &src);
  v.set("src", src).set("ce", std::isfinite(ce) ? fmt_g(ce, 3) : "");
  // unchecked (csv.hpp's *_opt): `layout` is dummy.csv / sqrt.csv (launched_blocks) or edm.csv / collision.csv (GBps)
  if (t->has_opt("launched_blocks")) {  // dummy.csv / sqrt.csv: the time per launched block
    const double bl = at(tdmaps::BB::name, "launched_blocks"), ll = at(m, "launched_blocks");
    const double tb = bt * 1e6 / bl, tm = lt * 1e6 / ll, k = tm / tb, ratio = bl / ll;
    v.set("tau_bb", fmt_g(tb, 3)).set("tau_map", fmt_g(tm, 3)).set("k", fmt(k, 3)).set("ratio", fmt(ratio, 3));
    v.set("k_cond", "").flag("near_floor", false).set("floor_x", "");
    if (std::isfinite(ce)) {
      const Sel cs = pick_rows::dummy(pick_rows::Form::Cond, true, rho);
      const double kc_ms = at_N(*t, cs, m, nmax, "median_ms"), kc_bl = at_N(*t, cs, m, nmax, "launched_blocks");
      const double kc = (kc_ms * 1e6 / kc_bl) / ce;
      v.set("k_cond", std::isfinite(kc) ? fmt(kc, 3) : "").flag("near_floor", tb <= 1.15 * ce).set("floor_x", fmt(tb / ce, 2));
    }
    if (!(std::isfinite(paper_improvement) && paper_improvement > 0)) v.set("paper_I", "");
    v.set("k_paper", std::isfinite(paper_improvement) && paper_improvement > 0 ? fmt(ratio / paper_improvement, 3) : "");
    return note("bound_blocks", v);
  }
  // edm.csv / collision.csv: BB's time = W wasted blocks at the floor + U useful blocks at c_u
  const double n = std::ceil(nmax / rho), U = n * (n + 1) / 2, W = n * (n - 1) / 2;
  v.set("t_bb", fmt_g(bt, 3)).set("t_map", fmt_g(lt, 3));
  for (const char* k : {"W", "U", "cu", "cu_x", "I_floor", "delta", "cu_x_paper", "delta_paper"}) v.set(k, "");
  v.flag("paper_gain", false).flag("paper_loss", false);
  if (std::isfinite(ce)) {
    const double cu = (bt * 1e6 - W * ce) / U, Ifl = 1 + W * ce / (lt * 1e6), delta = (lt * 1e6 / U - cu) / cu;
    v.set("W", fmt_int(W)).set("U", fmt_int(U)).set("cu", fmt_g(cu, 3)).set("cu_x", fmt(cu / ce, 2));
    v.set("I_floor", fmt(Ifl, 3)).set("delta", fmt(100 * delta, 1));
    v.flag("paper_gain", std::isfinite(paper_improvement) && paper_improvement > 1);
    v.flag("paper_loss", std::isfinite(paper_improvement) && !(paper_improvement > 1));
    if (std::isfinite(paper_improvement) && paper_improvement > 1) v.set("cu_x_paper", fmt((W / U) / (paper_improvement - 1), 3));
    else if (std::isfinite(paper_improvement)) v.set("delta_paper", fmt(100 * W * ce / (U * cu), 0));
  }
  v.set("bw", "").set("gb", "").set("bw_share", "");
  if (t->has_opt("GBps")) {
    double bw = NAN;
    for (const TableRow& r : t->rows())
      if (r.s("map") == results::kWriteBwMap) bw = r.d("GBps");
    const double bytes = at(m, "bytes_written");
    if (std::isfinite(bw) && bytes > 0)
      v.set("bw", fmt_g(bw, 4)).set("gb", fmt_g(bytes / 1e9, 3)).set("bw_share", fmt(100 * (bytes / (bw * 1e9)) / (lt / 1e3), 0));
  }
  return note("bound_app", v);
}

// ---- kinds -----------------------------------------------------------------------------------
namespace {
Outcome with_note(Outcome o, const GpuData* g, const results::Layout& layout, const Sel& s, const std::string& map = "",
                  double xmax = kInf) {
  if (o.verdict == kDiffers) {
    const std::string n = bound_note(g, layout, s, map, xmax);
    if (!n.empty()) add_why(o, n);
  }
  return o;
}
bool limited(const std::string& m) { return tdmaps::in_family(m, tdmaps::map_family::utm); }
}  // namespace

Rule stat_I(const results::Layout& layout, Sel sel, std::vector<std::string> cands, St st, StatOpt opt) {
  const std::string file = layout.file;
  Rule r;
  r.how = stat_text(st, opt.xmax) + " of I, " + sel_text(file, sel) + "; map " + cands_text(cands) +
          " (the first with rows)" + (opt.gain ? "; a bound on a gain: holds only for I > 1" : "");
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need_table(g, layout, &why);
    if (!t) return not_measured(why);
    const std::string m = pick(*t, sel, cands, st, opt.xmax);
    if (m.empty())
      return needs(file, sel_text("", sel).substr(2) + ", map " + cands_text(cands) + " rows" +
                             (std::isfinite(opt.xmax) ? " at N ≤ " + fmt_int(opt.xmax) + " (the claim's range; the sweep starts above it)" : ""));
    const Pts p = curve(*t, sel, m);
    const double v = to_unit(c.unit, stat(p, st, opt.xmax));
    const double sp = spread_to_unit(c.unit, stat_spread(*t, sel, m, st, opt.xmax));
    std::string txt = vfmt(c.unit, v) + " (" + m + ", " + stat_short(st);
    if (st == St::MedLarge) {
      const std::string o = over_n(p, kLargeN);
      if (!o.empty()) txt += "; I " + o;
    }
    if (std::isfinite(sp)) txt += "; " + spread_text(c.unit, sp);
    if (limited(m)) txt += "; " + m + " measured over " + n_range(*t, sel, m);
    txt += ")";
    Judge j;
    j.gain = opt.gain;
    j.cmp = opt.cmp;
    j.noise = sp;
    return with_note(judge(c, v, txt, j), g, layout, sel, m, opt.xmax);
  };
  return r;
}

Rule stat_each(const results::Layout& layout, std::vector<std::pair<std::string, Sel>> sels, std::vector<std::string> cands,
               St st) {
  const std::string file = layout.file;
  Rule r;
  std::vector<std::string> parts;
  for (const auto& [label, s] : sels) parts.push_back(label + ": " + sel_text(file, s));
  r.how = stat_text(st) + " of I, each of {" + join(parts, "; ") + "}; map " + cands_text(cands) +
          "; holds if every one holds";
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need_table(g, layout, &why);
    if (!t) return not_measured(why);
    std::vector<std::string> txt, reasons;
    bool all = true, any = false, noise = false;
    std::string why_map;  // the map of the first part that does not hold: the "Why" is taken from its rows
    Sel why_sel = sels.front().second;
    for (const auto& [label, s] : sels) {
      const std::string m = pick(*t, s, cands, st);
      if (m.empty()) {
        txt.push_back(label + ": —");
        all = false;
        continue;
      }
      const double v = to_unit(c.unit, stat(curve(*t, s, m), st));
      Judge j;
      j.noise = spread_to_unit(c.unit, stat_spread(*t, s, m, st));
      const Outcome o = judge(c, v, "", j);
      any = true;
      noise = noise || o.noise;
      all = all && o.verdict == kHolds;
      if (o.verdict != kHolds && why_map.empty()) {
        why_map = m;
        why_sel = s;
      }
      txt.push_back(label + ": " + vfmt(c.unit, v) + " (" + m + (std::isfinite(j.noise) ? ", " + spread_text(c.unit, j.noise) : "") + ")");
      reasons.push_back(label + " " + o.reason);
    }
    if (!any) return needs(file, "map " + cands_text(cands) + " rows");
    Outcome o{join(txt, "; ") + " [" + stat_short(st) + "]", all ? kHolds : kDiffers, join(reasons, "; "), noise};
    return with_note(o, g, layout, why_sel, why_map);
  };
  return r;
}

Rule below_one(const results::Layout& layout, Sel sel, std::vector<std::vector<std::string>> strategies) {
  const std::string file = layout.file;
  Rule r;
  r.how = "I at every N for each of {" + strategies_text(strategies) + "}, " + sel_text(file, sel) +
          "; a statement over the whole range of N is judged per N (the judging rule 'whole range: per N'): holds if "
          "I < 1 at every N, differs if I ≥ 1 at some N (those N named; within noise when each of them lies within its "
          "run-to-run spread of 1); the trend over N (first → last N) and the median shown";
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need_table(g, layout, &why);
    if (!t) return not_measured(why);
    std::vector<std::string> txt, missing, above;
    std::string first_above;
    bool all_noise = true;
    for (const auto& cands : strategies) {
      const std::string m = pick(*t, sel, cands, St::MedAll);
      if (m.empty()) {
        missing.push_back(cands_text(cands));
        continue;
      }
      const Pts p = curve(*t, sel, m);
      const Pts rs = rel_spread(*t, sel, m);
      const std::map<double, double> sp(rs.begin(), rs.end());
      std::vector<double> bad;
      bool noise = true;
      for (const auto& [N, improvement] : p) {
        if (improvement < 1) continue;
        bad.push_back(N);
        const double s = sp.count(N) ? sp.at(N) * improvement : NAN;
        if (!(std::isfinite(s) && improvement - 1 <= s)) noise = false;
      }
      std::string s = m + ": I " + fmt(p.front().second, 3) + " at N=" + fmt_int(p.front().first) + " → " +
                      fmt(p.back().second, 3) + " at N=" + fmt_int(p.back().first) + " (median " + fmt(stat(p, St::MedAll), 3);
      const std::string o = over_n(p);
      if (!o.empty()) s += "; " + o;
      if (limited(m)) s += "; " + n_range(*t, sel, m);
      s += "), I ≥ 1 at " + std::to_string(bad.size()) + " of " + std::to_string(p.size()) + " N";
      txt.push_back(s);
      if (!bad.empty()) {
        std::vector<std::string> ns;
        for (size_t k = 0; k < bad.size() && k < 4; ++k) ns.push_back(fmt_int(bad[k]));
        if (bad.size() > 4) ns.push_back("…");
        above.push_back(m + " at N = " + join(ns, ", ") + (bad.size() > 1 ? " (" + fmt_int(bad.front()) + "…" + fmt_int(bad.back()) + ")" : ""));
        if (first_above.empty()) first_above = m;
        all_noise = all_noise && noise;
      }
    }
    if (!missing.empty())
      return Outcome{txt.empty() ? "—" : join(txt, "; "), kNotMeasured,
                     "not measured yet (needs " + file + ": " + sel_text("", sel).substr(2) + ", map " +
                         join(missing, "; ") + " rows)",
                     false};
    (void)c;
    const bool noise = !above.empty() && all_noise;
    Outcome out{join(txt, "; "), above.empty() ? kHolds : kDiffers,
                above.empty() ? "I < 1 at every N" : "I ≥ 1 at some N: " + join(above, "; "), noise};
    if (noise) out.reason += "; within noise (each such I lies within its run-to-run spread of 1)";
    return with_note(out, g, layout, sel, first_above);
  };
  return r;
}

Rule ratio_I(Side a, Side b, St st) {
  Rule r;
  r.how = "ratio of the " + stat_text(st) + " of I, " + cands_text(a.cands) + " (" + sel_text(std::string(a.layout.file), a.sel) + ") / " +
          cands_text(b.cands) + " (" + sel_text(std::string(b.layout.file), b.sel) + ")";
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* ta = need_table(g, a.layout, &why);
    if (!ta) return not_measured(why);
    const Table* tb = need_table(g, b.layout, &why);
    if (!tb) return not_measured(why);
    const std::string ma = pick(*ta, a.sel, a.cands, st), mb = pick(*tb, b.sel, b.cands, st);
    if (ma.empty()) return needs(std::string(a.layout.file), sel_text("", a.sel).substr(2) + ", map " + cands_text(a.cands) + " rows");
    if (mb.empty()) return needs(std::string(b.layout.file), sel_text("", b.sel).substr(2) + ", map " + cands_text(b.cands) + " rows");
    const double va = stat(curve(*ta, a.sel, ma), st), vb = stat(curve(*tb, b.sel, mb), st);
    const double sa = stat_spread(*ta, a.sel, ma, st), sb = stat_spread(*tb, b.sel, mb, st);
    const double q = va / vb;
    Judge j;
    if (std::isfinite(sa) && std::isfinite(sb)) j.noise = q * (sa / va + sb / vb);
    std::string txt = fmt(q, 3) + " (" + ma + " " + fmt(va, 3) + " / " + mb + " " + fmt(vb, 3) + ", " + stat_short(st);
    if (std::isfinite(j.noise)) txt += "; " + spread_text("ratio", j.noise);
    txt += ")";
    return with_note(judge(c, q, txt, j), g, a.layout, a.sel, ma);
  };
  return r;
}

namespace {
std::vector<std::pair<std::string, double>> ranked(const Table& t, const Sel& s,
                                                   const std::vector<std::vector<std::string>>& strat, bool common) {
  std::vector<std::pair<std::string, Pts>> curves;
  for (const auto& cands : strat) {
    const std::string m = pick(t, s, cands, common ? St::MedAll : St::MedLarge);
    if (!m.empty()) curves.emplace_back(m, curve(t, s, m));
  }
  std::vector<std::pair<std::string, double>> order;
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
      order.emplace_back(m, median(v));
    }
  } else {
    for (const auto& [m, p] : curves) order.emplace_back(m, med_from(p, kLargeN));
  }
  order.erase(std::remove_if(order.begin(), order.end(), [](const auto& e) { return !std::isfinite(e.second); }),
              order.end());
  std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  return order;
}
// strategies without rows: "" when every one has rows
std::string missing_of(const Table& t, const Sel& s, const std::vector<std::vector<std::string>>& strat, St st) {
  std::vector<std::string> miss;
  for (const auto& cands : strat)
    if (pick(t, s, cands, st).empty()) miss.push_back(cands_text(cands));
  return join(miss, "; ");
}
}  // namespace

Rule rank_of(const results::Layout& layout, Sel sel, const Which& what, std::vector<std::vector<std::string>> strategies,
             bool common) {
  const std::string file = layout.file, which = what.word;
  Rule r;
  r.how = std::string("rank of ") + which + " by " +
          (common ? "median I over the N every strategy has" : stat_text(St::MedLarge) + " of I") + " among " +
          strategies_text(strategies) + "; " + sel_text(file, sel) + "; every strategy must have rows";
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need_table(g, layout, &why);
    if (!t) return not_measured(why);
    const std::string miss = missing_of(*t, sel, strategies, common ? St::MedAll : St::MedLarge);
    if (!miss.empty()) return needs(file, sel_text("", sel).substr(2) + ", map " + miss + " rows");
    const auto order = ranked(*t, sel, strategies, common);
    int pos = 0;
    std::vector<std::string> txt;
    for (size_t k = 0; k < order.size(); ++k) {
      txt.push_back(order[k].first + " " + fmt(order[k].second, 3));
      if (is_of(order[k].first, what)) pos = int(k) + 1;
    }
    if (pos == 0) return needs(file, which + " rows");
    std::string ours = "rank " + std::to_string(pos) + " of " + std::to_string(order.size()) + " (" + join(txt, " > ") + ")";
    for (const auto& [m, v] : order)
      if (limited(m)) ours += "; " + m + " measured over " + n_range(*t, sel, m);
    Outcome o;
    if (c.value == "last") {
      const bool ok = pos == int(order.size());
      o = Outcome{ours, ok ? kHolds : kDiffers, ok ? "last, as stated" : "not last", false};
    } else {
      const bool ok = c.pv.numeric() && pos == int(c.pv.lo);
      o = Outcome{ours, ok ? kHolds : kDiffers, ok ? "rank " + std::to_string(pos) + ", as stated" : "the paper has rank " + c.value, false};
    }
    // within noise: the neighbours of `which` closer than their run-to-run spread
    for (size_t k = 0; k < order.size(); ++k) {
      if (int(k) + 1 != pos) continue;
      for (size_t n : {k - 1, k + 1}) {
        if (n >= order.size()) continue;
        const double sp = stat_spread(*t, sel, order[k].first, common ? St::MedAll : St::MedLarge) +
                          stat_spread(*t, sel, order[n].first, common ? St::MedAll : St::MedLarge);
        if (std::isfinite(sp) && std::fabs(order[k].second - order[n].second) <= sp) {
          o.noise = true;
          o.reason += "; within noise: " + order[k].first + " and " + order[n].first + " differ by " +
                      fmt(std::fabs(order[k].second - order[n].second), 3) + ", run-to-run spread ±" + fmt(sp, 3);
        }
      }
    }
    return with_note(o, g, layout, sel, order[size_t(pos - 1)].first);
  };
  return r;
}

Rule only_above_one(const results::Layout& layout, Sel sel, const Which& what,
                    std::vector<std::vector<std::string>> strategies) {
  const std::string file = layout.file, which = what.word;
  Rule r;
  r.how = "the strategies among " + strategies_text(strategies) + " whose " + stat_text(St::MedLarge) +
          " of I exceeds 1, " + sel_text(file, sel) + "; holds if that set is {" + which + "}; every strategy must have rows";
  r.fn = [=](const Claim&, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need_table(g, layout, &why);
    if (!t) return not_measured(why);
    const std::string miss = missing_of(*t, sel, strategies, St::MedLarge);
    if (!miss.empty()) return needs(file, sel_text("", sel).substr(2) + ", map " + miss + " rows");
    std::vector<std::string> above, txt;
    for (const auto& cands : strategies) {
      const std::string m = pick(*t, sel, cands, St::MedLarge);
      const double v = med_from(curve(*t, sel, m), kLargeN);
      txt.push_back(m + " " + fmt(v, 3));
      if (v > 1) above.push_back(m);
    }
    const bool ok = above.size() == 1 && is_of(above[0], what);
    std::string odd;  // the first map whose place in the set contradicts the paper (its rows give the "Why")
    std::vector<std::string> others;  // every map above 1 besides `which`
    for (const std::string& m : above)
      if (!is_of(m, what)) {
        if (odd.empty()) odd = m;
        others.push_back(m);
      }
    return with_note(Outcome{"I > 1: {" + join(above, ", ") + "} (" + join(txt, ", ") + ")", ok ? kHolds : kDiffers,
                             ok ? "only " + which + " beats BB"
                                : "the set differs from {" + which + "}" + (others.empty() ? "" : " (" + join(others, ", ") + (others.size() > 1 ? " also beat BB)" : " also beats BB)")),
                             false},
                     g, layout, sel, odd);
  };
  return r;
}

Rule context(const std::string& what, Fn ours) {
  Rule r;
  r.how = what + ": context, shown beside ours, no verdict";
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx& ctx) {
    if (!ours) return Outcome{"—", kContext, what, false};
    Outcome o = ours(c, g, ctx);
    o.verdict = kContext;
    if (o.reason.empty()) o.reason = what;
    else o.reason = what + "; " + o.reason;
    return o;
  };
  return r;
}
Rule out_of_scope(const std::string& why) {
  Rule r;
  r.gpu = false;
  r.how = why + ": out of scope";
  r.fn = [=](const Claim&, const GpuData*, const Ctx&) { return not_measured("out of scope of this reproduction: " + why); };
  return r;
}
Rule custom(const std::string& how, Fn fn, bool gpu) {
  Rule r;
  r.how = how;
  r.fn = std::move(fn);
  r.gpu = gpu;
  return r;
}

}  // namespace rules

}  // namespace claims
