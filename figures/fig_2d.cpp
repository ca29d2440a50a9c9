// figures/fig_2d.cpp — one GPU's figures of the triangular domain: the square-root study
// (Fig. 3 left), the dummy kernel, EDM and collision detection (Fig. 5), I vs features, and
// the EDM roofline.
#include "figures.hpp"
#include "python_names.hpp"  // peers_edm.csv's impls (results::edm_peers), torch_peers.py's
#include "select.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace figs {
namespace {

// A panel of I against N: one series per map (exact rows; rows past a map's
// exact range, when present, as a dotted series of their own), BB's line, and the
// paper marks of `marks_fig` ("" = none).
Panel i_panel(const Ctx& ctx, const Table& t, const Sel& s, const std::string& title, const std::string& marks_fig,
              std::vector<std::string>* mark_ids) {
  Panel p;
  p.title = title;
  p.xlabel = "N";
  p.ylabel = kIlabel;
  p.key = "below";
  double xmax = 0;
  Sel all = s;
  all.exact_only = false;
  for (const std::string& m : maps_in(t, all)) {
    if (is_reference(m)) continue;
    const Pts e = curve(t, s, m);
    if (!e.empty()) p.series.push_back(map_series(m, e));
    if (t.has("exact")) {
      Pts ie;
      for (const TableRow& r : t.rows())
        if (r.s("map") == m && selected(r, all) && r.s("exact") == "0" && std::isfinite(row_improvement(r)))
          ie.emplace_back(r.d("N"), row_improvement(r));
      std::sort(ie.begin(), ie.end());
      if (!ie.empty()) {
        Series si = map_series(m, ie, m + " (past exact range)");
        si.dt = 3;
        si.pt = si.pt - 1;
        p.series.push_back(si);
      }
    }
    for (const TableRow& r : t.rows())
      if (r.s("map") == m && selected(r, all)) xmax = std::max(xmax, r.d("N"));
  }
  p.hlines.push_back(bb_line());
  double xr = xmax > 0 ? xmax : 30720;
  if (!marks_fig.empty()) xr = add_marks(p, ctx, marks_fig, xr, mark_ids);
  p.xrange = std::make_pair(0.0, xr * 1.02);
  return p;
}

// The slots of the partial i_reading (figures/captions.template.md) for the maps of a selection: large_n, maps
// (map, median over N ≥ large_n or "", max, max_n) and highest (the map of the highest median, or "").
void i_slots(const Table& t, const Sel& s, Slots& out) {
  std::string best;
  double bv = NAN;
  out.set("large_n", fmt_int(kLargeN)).list("maps");
  for (const std::string& m : maps_in(t, s)) {
    if (is_reference(m)) continue;
    const Pts p = curve(t, s, m);
    if (p.empty()) continue;
    const double med = med_from(p, kLargeN);
    const auto mx = max_pt(p);
    out.add("maps")
        .set("map", m)
        .set("median", std::isfinite(med) ? fmt(med, 3) : "")
        .set("max", fmt(mx.second, 3))
        .set("max_n", fmt_int(mx.first));
    if (std::isfinite(med) && !(med <= bv)) { bv = med; best = m; }
  }
  out.set("highest", best);
}

// The paper marks' ids as the list `marks` (sorted, each once).
void mark_slots(std::vector<std::string> ids, Slots& out) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  out.list("marks");
  for (const std::string& id : ids) out.add("marks").set("id", id);
}

std::vector<double> rhos_of(const Table& t, const Sel& base) {
  std::set<double> r;
  Sel s = base;
  s.rho = NAN;
  s.exact_only = false;
  for (const TableRow& row : t.rows())
    if (selected(row, s) && std::isfinite(row.d("rho")) && row.d("rho") > 0) r.insert(row.d("rho"));
  return std::vector<double>(r.begin(), r.end());
}


