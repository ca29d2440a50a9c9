// figures/fig_compare.cpp — the comparison figures gpus_<name>: a per-GPU figure family
// with every GPU in one figure (two GPU folders or more).
#include "figures.hpp"
#include "select.hpp"
#include "registry/map_names.hpp"  // a map's family by name

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace figs {
namespace {

// ---- every GPU in one figure ------------------------------------------------------------------------
// figures/out/gpus_<name>.{png,svg}: the figure family <name> with every GPU that has its data
// overlaid: colour = map (as in the per-GPU figures), line = GPU (the first GPU solid with
// filled marks, the second dashed with open marks, then dotted, dash-dot, ...). Drawn when at
// least two GPU folders are read; with one, an old comparison file is removed and nothing is
// recorded (the per-GPU figure says the same).
struct GpuTable {
  const GpuData* g;
  const Table* t;
};

int gpu_dt(size_t k) { return int(k % 5) + 1; }  // gnuplot dash types 1..5
std::string gpu_dash(size_t k) {
  static const char* w[] = {"solid", "dashed", "dotted", "dash-dot", "dash-dot-dot"};
  return w[k % 5];
}
int open_pt(int pt) { return pt >= 5 && pt % 2 == 1 ? pt - 1 : pt; }  // 5/4, 7/6, 9/8, 11/10, 13/12

// The GPU's name from its metadata, with the slug when two folders carry the same name.
std::string gpu_label(const Ctx& ctx, const GpuData& g) {
  const std::string n = g.name();
  int same = 0;
  for (const GpuData& h : ctx.gpus) same += h.name() == n;
  return same > 1 ? n + " [" + g.slug + "]" : n;
}

// A map's series for a comparison figure: the map's colour, but a -fast variant (dashed with
// open marks in the per-GPU figures, where dashes do not mean a GPU) is darker and filled.
Series cmp_series(const std::string& m, const Pts& q) {
  Series s = map_series(m, q);
  const std::optional<tdmaps::named_map> n = tdmaps::map_named(m);
  if (n && n->fast && s.color.size() == 7) {
    char b[8];
    const auto ch = [&](int i) { return int(std::stoul(s.color.substr(1 + 2 * i, 2), nullptr, 16) * 0.55); };
    std::snprintf(b, sizeof b, "#%02x%02x%02x", ch(0), ch(1), ch(2));
    s.color = b;
    s.pt = s.pt + 1;
  }
  s.dt = 1;
  return s;
}

void style_gpu(Series& s, size_t k) {
  s.dt = gpu_dt(k);
  if (k > 0) s.pt = open_pt(s.pt);
}

// Legend entries (black lines drawing nothing) naming the line of each GPU.
void gpu_keys(const Ctx& ctx, Panel& p, const std::vector<GpuTable>& gs) {
  for (size_t k = 0; k < gs.size(); ++k) {
    Series s;
    s.label = gpu_label(ctx, *gs[k].g) + " (" + gpu_dash(k) + ")";
    s.color = "#000000";
    s.pt = 7;
    style_gpu(s, k);
    p.series.push_back(s);
  }
}

std::string cmp_title(const Ctx& ctx, const std::string& what, const std::vector<GpuTable>& gs) {
  std::vector<std::string> v;
  for (size_t k = 0; k < gs.size(); ++k) v.push_back(gpu_label(ctx, *gs[k].g) + " (" + gpu_dash(k) + ")");
  return what + " — " + join(v, " vs ");
}

void remove_old(const Ctx& ctx, const std::string& name) {
  std::error_code ec;
  for (const char* ext : {".png", ".svg"})
    if (fs::remove(fs::path(ctx.out) / (name + ext), ec))
      std::cerr << "removed stale " << (fs::path(ctx.out) / (name + ext)).string() << "\n";
}

// The GPUs whose `file` has the columns and rows a comparison needs (in ctx.gpus' order);
// false (after removing an old file, and a notice when there are several GPUs) when fewer than two.
bool cmp_gpus(Ctx& ctx, const std::string& name, const results::Layout& layout, std::initializer_list<const char*> cols,
              std::vector<GpuTable>& gs) {
  const std::string file = layout.file;
  std::vector<std::string> why;
  for (const GpuData& g : ctx.gpus) {
    const Table* t = g.get(layout);
    if (!t) why.push_back(g.slug + ": " + g.reason(layout));
    else if (!t->missing(cols).empty()) why.push_back(g.slug + ": " + file + " lacks column(s) " + t->missing(cols));
    else if (t->size() == 0) why.push_back(g.slug + ": " + file + " has no rows");
    else gs.push_back(GpuTable{&g, t});
  }
  if (gs.size() >= 2) return true;
  if (ctx.gpus.size() < 2) {
    remove_old(ctx, name);
    return false;
  }
  skip(ctx, name, nullptr, "needs two GPUs with " + file + " (" + join(why, "; ") + ")");
  return false;
}

// One value per GPU as the list `values` of `out` (gpu: its label, value: the number, "—" where it has none).
void gpu_vals(const std::vector<std::string>& labels, const std::vector<double>& v, Slots& out) {
  out.list("values");
  for (size_t k = 0; k < v.size(); ++k)
    out.add("values").set("gpu", labels[k]).set("value", std::isfinite(v[k]) ? fmt(v[k], 3) : "—");
}

std::vector<std::string> labels_of(const Ctx& ctx, const std::vector<GpuTable>& gs) {
  std::vector<std::string> v;
  for (const GpuTable& x : gs) v.push_back(gpu_label(ctx, *x.g));
  return v;
}

// The GPUs' labels as the list `gpus` of `out` (gpu), in the figure's order.
void gpu_list(const std::vector<std::string>& labels, Slots& out) {
  out.list("gpus");
  for (const std::string& l : labels) out.add("gpus").set("gpu", l);
}

struct CmpPanel {
  Sel sel;
  std::string title, marks_fig;
};

// I against N of every map (exact rows) on every GPU, one panel per selection; the caption's slots of the
// figure's own (features, dim) come in `slots`.
void cmp_i_vs_n(Ctx& ctx, const std::string& name, const results::Layout& layout, const std::vector<CmpPanel>& panels,
                const std::string& what, Slots slots = {}) {
  const std::string file = layout.file;
  std::vector<GpuTable> gs;
  if (!cmp_gpus(ctx, name, layout, {"N", "map"}, gs)) return;
  const std::vector<std::string> labels = labels_of(ctx, gs);
  Figure f;
  f.name = name;
  f.title = cmp_title(ctx, what, gs);
  std::vector<std::string> ids;
  gpu_list(labels, slots);
  slots.set("large_n", fmt_int(kLargeN)).list("panels");
  for (const CmpPanel& cp : panels) {
    Panel p;
    p.title = cp.title;
    p.xlabel = "N";
    p.ylabel = kIlabel;
    p.key = "below";
    gpu_keys(ctx, p, gs);
    std::vector<std::string> maps;
    for (const GpuTable& x : gs)
      for (const std::string& m : maps_in(*x.t, cp.sel))
        if (!is_reference(m) && std::find(maps.begin(), maps.end(), m) == maps.end()) maps.push_back(m);
    maps = order_maps(maps);
    double xmax = 0;
    bool any = false;
    Slots panel;
    panel.set("panel", cp.title).list("maps");
    for (const std::string& m : maps) {
      std::vector<double> med;
      bool labelled = false;
      for (size_t k = 0; k < gs.size(); ++k) {
        const Pts e = curve(*gs[k].t, cp.sel, m);
        med.push_back(med_from(e, kLargeN));
        if (e.empty()) continue;
        Series s = cmp_series(m, e);
        s.label = labelled ? "" : m;
        labelled = true;
        style_gpu(s, k);
        p.series.push_back(s);
        xmax = std::max(xmax, e.back().first);
        any = true;
      }
      gpu_vals(labels, med, panel.add("maps").set("map", m));
    }
    if (!any) continue;
    p.hlines.push_back(bb_line());
    double xr = xmax > 0 ? xmax : 30720;
    if (!cp.marks_fig.empty()) xr = add_marks(p, ctx, cp.marks_fig, xr, &ids);
    p.xrange = std::make_pair(0.0, xr * 1.02);
    f.panels.push_back(p);
    slots.list("panels").push_back(panel);
  }
  if (f.panels.empty()) return skip(ctx, name, nullptr, file + " has no rows for this selection on any GPU");
  f.width = f.panels.size() > 1 ? 1400 : 1000;
  f.height = 680;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  slots.list("marks");
  for (const std::string& id : ids) slots.add("marks").set("id", id);
  emit(ctx, f, nullptr, slots);
}


const std::string kStore = "form store (the papers' dummy)", kCond = "form cond (map cost alone)";
}  // namespace

void cmp_fig3_sqrt(Ctx& ctx) {
  cmp_i_vs_n(ctx, "gpus_fig3_sqrt", results::layout::sqrt_,
             {{pick_rows::dummy(pick_rows::Form::Store), "ρ = 16, " + kStore, "fig3_sqrt"}, {pick_rows::dummy(pick_rows::Form::Cond), "ρ = 16, " + kCond, ""}},
             "Square roots of g(λ): I of LTM-X/N/R/D/E vs BB");
}

void cmp_fig5_dummy(Ctx& ctx) {
  cmp_i_vs_n(ctx, "gpus_fig5_dummy", results::layout::dummy, {{pick_rows::dummy(pick_rows::Form::Store), "ρ = 16, " + kStore, "fig5_dummy"}},
             "Dummy kernel (form store): I of every map vs BB");
}

void cmp_fig5_dummy_cond(Ctx& ctx) {
  cmp_i_vs_n(ctx, "gpus_fig5_dummy_cond", results::layout::dummy, {{pick_rows::dummy(pick_rows::Form::Cond), "ρ = 16, " + kCond, ""}},
             "Dummy kernel (form cond, no store): I of every map vs BB");
}

void cmp_fig5_edm(Ctx& ctx, int d) {
  const std::string name = "fig5_edm_d" + std::to_string(d), fs_ = std::to_string(d);
  cmp_i_vs_n(ctx, "gpus_" + name, results::layout::edm,
             {{pick_rows::edm(results::edm_variant::full, std::stoi(fs_)), "ρ = 16, full N×N output", name},
              {pick_rows::edm(results::edm_variant::packed, std::stoi(fs_)), "ρ = 16, packed triangle", ""}},
             "EDM, " + fs_ + " feature(s): I of every map vs BB", Slots().set("features", fs_));
}

void cmp_fig5_collision(Ctx& ctx, const std::string& dim) {
  const std::string name = std::string("fig5_collision_") + dim;
  cmp_i_vs_n(ctx, "gpus_" + name, results::layout::collision, {{pick_rows::collision(pick_rows::Kernel::Shared, dim), "ρ = 16", name}},
             std::string("Collision detection ") + dim + " (shared memory): I of every map vs BB", Slots().set("dim", dim));
}

void cmp_tet_I(Ctx& ctx) {
  // the rho of each GPU's tet_dummy / tet_threebody, as in tet_I: 8 first ("gpus_tet_I"), then the others
  std::vector<GpuTable> gd, g3;
  std::set<double> rhos;
  for (const GpuData& g : ctx.gpus) {
    for (const auto& [layout, into] : {std::make_pair(&results::layout::tet_dummy, &gd), std::make_pair(&results::layout::tet_threebody, &g3)}) {
      const Table* t = g.get(*layout);
      if (t && t->missing({"N", "map"}).empty() && t->size() > 0) {
        into->push_back(GpuTable{&g, t});
        for (double r : distinct(*t, "rho")) rhos.insert(r);
      }
    }
  }
  std::vector<double> order(rhos.begin(), rhos.end());
  std::sort(order.begin(), order.end(), [](double a, double b) { return (a == kRho3) != (b == kRho3) ? a == kRho3 : a > b; });
  if (ctx.gpus.size() < 2 || (gd.size() < 2 && g3.size() < 2)) {
    // an old file of every name this family can have
    std::error_code ec;
    if (fs::is_directory(ctx.out, ec))
      for (const auto& e : fs::directory_iterator(ctx.out, ec)) {
        const std::string n = e.path().stem().string();
        if (n == "gpus_tet_I" || n.rfind("gpus_tet_I_rho", 0) == 0) remove_old(ctx, n);
      }
    if (ctx.gpus.size() >= 2) skip(ctx, "gpus_tet_I", nullptr, "needs two GPUs with tet_dummy.csv or tet_threebody.csv");
    return;
  }
  static const std::vector<std::string> palette = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e",
                                                   "#9467bd", "#8c564b", "#17becf", "#e377c2"};
  bool first = true;
  for (double rho : order) {
    const std::string name = first ? "gpus_tet_I" : "gpus_tet_I_rho" + fmt_int(rho);
    first = false;
    std::vector<GpuTable> all = gd.size() >= 2 ? gd : g3;
    Figure f;
    f.name = name;
    f.title = cmp_title(ctx, "Tetrahedral map g(λ) vs BB3, ρ = " + fmt_int(rho), all);
    Slots slots;
    gpu_list(labels_of(ctx, all), slots);
    slots.list("panels");
    // panels: each dummy form, then the three-body kernel
    std::vector<std::pair<std::string, std::pair<const std::vector<GpuTable>*, std::string>>> kinds;
    if (gd.size() >= 2) {
      std::vector<std::string> forms;
      for (const GpuTable& x : gd)
        for (const std::string& fm : col_values(*x.t, "form"))
          if (std::find(forms.begin(), forms.end(), fm) == forms.end()) forms.push_back(fm);
      for (const std::string& fm : forms)
        kinds.push_back({"map-only kernel" + (fm.empty() ? "" : ", form " + fm), {&gd, fm}});
    }
    if (g3.size() >= 2) kinds.push_back({"three-body kernel", {&g3, std::string("")}});
    for (const auto& [title, src] : kinds) {
      const std::vector<GpuTable>& gs = *src.first;
      const std::vector<std::string> labels = labels_of(ctx, gs);
      Sel s;
      s.rho = rho;
      if (!src.second.empty()) s.eq["form"] = src.second;
      Panel p;
      p.title = title;
      p.xlabel = "N";
      p.ylabel = "I = t_BB3 / t_map";
      p.key = "below";
      gpu_keys(ctx, p, gs);
      struct Curve {
        std::string map, mode, label;  // label: the key's, "map (mode)"
      };
      std::vector<Curve> keys;  // in first-seen order
      double xmax = 0;
      std::map<std::string, std::vector<std::pair<size_t, Pts>>> by;  // by label
      for (size_t k = 0; k < gs.size(); ++k)
        for (const std::string& m : maps_in(*gs[k].t, s)) {
          if (tdmaps::in_family(m, tdmaps::map_family::bb)) continue;  // the bounding cube
          for (const std::string& mode : col_values(*gs[k].t, "mode")) {
            Sel sm = s;
            if (!mode.empty()) sm.eq["mode"] = mode;
            const Pts q = curve(*gs[k].t, sm, m);
            if (q.empty()) continue;
            const std::string key = m + (mode.empty() ? "" : " (" + mode + ")");
            if (!by.count(key)) keys.push_back(Curve{m, mode, key});
            by[key].emplace_back(k, q);
          }
        }
      if (keys.empty()) continue;
      Slots panel;
      panel.set("panel", title).list("curves");
      for (size_t ki = 0; ki < keys.size(); ++ki) {
        std::vector<double> mx(gs.size(), NAN);
        bool labelled = false;
        for (const auto& [k, q] : by[keys[ki].label]) {
          Series se;
          se.label = labelled ? "" : keys[ki].label;
          labelled = true;
          for (const auto& [x, y] : q) se.x.push_back(x), se.y.push_back(y);
          se.color = palette[ki % palette.size()];
          se.pt = 7 + 2 * int(ki % 4);  // 7, 9, 11, 13 (filled; open for the later GPUs)
          style_gpu(se, k);
          p.series.push_back(se);
          xmax = std::max(xmax, q.back().first);
          mx[k] = last_pt(q).second;
        }
        gpu_vals(labels, mx, panel.add("curves").set("map", keys[ki].map).set("mode", keys[ki].mode));
      }
      tet_refs(ctx, p, std::isfinite(rho) ? int(rho) : kRho3, xmax);
      f.panels.push_back(p);
      slots.list("panels").push_back(panel);
    }
    if (f.panels.empty()) {
      skip(ctx, name, nullptr, "no tetrahedral-map rows at ρ = " + fmt_int(rho) + " on two GPUs");
      continue;
    }
    f.width = f.panels.size() >= 3 ? 1800 : f.panels.size() == 2 ? 1400 : 1000;
    f.height = 700;
    emit(ctx, f, nullptr, slots);
  }
}

