// figures/fig_3d.cpp — one GPU's figures of the tetrahedral domain (003): I of the
// tetrahedral maps against the bounding cube (tet_I, one figure per ρ) and the blocked vs
// linear data layout (tet_layout).
#include "figures.hpp"

#include <tdmaps/counts.hpp>
#include <tdmaps/layout3d.hpp>  // the data layouts' names (tet_layout.csv's layout column)
#include "registry/map_names.hpp"  // a map's family by name

#include <algorithm>
#include <cmath>
#include <set>

namespace figs {

// ---- 3D -----------------------------------------------------------------------------------------
namespace {

// The block side to show first: 8 when measured, else the largest.
double primary_rho(const Table& t) {
  const std::vector<double> r = distinct(t, "rho");
  if (r.empty()) return NAN;
  return std::find(r.begin(), r.end(), double(kRho3)) != r.end() ? double(kRho3) : r.back();
}

// One panel of I vs N: every tetrahedral map x mode of a selection, eq. (17) at beta = tau
// from the library's plans, and the paper's bound; each curve an item of `curves` (map, mode, max, max_n).
bool tet_panel(const Ctx& ctx, const Table& t, Sel s, const std::string& title, Panel& p, Slots& curves) {
  p.title = title;
  p.xlabel = "N";
  p.ylabel = "I = t_BB3 / t_map";
  p.key = "below";
  double xmax = 0;
  for (const std::string& m : maps_in(t, s)) {
    if (tdmaps::in_family(m, tdmaps::map_family::bb)) continue;  // the bounding cube
    for (const std::string& mode : col_values(t, "mode")) {
      Sel sm = s;
      if (!mode.empty()) sm.eq["mode"] = mode;
      const Pts q = curve(t, sm, m);
      if (q.empty()) continue;
      Series se = map_series(m, q, m + (mode.empty() ? "" : " (" + mode + ")"));
      if (mode == results::kBlockMode) {
        se.dt = 2;
        se.pt -= 1;
      }
      p.series.push_back(se);
      xmax = std::max(xmax, q.back().first);
      curves.add("curves").set("map", m).set("mode", mode).set("max", fmt(max_pt(q).second, 3)).set("max_n", fmt_int(max_pt(q).first));
    }
  }
  if (p.series.empty()) return false;
  tet_refs(ctx, p, std::isfinite(s.rho) ? int(s.rho) : kRho3, xmax);
  return true;
}

}  // namespace

// The references of a tetrahedral I panel: eq. (17) at beta = tau from the library's
// plans (block side r, N up to xmax), BB3's line and the paper's bound; sets the ranges.
void tet_refs(const Ctx& ctx, Panel& p, int r, double xmax) {
  Series e;
  e.label = "eq. (17) at β = τ: BB3 / TET blocks (library)";
  e.with = "lines";
  e.color = "#555555";
  e.dt = 4;
  for (double N = r; N <= xmax; N += double(r) * std::max(1.0, std::floor(xmax / r / 200))) {
    try {
      e.x.push_back(N);
      e.y.push_back(double(tdmaps::BB3::plan(tdmaps::i64(N), r).total) / double(tdmaps::TET_E::plan(tdmaps::i64(N), r).total));
    } catch (const std::exception&) {
      e.x.pop_back();
    }
  }
  p.series.push_back(e);
  p.hlines.push_back(HLine{1.0, "BB3 (I = 1)", "#000000", 1, 1.2});
  const Claim* bound = ctx.claim("003-map-6x");
  if (bound && bound->pv.numeric())
    p.hlines.push_back(HLine{bound->pv.lo, "paper: up to " + fmt_g(bound->pv.lo) + "× (003-map-6x)", "#d62728", 2, 1.4});
  p.xrange = std::make_pair(0.0, xmax * 1.02);
  p.yrange = std::make_pair(0.0, bound && bound->pv.numeric() ? bound->pv.lo * 1.1 : 6.6);
}

void tet_I(Ctx& ctx, const GpuData& g) {
  std::string why;
  const Table* dummy = g.get(results::layout::tet_dummy);
  const Table* three = g.get(results::layout::tet_threebody);
  for (const auto& [t, layout] : std::vector<std::pair<const Table*, const results::Layout*>>{{dummy, &results::layout::tet_dummy}, {three, &results::layout::tet_threebody}}) {
    const std::string file = layout->file;
    if (!t) why += (why.empty() ? "" : "; ") + g.reason(*layout);
    else if (!t->missing({"N", "map"}).empty())
      why += (why.empty() ? "" : "; ") + file + " lacks column(s) " + t->missing({"N", "map"});
  }
  if (dummy && !dummy->missing({"N", "map"}).empty()) dummy = nullptr;
  if (three && !three->missing({"N", "map"}).empty()) three = nullptr;
  if (!dummy && !three) return skip(ctx, "tet_I", &g, why);
  std::set<double> rhos;
  for (const Table* t : {dummy, three})
    if (t)
      for (double r : distinct(*t, "rho")) rhos.insert(r);
  if (rhos.empty()) rhos.insert(NAN);
  std::vector<double> order(rhos.begin(), rhos.end());
  std::sort(order.begin(), order.end(), [](double a, double b) { return (a == kRho3) != (b == kRho3) ? a == kRho3 : a > b; });
  bool first = true;
  for (double rho : order) {
    Figure f;
    f.name = first ? "tet_I" : "tet_I_rho" + fmt_int(rho);
    f.title = title_of("Tetrahedral map g(λ) vs the bounding box BB3, ρ = " + fmt_int(rho), &g);
    Slots slots;
    slots.list("panels");
    if (dummy)
      for (const std::string& form : col_values(*dummy, "form")) {
        Sel s;
        s.rho = rho;
        if (!form.empty()) s.eq["form"] = form;
        Panel p;
        Slots panel;
        panel.set("form", form).flag("three_body", false).list("curves");
        if (tet_panel(ctx, *dummy, s, "map-only kernel" + (form.empty() ? "" : ", form " + form), p, panel)) {
          f.panels.push_back(p);
          slots.list("panels").push_back(panel);
        }
      }
    if (three) {
      Sel s;
      s.rho = rho;
      Panel p;
      Slots panel;
      panel.set("form", "").flag("three_body", true).list("curves");
      if (tet_panel(ctx, *three, s, "three-body kernel", p, panel)) {
        f.panels.push_back(p);
        slots.list("panels").push_back(panel);
      }
    }
    if (f.panels.empty()) continue;
    f.width = f.panels.size() >= 3 ? 1700 : f.panels.size() == 2 ? 1300 : 900;
    f.height = 620;
    emit(ctx, f, &g, slots);
    first = false;
  }
  if (first) skip(ctx, "tet_I", &g, "no tetrahedral-map rows");
}

// The series of the layout figure: key ("map mode ...") -> (N, median linear/blocked time);
// map_of[key] and mode_of[key] are the key's map and mode (column mode; "" without it), *rho the block
// side used. "" or why the table cannot be used.
std::string layout_curves(const Table& t, std::map<std::string, Pts>& out, std::map<std::string, std::string>& map_of,
                          std::map<std::string, std::string>& mode_of, double* rho_used) {
  const std::string rc = t.first_of({"linear_over_blocked"});
  const std::string linear = tdmaps::LinearLayout3::name, blocked = tdmaps::BlockedLayout3::name;
  std::vector<std::string> groups;
  for (const char* c : {"map", "mode"})
    if (t.has(c)) groups.push_back(c);
  const double rho = t.has("rho") ? primary_rho(t) : NAN;
  *rho_used = rho;
  std::map<std::string, std::map<double, std::vector<double>>> by;  // series -> N -> ratios
  const auto key_of = [&](const TableRow& r) {
    std::string k;
    for (const std::string& c : groups) k += (k.empty() ? "" : " ") + r.s(c);
    return k.empty() ? std::string("linear / blocked") : k;
  };
  const auto usable = [&](const TableRow& r) {
    return (!std::isfinite(rho) || r.d("rho") == rho) && !(r.has("verified") && r.s("verified") == "0");
  };
  if (!rc.empty()) {
    for (const TableRow& r : t.rows())
      if (usable(r) && (!t.has("layout") || r.s("layout") == blocked) && std::isfinite(r.d(rc))) {
        by[key_of(r)][r.d("N")].push_back(r.d(rc));
        map_of[key_of(r)] = r.s("map");
        mode_of[key_of(r)] = r.s("mode");
      }
  } else if (t.has("layout") && t.has("median_ms")) {
    std::map<std::string, std::map<double, std::map<std::string, double>>> ms;
    for (const TableRow& r : t.rows())
      if (usable(r)) {
        ms[key_of(r)][r.d("N")][r.s("layout")] = r.d("median_ms");
        map_of[key_of(r)] = r.s("map");
        mode_of[key_of(r)] = r.s("mode");
      }
    for (const auto& [k, m] : ms)
      for (const auto& [n, l] : m)
        if (l.count(linear) && l.count(blocked) && l.at(blocked) > 0) by[k][n].push_back(l.at(linear) / l.at(blocked));
  } else {
    return "tet_layout.csv has neither linear_over_blocked nor layout + median_ms";
  }
  if (by.empty()) return "tet_layout.csv has no usable rows";
  for (const auto& [k, m] : by) {
    Pts q;
    for (const auto& [n, v] : m) q.emplace_back(n, median(v));
    out[k] = q;
  }
  return "";
}

void tet_layout(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "tet_layout", g, results::layout::tet_layout, {"N"});
  if (!t) return;
  std::map<std::string, Pts> by;
  std::map<std::string, std::string> map_of, mode_of;
  double rho = NAN;
  const std::string why = layout_curves(*t, by, map_of, mode_of, &rho);
  if (!why.empty()) return skip(ctx, "tet_layout", &g, why);
  Figure f;
  f.name = "tet_layout";
  f.width = 1000;
  f.title = title_of("Blocked vs linear layout of the tetrahedron" +
                         (std::isfinite(rho) ? ", ρ = " + fmt_int(rho) : std::string()), &g);
  Panel p;
  p.xlabel = "N";
  p.ylabel = "t_linear / t_blocked";
  p.key = "below";
  Slots slots;
  slots.list("curves");
  double xmax = 0;
  for (const auto& [k, q] : by) {
    Series s = map_series(map_of[k].empty() ? k : map_of[k], q, k);
    if (mode_of[k] == results::kBlockMode) {  // one thread per block maps: dashed, as in tet_I
      s.dt = 2;
      s.pt -= 1;
    }
    p.series.push_back(s);
    xmax = std::max(xmax, q.back().first);
    slots.add("curves").set("series", k).set("max", fmt(max_pt(q).second, 3)).set("max_n", fmt_int(max_pt(q).first));
  }
  p.hlines.push_back(HLine{1.0, "equal (1)", "#000000", 1, 1.2});
  if (const Claim* b = ctx.claim("003-layout-2x"))
    if (b->pv.numeric()) p.hlines.push_back(HLine{b->pv.lo, "paper: up to " + fmt_g(b->pv.lo) + "× (003-layout-2x)", "#d62728", 2, 1.4});
  p.xrange = std::make_pair(0.0, xmax * 1.02);
  f.panels.push_back(p);
  emit(ctx, f, &g, slots);
}

}  // namespace figs