// Panels of I vs N, one per rho (rho 16 first); the paper marks go on rho 16.
// Its caption's slots (features, dim, ...) come in `slots`; the reading's (the partial i_vs_n) are added here.
void draw_i_vs_n(Ctx& ctx, const GpuData& g, const Table& t, Sel base, const std::string& name,
                 const std::string& title, const std::string& marks_fig, Slots slots = {}) {
  Figure f;
  f.name = name;
  f.title = title_of(title, &g);
  std::vector<double> rhos = rhos_of(t, base);
  if (!t.has("rho")) rhos = {NAN};
  std::sort(rhos.begin(), rhos.end(), [](double a, double b) { return (a == kRho) != (b == kRho) ? a == kRho : a < b; });
  std::vector<std::string> ids;
  slots.list("panels");
  for (double rho : rhos) {
    Sel s = base;
    s.rho = rho;
    const std::string rl = std::isfinite(rho) ? "ρ = " + fmt_int(rho) : "all ρ";
    Panel p = i_panel(ctx, t, s, rl, rho == kRho ? marks_fig : "", &ids);
    bool any = false;
    for (const Series& se : p.series) any = any || !se.x.empty();
    if (!any) continue;
    f.panels.push_back(p);
    i_slots(t, s, slots.add("panels").set("rho", std::isfinite(rho) ? fmt_int(rho) : ""));
  }
  if (f.panels.empty()) {
    skip(ctx, name, &g, t.path + " has no rows for this selection");
    return;
  }
  if (f.panels.size() > 1) f.width = 1300, f.height = 600;
  mark_slots(ids, slots);
  emit(ctx, f, &g, slots);
}

}  // namespace

// ---- Fig. 3 --------------------------------------------------------------------------------
void fig3_sqrt(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "fig3_sqrt", g, results::layout::sqrt_, {"N", "map"});
  if (!t) return;
  Figure f;
  f.name = "fig3_sqrt";
  f.title = title_of("Square roots of g(λ): I of LTM-X/N/R/D/E vs BB, dummy kernel, ρ = 16", &g);
  std::vector<std::string> forms = t->has("form") ? values_of(*t, "form") : std::vector<std::string>{""};
  const std::string store = pick_rows::form_name(pick_rows::Form::Store), cond = pick_rows::form_name(pick_rows::Form::Cond);
  std::sort(forms.begin(), forms.end(), [&store](const std::string& a, const std::string& b) {
    return (a == store) != (b == store) ? a == store : a < b;
  });
  Slots slots;
  slots.list("panels");
  std::vector<std::string> ids;
  for (const std::string& form : forms) {
    Sel s;
    if (!form.empty()) s.eq["form"] = form;
    const std::string label = form == store ? "form " + store + " (the papers' dummy: every thread stores i+j to one address)"
                              : form == cond ? "form " + cond + " (the store never happens: map cost alone)"
                                             : "all rows";
    Panel p = i_panel(ctx, *t, s, label, form == store || form.empty() ? "fig3_sqrt" : "", &ids);
    bool any = false;
    for (const Series& se : p.series) any = any || !se.x.empty();
    if (!any) continue;
    f.panels.push_back(p);
    i_slots(*t, s, slots.add("panels").set("form", form));
  }
  if (f.panels.empty()) return skip(ctx, "fig3_sqrt", &g, "sqrt.csv has no rows at ρ = 16");
  if (f.panels.size() > 1) f.width = 1300, f.height = 600;
  mark_slots(ids, slots);
  emit(ctx, f, &g, slots);
  // ρ = 32, when measured
  const Sel s32 = pick_rows::dummy(pick_rows::Form::Store, true, 32);
  if (!curve(*t, s32, tdmaps::LTM_X::name).empty() || !curve(*t, s32, tdmaps::LTM_R::name).empty() ||
      !curve(*t, s32, tdmaps::LTM_E::name).empty()) {
    Figure f2;
    f2.name = "fig3_sqrt_rho32";
    f2.title = title_of("Square roots of g(λ), ρ = 32, form store", &g);
    f2.panels.push_back(i_panel(ctx, *t, s32, "ρ = 32, form store", "", nullptr));
    Slots slots;
    i_slots(*t, s32, slots);
    emit(ctx, f2, &g, slots);
  }
}

// ---- Fig. 5 ---------------------------------------------------------------------------------
void fig5_dummy(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "fig5_dummy", g, results::layout::dummy, {"N", "map"});
  if (!t) return;
  const Sel s = pick_rows::dummy(pick_rows::Form::Store);
  draw_i_vs_n(ctx, g, *t, s, "fig5_dummy", "Dummy kernel (form store): I of every map vs BB", "fig5_dummy");
  if (t->has("form")) {
    const Sel c = pick_rows::dummy(pick_rows::Form::Cond);
    if (!curve(*t, c, tdmaps::RB::name).empty() || !maps_in(*t, c).empty())
      draw_i_vs_n(ctx, g, *t, c, "fig5_dummy_cond", "Dummy kernel (form cond, no store): I of every map vs BB", "");
  }
}