void cmp_tet_layout(Ctx& ctx) {
  std::vector<GpuTable> gs;
  if (!cmp_gpus(ctx, "gpus_tet_layout", results::layout::tet_layout, {"N"}, gs)) return;
  const std::vector<std::string> labels = labels_of(ctx, gs);
  static const std::vector<std::string> palette = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e",
                                                   "#9467bd", "#8c564b", "#17becf", "#e377c2"};
  Panel p;
  p.xlabel = "N";
  p.ylabel = "t_linear / t_blocked";
  p.key = "below";
  gpu_keys(ctx, p, gs);
  std::vector<std::string> keys, rhos;
  std::map<std::string, std::vector<std::pair<size_t, Pts>>> by;
  for (size_t k = 0; k < gs.size(); ++k) {
    std::map<std::string, Pts> c;
    std::map<std::string, std::string> map_of, mode_of;
    double rho = NAN;
    const std::string why = layout_curves(*gs[k].t, c, map_of, mode_of, &rho);
    if (!why.empty()) {
      ctx.notice("gpus_tet_layout [" + gs[k].g->slug + "]: " + why);
      continue;
    }
    rhos.push_back(labels[k] + (std::isfinite(rho) ? " ρ = " + fmt_int(rho) : ""));
    for (const auto& [key, q] : c) {
      if (!by.count(key)) keys.push_back(key);
      by[key].emplace_back(k, q);
    }
  }
  if (keys.empty()) return skip(ctx, "gpus_tet_layout", nullptr, "tet_layout.csv has no usable rows on two GPUs");
  double xmax = 0;
  Slots slots;
  gpu_list(labels, slots);
  slots.list("curves");
  for (size_t ki = 0; ki < keys.size(); ++ki) {
    std::vector<double> mx(gs.size(), NAN);
    bool labelled = false;
    for (const auto& [k, q] : by[keys[ki]]) {
      Series se;
      se.label = labelled ? "" : keys[ki];
      labelled = true;
      for (const auto& [x, y] : q) se.x.push_back(x), se.y.push_back(y);
      se.color = palette[ki % palette.size()];
      se.pt = 7 + 2 * int(ki % 4);
      style_gpu(se, k);
      p.series.push_back(se);
      xmax = std::max(xmax, q.back().first);
      mx[k] = max_pt(q).second;
    }
    gpu_vals(labels, mx, slots.add("curves").set("series", keys[ki]));
  }
  p.hlines.push_back(HLine{1.0, "equal (1)", "#000000", 1, 1.2});
  if (const Claim* b = ctx.claim("003-layout-2x"))
    if (b->pv.numeric()) p.hlines.push_back(HLine{b->pv.lo, "paper: up to " + fmt_g(b->pv.lo) + "× (003-layout-2x)", "#d62728", 2, 1.4});
  p.xrange = std::make_pair(0.0, xmax * 1.02);
  {
    std::set<std::string> rs;
    for (const std::string& r : rhos) rs.insert(r.substr(r.find("ρ") == std::string::npos ? r.size() : r.find("ρ")));
    p.title = rs.size() == 1 ? *rs.begin() : join(rhos, ", ");  // "ρ = 8" when every GPU used the same
  }
  Figure f;
  f.name = "gpus_tet_layout";
  f.width = 1100;
  f.height = 680;
  f.title = cmp_title(ctx, "Blocked vs linear layout of the tetrahedron", gs);
  f.panels.push_back(p);
  emit(ctx, f, nullptr, slots);
}

void cmp_sdh_scaling(Ctx& ctx) {
  std::vector<GpuTable> gs;
  if (!cmp_gpus(ctx, "gpus_sdh_scaling", results::layout::sdh, {"impl", "N"}, gs)) return;
  const std::vector<std::string> labels = labels_of(ctx, gs);
  Panel p;
  p.xlabel = "N (points)";
  p.ylabel = "pairs / s";
  p.logx = p.logy = true;
  p.key = "below";
  gpu_keys(ctx, p, gs);
  std::vector<std::string> impls;
  std::map<std::string, std::vector<std::pair<size_t, Pts>>> by;
  for (size_t k = 0; k < gs.size(); ++k)
    for (const auto& [impl, q] : sdh_curves(*gs[k].t)) {
      if (!by.count(impl)) impls.push_back(impl);
      by[impl].emplace_back(k, q);
    }
  if (impls.empty()) return skip(ctx, "gpus_sdh_scaling", nullptr, "sdh.csv has no pairs_per_s / median_ms on two GPUs");
  double xlo = INFINITY, xhi = 0;
  Slots slots;
  gpu_list(labels, slots);
  slots.list("impls");
  for (const std::string& impl : impls) {
    Slots& item = slots.add("impls");
    item.set("impl", impl).list("values");
    bool labelled = false;
    for (const auto& [k, q] : by[impl]) {
      const std::string slot = sdh_slot(impl);
      Series s = map_series(slot.empty() ? impl : slot, q);
      s.label = labelled ? "" : impl;
      labelled = true;
      style_gpu(s, k);
      p.series.push_back(s);
      xlo = std::min(xlo, q.front().first);
      xhi = std::max(xhi, q.back().first);
      item.add("values").set("gpu", labels[k]).set("pairs_s", fmt_g(q.back().second, 3)).set("n", fmt_int(q.back().first));
    }
  }
  p.xrange = std::make_pair(xlo / 1.25, xhi * 1.25);
  Figure f;
  f.name = "gpus_sdh_scaling";
  f.width = 1100;
  f.height = 720;
  f.title = cmp_title(ctx, "Spatial distance histogram: pairs per second vs N", gs);
  f.panels.push_back(p);
  emit(ctx, f, nullptr, slots);
}

}  // namespace figs