void fig5_edm(Ctx& ctx, const GpuData& g, int features) {
  const std::string name = "fig5_edm_d" + std::to_string(features);
  const Table* t = need(ctx, name, g, results::layout::edm, {"N", "map"});
  if (!t) return;
  for (const char* layout : {edm_variant::full, edm_variant::packed}) {
    const Sel s = pick_rows::edm(layout, features);
    const bool full = std::string(layout) == edm_variant::full;
    if (maps_in(*t, s).empty() && !full) continue;
    draw_i_vs_n(ctx, g, *t, s, full ? name : name + "_packed",
                "EDM, " + std::to_string(features) + " feature(s), " + layout + " output: I of every map vs BB",
                full ? name : "", Slots().set("features", std::to_string(features)));
  }
}

void fig5_collision(Ctx& ctx, const GpuData& g, const std::string& dim) {
  const std::string name = "fig5_collision_" + dim;
  const Table* t = need(ctx, name, g, results::layout::collision, {"N", "map"});
  if (!t) return;
  // Two kernel styles, two experiments, BB in each (collision.csv column test): the papers'
  // shared-memory kernel for every blockwise map (rb-b is RB folded in block space), and the
  // kernel without shared memory for every map.
  const Sel s = pick_rows::collision(pick_rows::Kernel::Shared, dim);
  draw_i_vs_n(ctx, g, *t, s, name, "Collision detection " + dim + " (shared memory): I of every map vs BB", name,
              Slots().set("dim", dim));
  const Sel d = pick_rows::collision(pick_rows::Kernel::Direct, dim);
  if (!maps_in(*t, d).empty())
    draw_i_vs_n(ctx, g, *t, d, name + "_direct",
                "Collision detection " + dim + " without shared memory: I of every map vs BB (same kernel)", "",
                Slots().set("dim", dim));
}

void fig5_features(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "fig5_features", g, results::layout::edm, {"N", "map", "features"});
  if (!t) return;
  Figure f;
  f.name = "fig5_features";
  f.title = title_of("EDM: I vs number of features at the largest N, ρ = 16", &g);
  Slots slots;
  slots.list("layouts");
  for (const char* layout : {edm_variant::full, edm_variant::packed}) {
    Panel p;
    p.title = std::string(layout) + " output";
    p.xlabel = "features";
    p.ylabel = kIlabel;
    p.key = "below";
    p.xrange = std::make_pair(0.5, 4.5);
    p.xtic = 1;
    Sel s;
    s.eq["variant"] = layout;
    Slots panel;
    panel.set("layout", layout).list("maps");
    for (const std::string& m : maps_in(*t, s)) {
      if (is_reference(m)) continue;
      Pts q;
      double Nused = NAN;
      for (int k = 1; k <= 4; ++k) {
        Sel sk = s;
        sk.eq["features"] = std::to_string(k);
        const auto lp = last_pt(curve(*t, sk, m));
        if (std::isfinite(lp.second)) {
          q.emplace_back(k, lp.second);
          Nused = std::isfinite(Nused) ? std::min(Nused, lp.first) : lp.first;
        }
      }
      if (q.empty()) continue;
      p.series.push_back(map_series(m, q, m + " (N = " + fmt_int(Nused) + ")"));
      panel.add("maps").set("map", m).set("fewest", fmt(q.front().second, 3)).set("most", fmt(q.back().second, 3));
    }
    if (p.series.empty()) continue;
    p.hlines.push_back(bb_line());
    f.panels.push_back(p);
    slots.list("layouts").push_back(panel);
  }
  if (f.panels.empty()) return skip(ctx, "fig5_features", &g, "edm.csv has no rows at ρ = 16");
  if (f.panels.size() > 1) f.width = 1300, f.height = 600;
  emit(ctx, f, &g, slots);
}

// ---- EDM roofline -------------------------------------------------------------------------------
void edm_roofline(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "edm_roofline", g, results::layout::edm, {"N", "map", "GBps"});
  if (!t) return;
  std::vector<double> bw;
  for (const TableRow& r : t->rows())
    if (r.s("map") == results::kWriteBwMap && std::isfinite(r.d("GBps"))) bw.push_back(r.d("GBps"));
  const double wbw = median(bw);
  const std::vector<double> feats = t->has("features") ? distinct(*t, "features") : std::vector<double>{};
  double feat = 4;
  if (!feats.empty() && std::find(feats.begin(), feats.end(), 4.0) == feats.end()) feat = feats.back();
  const Table* peers = g.get(results::layout::peers_edm);
  Figure f;
  f.name = "edm_roofline";
  f.title = title_of("EDM output bandwidth vs N (" + fmt_int(feat) + " features, ρ = 16)", &g);
  f.width = 1300;
  Slots slots;
  slots.set("write_bw", std::isfinite(wbw) ? fmt(wbw, 0) : "").set("write_bw_map", results::kWriteBwMap).list("layouts");
  for (const char* layout : {edm_variant::full, edm_variant::packed}) {
    const Sel s = pick_rows::edm(layout, int(feat));
    Panel p;
    p.title = std::string(layout) + " output";
    p.xlabel = "N";
    p.ylabel = "GB/s written";
    p.key = "below";  // off the data: the curves reach the bottom right corner (issue #28)
    double xmax = 0;
    Slots panel;
    panel.set("layout", layout).list("rows");
    for (const std::string& m : maps_in(*t, s)) {
      if (m == results::kWriteBwMap) continue;
      const Pts q = curve(*t, s, m, "GBps");
      if (q.empty()) continue;
      p.series.push_back(map_series(m, q));
      xmax = std::max(xmax, q.back().first);
      panel.add("rows")
          .set("name", m)
          .set("gbps", fmt(q.back().second, 0))
          .set("pct", std::isfinite(wbw) ? fmt(100 * q.back().second / wbw, 0) : "");
    }
    if (peers && peers->has("impl") && peers->has("N") && peers->has("GBps")) {
      namespace ep = results::edm_peers;
      for (const std::string& impl : values_of(*peers, "impl")) {
        // the impl's declared layout, for a file without the layout column
        const char* declared = nullptr;
        for (const ep::Peer& e : ep::peers)
          if (impl == e.impl) declared = e.layout;
        std::map<double, std::vector<double>> by;
        for (const TableRow& r : peers->rows()) {
          if (r.s("impl") != impl) continue;
          if (peers->has("layout") ? r.s("layout") != layout : !declared || std::string(declared) != layout) continue;
          if (peers->has("features") && std::isfinite(r.d("features")) && r.d("features") != feat) continue;
          if (std::isfinite(r.d("GBps"))) by[r.d("N")].push_back(r.d("GBps"));
        }
        Pts q;
        for (const auto& [n, v] : by) q.emplace_back(n, median(v));
        if (q.empty()) continue;
        Series se = map_series(impl, q, "peer: " + impl);
        const bool pd = impl == ep::pdist.impl, direct = impl == ep::cdist_direct.impl;
        se.color = pd ? "#000000" : direct ? "#999999" : "#555555";
        se.dt = 2;
        se.pt = pd ? 6 : direct ? 4 : 8;
        p.series.push_back(se);
        xmax = std::max(xmax, q.back().first);
        panel.add("rows").set("name", impl).set("gbps", fmt(q.back().second, 0)).set("pct", "");
      }
    }
    if (p.series.empty()) continue;
    if (std::isfinite(wbw)) p.hlines.push_back(HLine{wbw, "measured write bandwidth (write_bw)", "#d62728", 2, 1.6});
    p.xrange = std::make_pair(0.0, xmax * 1.02);
    p.yrange = std::make_pair(0.0, std::isfinite(wbw) ? wbw * 1.15 : NAN);
    if (!std::isfinite(wbw)) p.yrange.reset();
    f.panels.push_back(p);
    slots.list("layouts").push_back(panel);
  }
  if (f.panels.empty()) return skip(ctx, "edm_roofline", &g, "edm.csv has no GBps rows at ρ = 16");
  emit(ctx, f, &g, slots);
}

}  // namespace figs
