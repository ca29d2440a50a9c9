// figures/tdmaps_figures.cpp — `make figures`'s drawing program: every figure of
// the reproduced papers redrawn from our results, and paper/report.md.
//
//   tdmaps_figures [--results experiments/results] [--out figures/out] [--gpu SLUG]
//                  [--reported paper/reported.csv] [--report paper/report.md]
//                  [--cpu-exact verify/results/exact_ranges_cpu.csv] [--no-svg] [--no-report]
//
// Results: <results>/<gpu_slug>/*.csv (one folder per GPU; every folder but cpu/)
// and <results>/cpu/. Every file is read by column name; a missing file or column
// skips that figure with a one-line notice. Figures that need no GPU data (wasted
// blocks from the map library, the CPU oracle's exact ranges) are always drawn:
// the program exits 0 when they were, 1 when even they could not be drawn (no
// gnuplot), 2 on bad arguments.
//
// Output: <out>/<name>.png and .svg for the figures without GPU data,
// <out>/<gpu_slug>/<name>.png and .svg for each GPU's (h200 first, then by slug),
// <out>/gpus_<name>.png and .svg with every GPU in one figure (two GPUs or more);
// paper/report.md.
// Paper values (paper/reported.csv, column figure = "fig[:map][@x]") are drawn on
// the figure they belong to as open marks: colour of the map, shape of the paper
// and GPU.
#include "claims.hpp"
#include "model.hpp"
#include "plot.hpp"
#include "report.hpp"

#include <tdmaps/counts.hpp>

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

namespace fs = std::filesystem;
namespace po = boost::program_options;
using namespace figs;

namespace {

const char* kIlabel = "I = t_BB / t_map";

// ---- drawing and recording --------------------------------------------------------------
void emit(Ctx& ctx, Figure& f, const GpuData* g, const std::string& caption, const std::string& reading) {
  FigRec r;
  r.name = f.name;
  r.gpu = g ? g->slug : "";
  r.caption = caption;
  r.reading = reading;
  if (!ctx.gnuplot_ok) {
    r.why = "gnuplot unavailable";
    ctx.figs.push_back(r);
    return;
  }
  const std::string dir = g ? (fs::path(ctx.out) / g->slug).string() : ctx.out;
  const Rendered out = render(f, dir, ctx.svg);
  r.ok = out.ok;
  r.png = out.png;
  r.svg = out.svg;
  if (!out.ok) {
    r.why = out.error;
    ctx.notice(f.name + (g ? " [" + g->slug + "]" : "") + ": not drawn: " + out.error);
  } else {
    std::cerr << "drew " << out.png << (ctx.svg ? " (+ .svg)" : "") << "\n";
  }
  ctx.figs.push_back(r);
}

void skip(Ctx& ctx, const std::string& name, const GpuData* g, const std::string& why) {
  // a figure drawn by an earlier run from data that is gone would contradict the report
  const fs::path dir = g ? fs::path(ctx.out) / g->slug : fs::path(ctx.out);
  std::error_code ec;
  for (const char* ext : {".png", ".svg"})
    if (fs::remove(dir / (name + ext), ec)) std::cerr << "removed stale " << (dir / (name + ext)).string() << "\n";
  FigRec r;
  r.name = name;
  r.gpu = g ? g->slug : "";
  r.why = why;
  ctx.figs.push_back(r);
  ctx.notice(name + (g ? " [" + g->slug + "]" : "") + ": skipped (" + why + ")");
}

// The table a figure needs, with the columns it needs; nullptr after a notice.
const Table* need(Ctx& ctx, const std::string& fig, const GpuData& g, const std::string& file,
                  std::initializer_list<const char*> cols) {
  const Table* t = g.get(file);
  if (!t) {
    skip(ctx, fig, &g, g.reason(file));
    return nullptr;
  }
  const std::string miss = t->missing(cols);
  if (!miss.empty()) {
    skip(ctx, fig, &g, file + " lacks column(s) " + miss);
    return nullptr;
  }
  if (t->size() == 0) {
    skip(ctx, fig, &g, file + " has no rows");
    return nullptr;
  }
  return t;
}

std::string title_of(const std::string& what, const GpuData* g) {
  return g ? what + " — " + g->name() : what;
}

HLine bb_line() { return HLine{1.0, "BB (I = 1)", "#000000", 1, 1.4}; }

bool is_reference(const std::string& m) { return m.rfind("bb", 0) == 0 || m == "write_bw"; }

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
      for (const Row& r : t.rows())
        if (r.s("map") == m && selected(r, all) && r.s("exact") == "0" && std::isfinite(row_I(r)))
          ie.emplace_back(r.d("N"), row_I(r));
      std::sort(ie.begin(), ie.end());
      if (!ie.empty()) {
        Series si = map_series(m, ie, m + " (past exact range)");
        si.dt = 3;
        si.pt = si.pt - 1;
        p.series.push_back(si);
      }
    }
    for (const Row& r : t.rows())
      if (r.s("map") == m && selected(r, all)) xmax = std::max(xmax, r.d("N"));
  }
  p.hlines.push_back(bb_line());
  double xr = xmax > 0 ? xmax : 30720;
  if (!marks_fig.empty()) xr = add_marks(p, ctx, marks_fig, xr, mark_ids);
  p.xrange = std::make_pair(0.0, xr * 1.02);
  return p;
}

// "rb 1.21 (max 1.30 at N=4096), ltm-r 1.10, ..." for the maps of a selection.
std::string i_reading(const Table& t, const Sel& s) {
  std::vector<std::string> parts;
  std::string best;
  double bv = NAN;
  for (const std::string& m : maps_in(t, s)) {
    if (is_reference(m)) continue;
    const Pts p = curve(t, s, m);
    if (p.empty()) continue;
    const double med = med_from(p, kLargeN);
    const auto mx = max_pt(p);
    parts.push_back("**" + m + "** " + (std::isfinite(med) ? fmt(med, 3) : "— (no N ≥ " + fmt_int(kLargeN) + ")") +
                    " (max " + fmt(mx.second, 3) + " at N = " + fmt_int(mx.first) + ")");
    if (std::isfinite(med) && !(med <= bv)) { bv = med; best = m; }
  }
  if (parts.empty()) return "no rows.";
  return "median I over N ≥ " + fmt_int(kLargeN) + ": " + join(parts, "; ") + "." +
         (best.empty() ? "" : " Highest: " + best + ".");
}

std::vector<double> rhos_of(const Table& t, const Sel& base) {
  std::set<double> r;
  Sel s = base;
  s.rho = NAN;
  s.exact_only = false;
  for (const Row& row : t.rows())
    if (selected(row, s) && std::isfinite(row.d("rho")) && row.d("rho") > 0) r.insert(row.d("rho"));
  return std::vector<double>(r.begin(), r.end());
}
std::vector<std::string> values_of(const Table& t, const std::string& col) {
  std::vector<std::string> v;
  for (const Row& r : t.rows())
    if (std::find(v.begin(), v.end(), r.s(col)) == v.end()) v.push_back(r.s(col));
  return v;
}

// Panels of I vs N, one per rho (rho 16 first); the paper marks go on rho 16.
void draw_i_vs_n(Ctx& ctx, const GpuData& g, const Table& t, Sel base, const std::string& name,
                 const std::string& title, const std::string& marks_fig, const std::string& caption) {
  Figure f;
  f.name = name;
  f.title = title_of(title, &g);
  std::vector<double> rhos = rhos_of(t, base);
  if (!t.has("rho")) rhos = {NAN};
  std::sort(rhos.begin(), rhos.end(), [](double a, double b) { return (a == kRho) != (b == kRho) ? a == kRho : a < b; });
  std::string reading;
  std::vector<std::string> ids;
  for (double rho : rhos) {
    Sel s = base;
    s.rho = rho;
    const std::string rl = std::isfinite(rho) ? "ρ = " + fmt_int(rho) : "all ρ";
    Panel p = i_panel(ctx, t, s, rl, rho == kRho ? marks_fig : "", &ids);
    bool any = false;
    for (const Series& se : p.series) any = any || !se.x.empty();
    if (!any) continue;
    f.panels.push_back(p);
    reading += (reading.empty() ? "" : " ") + rl + ": " + i_reading(t, s);
  }
  if (f.panels.empty()) {
    skip(ctx, name, &g, t.path + " has no rows for this selection");
    return;
  }
  if (f.panels.size() > 1) f.width = 1300, f.height = 600;
  if (!ids.empty()) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    reading += " Paper marks (open symbols, right of the data or at the stated N): " + join(ids, ", ") + ".";
  }
  emit(ctx, f, &g, caption, reading);
}

// ---- Fig. 3 --------------------------------------------------------------------------------
void fig3_sqrt(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "fig3_sqrt", g, "sqrt.csv", {"N", "map"});
  if (!t) return;
  Figure f;
  f.name = "fig3_sqrt";
  f.title = title_of("Square roots of g(λ): I of LTM-X/N/R/D/E vs BB, dummy kernel, ρ = 16", &g);
  std::vector<std::string> forms = t->has("form") ? values_of(*t, "form") : std::vector<std::string>{""};
  std::sort(forms.begin(), forms.end(), [](const std::string& a, const std::string& b) {
    return (a == "store") != (b == "store") ? a == "store" : a < b;
  });
  std::string reading;
  std::vector<std::string> ids;
  for (const std::string& form : forms) {
    Sel s;
    if (!form.empty()) s.eq["form"] = form;
    const std::string label = form == "store" ? "form store (the papers' dummy: every thread stores i+j to one address)"
                              : form == "cond" ? "form cond (the store never happens: map cost alone)"
                                               : "all rows";
    Panel p = i_panel(ctx, *t, s, label, form == "store" || form.empty() ? "fig3_sqrt" : "", &ids);
    bool any = false;
    for (const Series& se : p.series) any = any || !se.x.empty();
    if (!any) continue;
    f.panels.push_back(p);
    reading += (reading.empty() ? "" : " ") + (form.empty() ? std::string("") : "Form " + form + ": ") + i_reading(*t, s);
  }
  if (f.panels.empty()) return skip(ctx, "fig3_sqrt", &g, "sqrt.csv has no rows at ρ = 16");
  if (f.panels.size() > 1) f.width = 1300, f.height = 600;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (!ids.empty()) reading += " Paper marks: " + join(ids, ", ") + ".";
  emit(ctx, f, &g,
       "Fig. 3 (left) of 000 / 001: the improvement factor of LTM with each square root over BB on the dummy kernel, "
       "ρ = 16; open marks are the papers' values (GTX 680, GTX 765M, Tesla K40).",
       reading);
  // ρ = 32, when measured
  Sel s32;
  s32.rho = 32;
  s32.eq["form"] = "store";
  if (!curve(*t, s32, "ltm-x").empty() || !curve(*t, s32, "ltm-r").empty() || !curve(*t, s32, "ltm-e").empty()) {
    Figure f2;
    f2.name = "fig3_sqrt_rho32";
    f2.title = title_of("Square roots of g(λ), ρ = 32, form store", &g);
    f2.panels.push_back(i_panel(ctx, *t, s32, "ρ = 32, form store", "", nullptr));
    emit(ctx, f2, &g, "The square-root study at ρ = 32 (form store).", i_reading(*t, s32));
  }
}

void fig3_wasted(Ctx& ctx) {
  const Wasted2& w = ctx.wasted2();
  Figure f;
  f.name = "fig3_wasted";
  f.title = "Unnecessary (wasted) blocks vs N, ρ = 16 — from the map library (counts2)";
  Panel p;
  p.xlabel = "N";
  p.ylabel = "wasted blocks (launched − useful)";
  p.logy = true;
  p.key = "bottom right";
  p.yrange = std::make_pair(0.5, 1e7);
  const auto series_of = [&](const std::string& label, const std::vector<double>& y, const std::string& map) {
    Pts q;
    for (size_t k = 0; k < w.N.size(); ++k) q.emplace_back(w.N[k], y[k]);
    return map_series(map, q, label);
  };
  p.series.push_back(series_of("BB (library)", w.wasted.at("bb"), "bb"));
  Series bal = series_of("LTM, balanced n'×n' grid of §III-A", w.balanced, "ltm-r");
  p.series.push_back(bal);
  for (const char* m : {"rec", "rb", "utm-n"}) {
    bool pos = false;
    for (double v : w.wasted.at(m)) pos = pos || v > 0;
    if (pos) p.series.push_back(series_of(std::string(m) + " (library)", w.wasted.at(m), m));
  }
  // the papers' formulas (000 §III-A, 001 §II-A)
  Series f1, f2;
  for (size_t k = 0; k < w.N.size(); ++k) {
    f1.x.push_back(w.N[k]);
    f1.y.push_back(w.n[k] * (w.n[k] - 1) / 2);
    f2.x.push_back(w.N[k]);
    f2.y.push_back(w.n[k] / 2);
  }
  f1.label = "paper: n(n−1)/2 (000-wasted-bb)";
  f1.with = "lines";
  f1.color = "#999999";
  f1.dt = 2;
  f2.label = "paper: n/2 (000-wasted-ltm)";
  f2.with = "lines";
  f2.color = "#9467bd";
  f2.dt = 2;
  p.series.push_back(f1);
  p.series.push_back(f2);
  std::vector<std::string> zero;
  for (const char* m : {"ltm-e", "rb", "rec", "utm-n"}) {
    bool all0 = true, any = false;
    for (double v : w.wasted.at(m))
      if (std::isfinite(v)) { any = true; all0 = all0 && v == 0; }
    if (any && all0) zero.push_back(m == std::string("ltm-e") ? "LTM (library, linear grid)" : std::string(m));
  }
  if (!zero.empty()) p.labels.push_back(Label{0.02, 0.04, "0 wasted blocks at every N: " + join(zero, ", ")});
  p.title = "n = ceil(N/16)";
  f.panels.push_back(p);
  double worst = 0;
  for (size_t k = 0; k < w.N.size(); ++k) worst = std::max(worst, w.balanced[k] / w.n[k]);
  const std::string reading =
      "At N = " + fmt_int(w.N.back()) + " BB wastes " + fmt_int(w.wasted.at("bb").back()) +
      " blocks; the paper's balanced LTM grid wastes " + fmt_int(w.balanced.back()) + " (up to " + fmt(worst, 2) +
      "·n over the sweep, against the papers' n/2); the library launches LTM on a linear grid of exactly n(n+1)/2 "
      "blocks, which wastes " + fmt_int(w.wasted.at("ltm-e").back()) + ".";
  emit(ctx, f, nullptr,
       "Fig. 3 (right) of 000 / 001, computed from the map library (tdmaps/counts.hpp), not measured: wasted blocks of "
       "each map against the papers' formulas.",
       reading);
}

// ---- Fig. 5 ---------------------------------------------------------------------------------
void fig5_dummy(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "fig5_dummy", g, "dummy.csv", {"N", "map"});
  if (!t) return;
  Sel s;
  s.eq["form"] = "store";
  draw_i_vs_n(ctx, g, *t, s, "fig5_dummy", "Dummy kernel (form store): I of every map vs BB", "fig5_dummy",
              "Fig. 5 of 000 (and of 001): dummy kernel, improvement of each map over BB; open marks are the papers' "
              "values.");
  if (t->has("form")) {
    Sel c;
    c.eq["form"] = "cond";
    if (!curve(*t, c, "rb").empty() || !maps_in(*t, c).empty())
      draw_i_vs_n(ctx, g, *t, c, "fig5_dummy_cond", "Dummy kernel (form cond, no store): I of every map vs BB", "",
                  "The dummy kernel without its contended store: the cost of each map alone.");
  }
}

void fig5_edm(Ctx& ctx, const GpuData& g, int features) {
  const std::string name = "fig5_edm_d" + std::to_string(features);
  const Table* t = need(ctx, name, g, "edm.csv", {"N", "map"});
  if (!t) return;
  for (const char* layout : {"full", "packed"}) {
    Sel s;
    s.eq["variant"] = layout;
    s.eq["features"] = std::to_string(features);
    const bool full = std::string(layout) == "full";
    if (maps_in(*t, s).empty() && !full) continue;
    draw_i_vs_n(ctx, g, *t, s, full ? name : name + "_packed",
                "EDM, " + std::to_string(features) + " feature(s), " + layout + " output: I of every map vs BB",
                full ? name : "",
                std::string(full ? "Fig. 5 of 000 (4 features) / 001 (1 and 4 features): " : "The same, ") +
                    "Euclidean distance matrix with " + std::to_string(features) + " feature(s), " + layout +
                    " N×N output" + (full ? "" : " replaced by the packed triangle") +
                    "; -fast variants are measured against bb-fast.");
  }
}

void fig5_collision(Ctx& ctx, const GpuData& g, const std::string& dim) {
  const std::string name = "fig5_collision_" + dim;
  const Table* t = need(ctx, name, g, "collision.csv", {"N", "map"});
  if (!t) return;
  Sel s;
  s.eq["variant"] = dim;
  draw_i_vs_n(ctx, g, *t, s, name, "Collision detection " + dim + " (shared memory): I of every map vs BB", name,
              "Fig. 5 of 000: collision detection of N spheres (" + dim +
                  "), shared-memory kernels; UTM cannot tile shared memory (thread-space map).");
}

void fig5_features(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "fig5_features", g, "edm.csv", {"N", "map", "features"});
  if (!t) return;
  Figure f;
  f.name = "fig5_features";
  f.title = title_of("EDM: I vs number of features at the largest N, ρ = 16", &g);
  std::string reading;
  for (const char* layout : {"full", "packed"}) {
    Panel p;
    p.title = std::string(layout) + " output";
    p.xlabel = "features";
    p.ylabel = kIlabel;
    p.key = "below";
    p.xrange = std::make_pair(0.5, 4.5);
    p.xtic = 1;
    Sel s;
    s.eq["variant"] = layout;
    std::vector<std::string> parts;
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
      parts.push_back(m + " " + fmt(q.front().second, 3) + "→" + fmt(q.back().second, 3));
    }
    if (p.series.empty()) continue;
    p.hlines.push_back(bb_line());
    f.panels.push_back(p);
    reading += std::string(reading.empty() ? "" : " ") + layout + ": I from fewest to most features: " + join(parts, ", ") + ".";
  }
  if (f.panels.empty()) return skip(ctx, "fig5_features", &g, "edm.csv has no rows at ρ = 16");
  if (f.panels.size() > 1) f.width = 1300, f.height = 600;
  emit(ctx, f, &g, "001's last panel: I against the number of features (work per thread) at the largest N.", reading);
}

// ---- exact ranges ------------------------------------------------------------------------------
struct ExactEntry {
  std::string source;  // "CPU oracle" or the GPU's name
  std::string variant, kind;
  double N = NAN;      // largest exact N at the panel's rho
  bool lower = false;  // no failure below the searched limit
  bool host = false;   // CPU host emulation of a device function
};

std::string strip_host(std::string v) {
  const std::string h = "-host";
  if (v.size() > h.size() && v.compare(v.size() - h.size(), h.size(), h) == 0) v = v.substr(0, v.size() - h.size());
  return v;
}

// Rows of a table with columns variant, kind, first_wrong, largest_exact_N_rho<R>.
void variant_rows(const Table& t, const std::string& source, int rho, bool three_d, std::vector<ExactEntry>& out) {
  const std::string col = "largest_exact_N_rho" + std::to_string(rho);
  if (!t.has("variant") || !t.has(col)) return;
  for (const Row& r : t.rows()) {
    const bool is3 = r.s("kind") == "block3" || r.s("variant").rfind("tet", 0) == 0;
    if (is3 != three_d || !std::isfinite(r.d(col))) continue;
    ExactEntry e{source, strip_host(r.s("variant")), r.s("kind"), r.d(col), r.s("first_wrong") == "none",
                 strip_host(r.s("variant")) != r.s("variant")};
    out.push_back(e);
  }
}
// tet_exact_range_gpu.csv: root, part (layer|row), ..., largest_exact_N_rho<R>: a map is
// exact where both of its parts are.
void root_rows(const Table& t, const std::string& source, int rho, std::vector<ExactEntry>& out) {
  const std::string col = "largest_exact_N_rho" + std::to_string(rho);
  if (!t.has("root") || !t.has(col)) return;
  std::map<std::string, ExactEntry> by;
  for (const Row& r : t.rows()) {
    if (!std::isfinite(r.d(col))) continue;
    auto it = by.find(r.s("root"));
    if (it == by.end()) {
      by[r.s("root")] = ExactEntry{source, r.s("root"), "block3", r.d(col), r.s("first_wrong") == "none", false};
    } else {
      it->second.N = std::min(it->second.N, r.d(col));
      it->second.lower = it->second.lower && r.s("first_wrong") == "none";
    }
  }
  for (const auto& [k, e] : by) out.push_back(e);
}

void exact_range(Ctx& ctx) {
  const int rho2 = kRho, rho3 = kRho3;
  std::vector<ExactEntry> e2, e3;
  std::vector<std::string> sources;
  if (ctx.cpu_exact_table) {
    variant_rows(*ctx.cpu_exact_table, "CPU oracle", rho2, false, e2);
    variant_rows(*ctx.cpu_exact_table, "CPU oracle", rho3, true, e3);
    sources.push_back("CPU oracle");
  }
  for (const GpuData& g : ctx.gpus) {
    const size_t before = e2.size() + e3.size();
    std::vector<ExactEntry> g3;
    if (const Table* t = g.get("exact_range_gpu.csv")) {
      variant_rows(*t, "GPU: " + g.name(), rho2, false, e2);
      variant_rows(*t, "GPU: " + g.name(), rho3, true, g3);
    }
    if (const Table* t = g.get("tet_exact_range_gpu.csv")) {
      std::vector<ExactEntry> r3;
      root_rows(*t, "GPU: " + g.name(), rho3, r3);
      for (const ExactEntry& e : r3) {  // exact_range_gpu.csv first; the 3D table adds the rest
        bool have = false;
        for (const ExactEntry& x : g3) have = have || x.variant == e.variant;
        if (!have) g3.push_back(e);
      }
    }
    e3.insert(e3.end(), g3.begin(), g3.end());
    if (e2.size() + e3.size() > before) sources.push_back("GPU: " + g.name());
  }
  if (e2.empty() && e3.empty())
    return skip(ctx, "exact_range", nullptr, "no exact-range table (" + ctx.cpu_exact + " missing, no GPU table)");
  const std::vector<std::string> colors = {"#7f7f7f", "#d62728", "#1f77b4", "#2ca02c", "#9467bd"};
  Figure f;
  f.name = "exact_range";
  f.title = "Largest exact N of each float map: CPU oracle and GPU";
  f.width = 1400;
  f.height = 640;
  std::vector<std::string> reading;
  const auto panel = [&](const std::vector<ExactEntry>& es, int rho, const std::string& title, bool lines) {
    std::vector<std::string> cats;
    std::map<std::string, bool> lower, host;
    std::map<std::string, std::string> kind;
    for (const ExactEntry& e : es) {
      if (std::find(cats.begin(), cats.end(), e.variant) == cats.end()) cats.push_back(e.variant);
      lower[e.variant] = lower[e.variant] || e.lower;
      host[e.variant] = host[e.variant] || e.host;
      kind[e.variant] = e.kind;
    }
    cats = order_maps(cats);
    Panel p;
    p.bars = true;
    p.logy = true;
    p.title = title;
    p.ylabel = "largest exact N (ρ = " + std::to_string(rho) + ")";
    p.key = "top left";
    for (const std::string& c : cats)
      p.categories.push_back(c + (kind[c] == "thread" ? " (threads)" : "") + (lower[c] ? " ≥" : "") + (host[c] ? " *" : ""));
    for (size_t k = 0; k < sources.size(); ++k) {
      Series s;
      s.label = sources[k];
      s.color = colors[k % colors.size()];
      bool any = false;
      for (const std::string& c : cats) {
        double v = NAN;
        for (const ExactEntry& e : es)
          if (e.source == sources[k] && e.variant == c) v = e.N;
        any = any || std::isfinite(v);
        s.y.push_back(v);
      }
      if (any) p.series.push_back(s);
    }
    if (lines) {
      std::map<double, std::vector<std::string>> at;
      for (const Claim& c : ctx.claims)
        for (const Mark& m : c.marks)
          if (m.fig == "exact_range" && c.pv.numeric() && c.unit == "N") at[c.pv.lo].push_back(c.id);
      const std::vector<std::string> lc = {"#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};
      size_t li = 0;
      for (const auto& [v, ids] : at)
        p.hlines.push_back(HLine{v, "paper: N = " + fmt_int(v) + " (" + join(ids, ", ") + ")", lc[li++ % lc.size()], 2, 1.3});
    }
    for (size_t k = 0; k < cats.size(); ++k) {
      std::vector<std::string> vals;
      for (const Series& s : p.series)
        if (std::isfinite(s.y[k])) vals.push_back(s.label + " " + fmt_int(s.y[k]));
      reading.push_back("**" + cats[k] + "** (ρ = " + std::to_string(rho) + "): " + join(vals, ", ") +
                        (lower[cats[k]] ? " (lower bound)" : ""));
    }
    if (!cats.empty()) f.panels.push_back(p);
  };
  panel(e2, rho2, "2D maps, ρ = " + std::to_string(rho2), true);
  panel(e3, rho3, "3D maps, ρ = " + std::to_string(rho3), false);
  if (!f.panels.empty()) {
    f.panels.front().xlabel = "≥ : a lower bound (nothing failed below the searched limit)";
    f.panels.back().xlabel = (f.panels.size() > 1 ? "" : "≥ : a lower bound;  ") +
                             std::string("* : the CPU value emulates the device's rsqrtf / cbrtf");
  }
  emit(ctx, f, nullptr,
       "Where each float map stops being exact (largest N whose whole grid maps correctly), from the CPU oracle "
       "(verify/) and from the GPU under the device's own rounding; lines are the ranges the papers state.",
       join(reading, "; ") + ".");
}

// ---- 3D -----------------------------------------------------------------------------------------
// The block side to show first: 8 when measured, else the largest.
double primary_rho(const Table& t) {
  const std::vector<double> r = distinct(t, "rho");
  if (r.empty()) return NAN;
  return std::find(r.begin(), r.end(), double(kRho3)) != r.end() ? double(kRho3) : r.back();
}
std::vector<std::string> col_values(const Table& t, const std::string& col) {
  std::vector<std::string> v;
  if (!t.has(col)) return {""};
  for (const Row& r : t.rows())
    if (std::find(v.begin(), v.end(), r.s(col)) == v.end()) v.push_back(r.s(col));
  return v;
}

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

// One panel of I vs N: every tetrahedral map x mode of a selection, eq. (17) at beta = tau
// from the library's plans, and the paper's bound.
bool tet_panel(const Ctx& ctx, const Table& t, Sel s, const std::string& title, Panel& p, std::vector<std::string>& parts) {
  p.title = title;
  p.xlabel = "N";
  p.ylabel = "I = t_BB3 / t_map";
  p.key = "below";
  double xmax = 0;
  for (const std::string& m : maps_in(t, s)) {
    if (m.rfind("bb", 0) == 0) continue;
    for (const std::string& mode : col_values(t, "mode")) {
      Sel sm = s;
      if (!mode.empty()) sm.eq["mode"] = mode;
      const Pts q = curve(t, sm, m);
      if (q.empty()) continue;
      Series se = map_series(m, q, m + (mode.empty() ? "" : " (" + mode + ")"));
      if (mode == "block") {
        se.dt = 2;
        se.pt -= 1;
      }
      p.series.push_back(se);
      xmax = std::max(xmax, q.back().first);
      parts.push_back(se.label + " max " + fmt(max_pt(q).second, 3) + " at N = " + fmt_int(max_pt(q).first));
    }
  }
  if (p.series.empty()) return false;
  tet_refs(ctx, p, std::isfinite(s.rho) ? int(s.rho) : kRho3, xmax);
  return true;
}

void tet_I(Ctx& ctx, const GpuData& g) {
  std::string why;
  const Table* dummy = g.get("tet_dummy.csv");
  const Table* three = g.get("tet_threebody.csv");
  for (const auto& [t, file] : std::vector<std::pair<const Table*, std::string>>{{dummy, "tet_dummy.csv"}, {three, "tet_threebody.csv"}}) {
    if (!t) why += (why.empty() ? "" : "; ") + g.reason(file);
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
    std::string reading;
    if (dummy)
      for (const std::string& form : col_values(*dummy, "form")) {
        Sel s;
        s.rho = rho;
        if (!form.empty()) s.eq["form"] = form;
        Panel p;
        std::vector<std::string> parts;
        if (tet_panel(ctx, *dummy, s, "map-only kernel" + (form.empty() ? "" : ", form " + form), p, parts)) {
          f.panels.push_back(p);
          reading += (reading.empty() ? "" : " ") + std::string("Dummy") + (form.empty() ? "" : " (" + form + ")") + ": " +
                     join(parts, "; ") + ".";
        }
      }
    if (three) {
      Sel s;
      s.rho = rho;
      Panel p;
      std::vector<std::string> parts;
      if (tet_panel(ctx, *three, s, "three-body kernel", p, parts)) {
        f.panels.push_back(p);
        reading += (reading.empty() ? "" : " ") + std::string("Three-body: ") + join(parts, "; ") + ".";
      }
    }
    if (f.panels.empty()) continue;
    f.width = f.panels.size() >= 3 ? 1700 : f.panels.size() == 2 ? 1300 : 900;
    f.height = 620;
    emit(ctx, f, &g,
         "003 §III-B: the tetrahedral map against the bounding box (modes: every thread maps, or one thread per block "
         "maps and shares), with the analysis' limit 6β/τ (eq. 18) and its finite-n form at β = τ (eq. 17) from the "
         "library's launched blocks.",
         reading);
    first = false;
  }
  if (first) skip(ctx, "tet_I", &g, "no tetrahedral-map rows");
}

// The series of the layout figure: key ("map mode ...") -> (N, median linear/blocked time);
// map_of[key] is the key's map, *rho the block side used. "" or why the table cannot be used.
std::string layout_curves(const Table& t, std::map<std::string, Pts>& out, std::map<std::string, std::string>& map_of,
                          double* rho_used) {
  const std::string rc = t.first_of({"linear_over_blocked", "ratio", "speedup"});
  std::vector<std::string> groups;
  for (const char* c : {"map", "mode", "kernel", "test"})
    if (t.has(c)) groups.push_back(c);
  const double rho = t.has("rho") ? primary_rho(t) : NAN;
  *rho_used = rho;
  std::map<std::string, std::map<double, std::vector<double>>> by;  // series -> N -> ratios
  const auto key_of = [&](const Row& r) {
    std::string k;
    for (const std::string& c : groups) k += (k.empty() ? "" : " ") + r.s(c);
    return k.empty() ? std::string("linear / blocked") : k;
  };
  const auto usable = [&](const Row& r) {
    return (!std::isfinite(rho) || r.d("rho") == rho) && !(r.has("verified") && r.s("verified") == "0");
  };
  if (!rc.empty()) {
    for (const Row& r : t.rows())
      if (usable(r) && (!t.has("layout") || r.s("layout") == "blocked") && std::isfinite(r.d(rc))) {
        by[key_of(r)][r.d("N")].push_back(r.d(rc));
        map_of[key_of(r)] = r.s("map");
      }
  } else if (t.has("layout") && t.has("median_ms")) {
    std::map<std::string, std::map<double, std::map<std::string, double>>> ms;
    for (const Row& r : t.rows())
      if (usable(r)) {
        ms[key_of(r)][r.d("N")][r.s("layout")] = r.d("median_ms");
        map_of[key_of(r)] = r.s("map");
      }
    for (const auto& [k, m] : ms)
      for (const auto& [n, l] : m)
        if (l.count("linear") && l.count("blocked") && l.at("blocked") > 0) by[k][n].push_back(l.at("linear") / l.at("blocked"));
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
  const Table* t = need(ctx, "tet_layout", g, "tet_layout.csv", {"N"});
  if (!t) return;
  std::map<std::string, Pts> by;
  std::map<std::string, std::string> map_of;
  double rho = NAN;
  const std::string why = layout_curves(*t, by, map_of, &rho);
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
  std::vector<std::string> parts;
  double xmax = 0;
  for (const auto& [k, q] : by) {
    Series s = map_series(map_of[k].empty() ? k : map_of[k], q, k);
    if (k.find("block") != std::string::npos && k.find("thread") == std::string::npos) {
      s.dt = 2;
      s.pt -= 1;
    }
    p.series.push_back(s);
    xmax = std::max(xmax, q.back().first);
    parts.push_back(k + ": max " + fmt(max_pt(q).second, 3) + " at N = " + fmt_int(max_pt(q).first));
  }
  p.hlines.push_back(HLine{1.0, "equal (1)", "#000000", 1, 1.2});
  if (const Claim* b = ctx.claim("003-layout-2x"))
    if (b->pv.numeric()) p.hlines.push_back(HLine{b->pv.lo, "paper: up to " + fmt_g(b->pv.lo) + "× (003-layout-2x)", "#d62728", 2, 1.4});
  p.xrange = std::make_pair(0.0, xmax * 1.02);
  f.panels.push_back(p);
  emit(ctx, f, &g, "003 §III-A: the same kernel on the blocked (succinct) data layout against the linear one, with the "
                   "analysis' bound 2 − F (eq. 10).", join(parts, "; ") + ".");
}


void tet_wasted(Ctx& ctx) {
  const Wasted3& w = ctx.wasted3();
  Figure f;
  f.name = "tet_wasted";
  f.title = "Tetrahedral domain, ρ = 8 — from the map library (counts3)";
  f.width = 1300;
  Panel a;
  a.title = "wasted threads";
  a.xlabel = "N";
  a.ylabel = "threads launched − useful";
  a.logx = a.logy = true;
  a.key = "top left";
  Pts b3, te, ref3, ref2;
  const double r3 = double(kRho3) * kRho3 * kRho3;
  for (size_t k = 0; k < w.N.size(); ++k) {
    b3.emplace_back(w.N[k], w.bb3_wasted_threads[k]);
    te.emplace_back(w.N[k], w.tet_wasted_threads[k]);
    ref2.emplace_back(w.N[k], w.n[k] * w.n[k] * r3);
    ref3.emplace_back(w.N[k], w.n[k] * w.n[k] * w.n[k] * r3);
  }
  a.series.push_back(map_series("bb3", b3, "BB3 (bounding cube)"));
  a.series.push_back(map_series("tet-e", te, "TET (g(λ), linear grid)"));
  Series s2 = map_series("tet-e", ref2, "n²ρ³ (003: O(n²ρ³))");
  s2.with = "lines";
  s2.dt = 2;
  s2.color = "#ff7f0e";
  Series s3 = map_series("bb3", ref3, "n³ρ³ (O(n³))");
  s3.with = "lines";
  s3.dt = 2;
  s3.color = "#777777";
  a.series.push_back(s2);
  a.series.push_back(s3);
  Panel b;
  b.title = "launched blocks, BB3 / TET";
  b.xlabel = "n = ceil(N/ρ)";
  b.ylabel = "n³ / (n(n+1)(n+2)/6)";
  b.key = "bottom right";
  b.logx = true;
  Pts ratio;
  for (size_t k = 0; k < w.N.size(); ++k) ratio.emplace_back(w.n[k], w.bb3_launched[k] / w.tet_launched[k]);
  b.series.push_back(map_series("tet", ratio, "library plans (= eq. 17 at β = τ)"));
  if (const Claim* c = ctx.claim("003-blocks-6x"))
    if (c->pv.numeric()) b.hlines.push_back(HLine{c->pv.lo, "paper: → " + fmt_g(c->pv.lo) + " (003-blocks-6x)", "#d62728", 2, 1.4});
  b.yrange = std::make_pair(0.0, 6.5);
  f.panels.push_back(a);
  f.panels.push_back(b);
  emit(ctx, f, nullptr,
       "003 §III-B, computed from the map library: unnecessary threads of the bounding cube and of the tetrahedral "
       "map, and the blocks ratio that bounds the map's improvement.",
       "At N = " + fmt_int(w.N.back()) + " (n = " + fmt_int(w.n.back()) + "): BB3 wastes " +
           fmt_g(w.bb3_wasted_threads.back(), 4) + " threads, TET " + fmt_g(w.tet_wasted_threads.back(), 4) +
           " (" + fmt(w.tet_wasted_threads.back() / ref2.back().second, 3) + "·n²ρ³); BB3 launches " +
           fmt(ratio.back().second, 3) + "× TET's blocks.");
}

// ---- SDH ------------------------------------------------------------------------------------------
double sdh_t(const Row& r) {
  const double w = r.d("with_transfers_ms");
  return std::isfinite(w) ? w : r.d("median_ms");
}

void sdh_ladder(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "sdh_ladder", g, "sdh.csv", {"impl", "N", "median_ms"});
  if (!t) return;
  const std::vector<double> Ns = distinct(*t, "N");
  if (Ns.empty()) return skip(ctx, "sdh_ladder", &g, "sdh.csv has no N");
  std::vector<double> which;
  if (std::find(Ns.begin(), Ns.end(), 10000.0) != Ns.end()) which.push_back(10000.0);
  if (which.empty() || Ns.back() != which.back()) which.push_back(Ns.back());
  Figure f;
  f.name = "sdh_ladder";
  f.title = title_of("Spatial distance histogram: time of each version", &g);
  f.width = 1300;
  f.height = 620;
  std::string reading;
  for (double N : which) {
    Panel p;
    p.bars = true;
    p.logy = true;
    p.title = "N = " + fmt_int(N);
    p.ylabel = "time (ms)";
    p.key = "top right";
    // one category per implementation at N (the paper's slot order first)
    std::vector<std::pair<std::string, Row>> rows;
    const std::vector<std::string> order = {"cpu", "cpu-mt", "v1", "v2", "v3", "v4", "v5"};
    std::map<std::string, Row> chosen;
    for (const Row& r : t->rows()) {
      if (r.d("N") != N) continue;
      const std::string impl = r.s("impl");
      auto it = chosen.find(impl);
      // prefer the paper's bucket width and block size
      const auto score = [](const Row& x) {
        return (x.d("bucket_width") == 500 ? 2 : 0) + (x.d("threads_per_block") == 256 ? 1 : 0);
      };
      if (it == chosen.end()) chosen.emplace(impl, r);
      else if (score(r) > score(it->second)) it->second = r;
    }
    for (const auto& [impl, r] : chosen) rows.emplace_back(impl, r);
    std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      const auto ia = std::find(order.begin(), order.end(), sdh_slot(a.first)),
                 ib = std::find(order.begin(), order.end(), sdh_slot(b.first));
      return ia != ib ? ia < ib : a.first < b.first;
    });
    Series kern, trans, paper;
    kern.label = "ours: kernel (median)";
    kern.color = "#1f77b4";
    trans.label = "ours: with transfers";
    trans.color = "#aec7e8";
    paper.label = "paper 004 (GTX 760 / i7-3770K, N = 10,000)";
    paper.color = "#d62728";
    bool any_trans = false, any_paper = false;
    std::vector<std::string> parts;
    for (const auto& [impl, r] : rows) {
      const std::string slot = sdh_slot(impl);
      p.categories.push_back(impl + (slot.empty() ? "" : " [" + slot + "]"));
      kern.y.push_back(r.d("median_ms"));
      trans.y.push_back(r.d("with_transfers_ms"));
      any_trans = any_trans || std::isfinite(r.d("with_transfers_ms"));
      double pv = NAN;
      if (N == 10000.0)
        for (const Claim& c : ctx.claims)
          for (const Mark& m : c.marks)
            if (m.fig == "sdh_ladder" && m.series == slot && c.pv.numeric()) pv = c.pv.lo;
      any_paper = any_paper || std::isfinite(pv);
      paper.y.push_back(pv);
      parts.push_back(impl + " " + fmt_g(sdh_t(r), 3) + " ms");
    }
    p.series.push_back(kern);
    if (any_trans) p.series.push_back(trans);
    if (any_paper) p.series.push_back(paper);
    f.panels.push_back(p);
    reading += (reading.empty() ? "" : " ") + std::string("N = ") + fmt_int(N) + " (with transfers where measured): " +
               join(parts, ", ") + ".";
  }
  emit(ctx, f, &g,
       "004's optimisation ladder: CPU, V1 plain, V2 private shared-memory histogram, V3 divergence control, V4 "
       "modified input array, V5 input tiling; the paper's times (GTX 760) beside ours.",
       reading);
}

// Pairs per second against N of each implementation of an SDH table (the paper's 256
// threads per block for the GPU versions), in the table's order.
std::vector<std::pair<std::string, Pts>> sdh_curves(const Table& tab) {
  const auto pps = [](const Row& r) {
    double v = r.d("pairs_per_s");
    if (!std::isfinite(v) && r.d("median_ms") > 0) v = r.d("N") * (r.d("N") - 1) / 2 / (r.d("median_ms") * 1e-3);
    return v;
  };
  std::vector<std::pair<std::string, Pts>> out;
  for (const std::string& impl : values_of(tab, "impl")) {
    std::map<double, std::vector<double>> by;
    for (const Row& r : tab.rows())
      if (r.s("impl") == impl && std::isfinite(r.d("N")) && std::isfinite(pps(r))) {
        if (tab.has("threads_per_block") && std::isfinite(r.d("threads_per_block")) && r.d("threads_per_block") != 256 &&
            sdh_slot(impl).rfind("v", 0) == 0)
          continue;
        by[r.d("N")].push_back(pps(r));
      }
    Pts q;
    for (const auto& [n, v] : by) q.emplace_back(n, median(v));
    if (!q.empty()) out.emplace_back(impl, q);
  }
  return out;
}

void sdh_scaling(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "sdh_scaling", g, "sdh.csv", {"impl", "N"});
  if (!t) return;
  Figure f;
  f.name = "sdh_scaling";
  f.title = title_of("Spatial distance histogram: pairs per second vs N", &g);
  Panel p;
  p.xlabel = "N (points)";
  p.ylabel = "pairs / s";
  p.logx = p.logy = true;
  p.key = "below";
  std::vector<std::string> parts;
  double xlo = INFINITY, xhi = 0;
  const auto add = [&](const Table& tab, const std::string& prefix, bool dashed) {
    for (const auto& [impl, q] : sdh_curves(tab)) {
      const std::string slot = sdh_slot(impl);
      Series s = map_series(slot.empty() ? impl : slot, q, prefix + impl);
      if (dashed) {
        s.dt = 2;
        s.color = "#000000";
        s.pt = 6;
      }
      xlo = std::min(xlo, q.front().first);
      xhi = std::max(xhi, q.back().first);
      p.series.push_back(s);
      parts.push_back(prefix + impl + " " + fmt_g(q.back().second, 3) + " pairs/s at N = " + fmt_int(q.back().first));
    }
  };
  add(*t, "", false);
  if (const Table* peers = g.get("peers_sdh.csv"))
    if (peers->has("impl") && peers->has("N")) add(*peers, "peer: ", true);
  if (p.series.empty()) return skip(ctx, "sdh_scaling", &g, "sdh.csv has no pairs_per_s / median_ms");
  p.xrange = std::make_pair(xlo / 1.25, xhi * 1.25);
  f.panels.push_back(p);
  emit(ctx, f, &g, "Throughput of each SDH version (and of peer implementations, dashed) against the number of points.",
       join(parts, "; ") + ".");
}

// ---- EDM roofline -------------------------------------------------------------------------------
void edm_roofline(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "edm_roofline", g, "edm.csv", {"N", "map", "GBps"});
  if (!t) return;
  std::vector<double> bw;
  for (const Row& r : t->rows())
    if (r.s("map") == "write_bw" && std::isfinite(r.d("GBps"))) bw.push_back(r.d("GBps"));
  const double wbw = median(bw);
  const std::vector<double> feats = t->has("features") ? distinct(*t, "features") : std::vector<double>{};
  double feat = 4;
  if (!feats.empty() && std::find(feats.begin(), feats.end(), 4.0) == feats.end()) feat = feats.back();
  const Table* peers = g.get("peers_edm.csv");
  Figure f;
  f.name = "edm_roofline";
  f.title = title_of("EDM output bandwidth vs N (" + fmt_int(feat) + " features, ρ = 16)", &g);
  f.width = 1300;
  std::string reading = std::isfinite(wbw) ? "Measured write bandwidth " + fmt(wbw, 0) + " GB/s." : "No write_bw row.";
  for (const char* layout : {"full", "packed"}) {
    Sel s;
    s.eq["variant"] = layout;
    s.eq["features"] = fmt_int(feat);
    Panel p;
    p.title = std::string(layout) + " output";
    p.xlabel = "N";
    p.ylabel = "GB/s written";
    p.key = "bottom right";
    double xmax = 0;
    std::vector<std::string> parts;
    for (const std::string& m : maps_in(*t, s)) {
      if (m == "write_bw") continue;
      const Pts q = curve(*t, s, m, "GBps");
      if (q.empty()) continue;
      p.series.push_back(map_series(m, q));
      xmax = std::max(xmax, q.back().first);
      parts.push_back(m + " " + fmt(q.back().second, 0) + " GB/s" +
                      (std::isfinite(wbw) ? " (" + fmt(100 * q.back().second / wbw, 0) + "%)" : ""));
    }
    if (peers && peers->has("impl") && peers->has("N") && peers->has("GBps")) {
      for (const std::string& impl : values_of(*peers, "impl")) {
        std::map<double, std::vector<double>> by;
        for (const Row& r : peers->rows()) {
          if (r.s("impl") != impl) continue;
          if (peers->has("layout") && r.s("layout") != layout) continue;
          if (!peers->has("layout") && (impl.find("pdist") != std::string::npos) != (std::string(layout) == "packed"))
            continue;
          if (peers->has("features") && std::isfinite(r.d("features")) && r.d("features") != feat) continue;
          if (std::isfinite(r.d("GBps"))) by[r.d("N")].push_back(r.d("GBps"));
        }
        Pts q;
        for (const auto& [n, v] : by) q.emplace_back(n, median(v));
        if (q.empty()) continue;
        Series se = map_series(impl, q, "peer: " + impl);
        const bool pd = impl.find("pdist") != std::string::npos, direct = impl.find("direct") != std::string::npos;
        se.color = pd ? "#000000" : direct ? "#999999" : "#555555";
        se.dt = 2;
        se.pt = pd ? 6 : direct ? 4 : 8;
        p.series.push_back(se);
        xmax = std::max(xmax, q.back().first);
        parts.push_back(impl + " " + fmt(q.back().second, 0) + " GB/s");
      }
    }
    if (p.series.empty()) continue;
    if (std::isfinite(wbw)) p.hlines.push_back(HLine{wbw, "measured write bandwidth (write_bw)", "#d62728", 2, 1.6});
    p.xrange = std::make_pair(0.0, xmax * 1.02);
    p.yrange = std::make_pair(0.0, std::isfinite(wbw) ? wbw * 1.15 : NAN);
    if (!std::isfinite(wbw)) p.yrange.reset();
    f.panels.push_back(p);
    reading += std::string(" ") + layout + " at the largest N: " + join(parts, ", ") + ".";
  }
  if (f.panels.empty()) return skip(ctx, "edm_roofline", &g, "edm.csv has no GBps rows at ρ = 16");
  emit(ctx, f, &g,
       "The EDM kernels are write-bound: bytes written per second by each map and output layout against the device's "
       "measured write bandwidth, with PyTorch's pdist (packed) and cdist (full) as peers.",
       reading);
}

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
  const std::string suf = "-fast";
  if (m.size() > suf.size() && m.compare(m.size() - suf.size(), suf.size(), suf) == 0 && s.color.size() == 7) {
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
bool cmp_gpus(Ctx& ctx, const std::string& name, const std::string& file, std::initializer_list<const char*> cols,
              std::vector<GpuTable>& gs) {
  std::vector<std::string> why;
  for (const GpuData& g : ctx.gpus) {
    const Table* t = g.get(file);
    if (!t) why.push_back(g.slug + ": " + g.reason(file));
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

std::string gpu_vals(const std::vector<std::string>& labels, const std::vector<double>& v, int prec = 3) {
  std::vector<std::string> parts;
  for (size_t k = 0; k < v.size(); ++k) parts.push_back(labels[k] + " " + (std::isfinite(v[k]) ? fmt(v[k], prec) : "—"));
  return join(parts, ", ");
}

std::vector<std::string> labels_of(const Ctx& ctx, const std::vector<GpuTable>& gs) {
  std::vector<std::string> v;
  for (const GpuTable& x : gs) v.push_back(gpu_label(ctx, *x.g));
  return v;
}

struct CmpPanel {
  Sel sel;
  std::string title, marks_fig;
};

// I against N of every map (exact rows) on every GPU, one panel per selection.
void cmp_i_vs_n(Ctx& ctx, const std::string& name, const std::string& file, const std::vector<CmpPanel>& panels,
                const std::string& what, const std::string& caption) {
  std::vector<GpuTable> gs;
  if (!cmp_gpus(ctx, name, file, {"N", "map"}, gs)) return;
  const std::vector<std::string> labels = labels_of(ctx, gs);
  Figure f;
  f.name = name;
  f.title = cmp_title(ctx, what, gs);
  std::vector<std::string> reading, ids;
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
    std::vector<std::string> parts;
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
      parts.push_back("**" + m + "** " + gpu_vals(labels, med));
    }
    if (!any) continue;
    p.hlines.push_back(bb_line());
    double xr = xmax > 0 ? xmax : 30720;
    if (!cp.marks_fig.empty()) xr = add_marks(p, ctx, cp.marks_fig, xr, &ids);
    p.xrange = std::make_pair(0.0, xr * 1.02);
    f.panels.push_back(p);
    reading.push_back(cp.title + ": median I over N ≥ " + fmt_int(kLargeN) + " — " + join(parts, "; ") + ".");
  }
  if (f.panels.empty()) return skip(ctx, name, nullptr, file + " has no rows for this selection on any GPU");
  f.width = f.panels.size() > 1 ? 1400 : 1000;
  f.height = 680;
  std::string r = join(reading, " ");
  if (!ids.empty()) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    r += " Paper marks: " + join(ids, ", ") + ".";
  }
  emit(ctx, f, nullptr, caption + " Every GPU in one figure: colour = map, line = GPU (" +
                            join(labels, " vs ") + ").", r);
}

Sel sel_of(std::initializer_list<std::pair<const char*, std::string>> eq, double rho = kRho) {
  Sel s;
  s.rho = rho;
  for (const auto& [k, v] : eq) s.eq[k] = v;
  return s;
}

void cmp_tet_I(Ctx& ctx) {
  // the rho of each GPU's tet_dummy / tet_threebody, as in tet_I: 8 first ("gpus_tet_I"), then the others
  std::vector<GpuTable> gd, g3;
  std::set<double> rhos;
  for (const GpuData& g : ctx.gpus) {
    for (const auto& [file, into] : {std::make_pair("tet_dummy.csv", &gd), std::make_pair("tet_threebody.csv", &g3)}) {
      const Table* t = g.get(file);
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
    std::vector<std::string> reading;
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
      std::vector<std::string> keys;  // "map (mode)" in first-seen order
      double xmax = 0;
      std::vector<std::string> parts;
      std::map<std::string, std::vector<std::pair<size_t, Pts>>> by;
      for (size_t k = 0; k < gs.size(); ++k)
        for (const std::string& m : maps_in(*gs[k].t, s)) {
          if (m.rfind("bb", 0) == 0) continue;
          for (const std::string& mode : col_values(*gs[k].t, "mode")) {
            Sel sm = s;
            if (!mode.empty()) sm.eq["mode"] = mode;
            const Pts q = curve(*gs[k].t, sm, m);
            if (q.empty()) continue;
            const std::string key = m + (mode.empty() ? "" : " (" + mode + ")");
            if (!by.count(key)) keys.push_back(key);
            by[key].emplace_back(k, q);
          }
        }
      if (keys.empty()) continue;
      for (size_t ki = 0; ki < keys.size(); ++ki) {
        std::vector<double> mx(gs.size(), NAN);
        bool labelled = false;
        for (const auto& [k, q] : by[keys[ki]]) {
          Series se;
          se.label = labelled ? "" : keys[ki];
          labelled = true;
          for (const auto& [x, y] : q) se.x.push_back(x), se.y.push_back(y);
          se.color = palette[ki % palette.size()];
          se.pt = 7 + 2 * int(ki % 4);  // 7, 9, 11, 13 (filled; open for the later GPUs)
          style_gpu(se, k);
          p.series.push_back(se);
          xmax = std::max(xmax, q.back().first);
          mx[k] = last_pt(q).second;
        }
        parts.push_back("**" + keys[ki] + "** " + gpu_vals(labels, mx));
      }
      tet_refs(ctx, p, std::isfinite(rho) ? int(rho) : kRho3, xmax);
      f.panels.push_back(p);
      reading.push_back(title + ", I at the largest N: " + join(parts, "; ") + ".");
    }
    if (f.panels.empty()) {
      skip(ctx, name, nullptr, "no tetrahedral-map rows at ρ = " + fmt_int(rho) + " on two GPUs");
      continue;
    }
    f.width = f.panels.size() >= 3 ? 1800 : f.panels.size() == 2 ? 1400 : 1000;
    f.height = 700;
    emit(ctx, f, nullptr,
         "003 §III-B on every GPU: the tetrahedral map against the bounding box, with eq. (17) at β = τ and the "
         "paper's 6× bound; colour = map and mode, line = GPU (" + join(labels_of(ctx, all), " vs ") + ").",
         join(reading, " "));
  }
}

void cmp_tet_layout(Ctx& ctx) {
  std::vector<GpuTable> gs;
  if (!cmp_gpus(ctx, "gpus_tet_layout", "tet_layout.csv", {"N"}, gs)) return;
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
    std::map<std::string, std::string> map_of;
    double rho = NAN;
    const std::string why = layout_curves(*gs[k].t, c, map_of, &rho);
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
  std::vector<std::string> parts;
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
    parts.push_back("**" + keys[ki] + "** " + gpu_vals(labels, mx));
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
  emit(ctx, f, nullptr,
       "003 §III-A on every GPU: linear over blocked time of the same kernel; colour = map and mode, line = GPU (" +
           join(labels, " vs ") + ").",
       "Largest linear / blocked ratio: " + join(parts, "; ") + ".");
}

void cmp_sdh_scaling(Ctx& ctx) {
  std::vector<GpuTable> gs;
  if (!cmp_gpus(ctx, "gpus_sdh_scaling", "sdh.csv", {"impl", "N"}, gs)) return;
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
  std::vector<std::string> parts;
  for (const std::string& impl : impls) {
    std::vector<std::string> v;
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
      v.push_back(labels[k] + " " + fmt_g(q.back().second, 3) + " at N = " + fmt_int(q.back().first));
    }
    parts.push_back("**" + impl + "** " + join(v, ", "));
  }
  p.xrange = std::make_pair(xlo / 1.25, xhi * 1.25);
  Figure f;
  f.name = "gpus_sdh_scaling";
  f.width = 1100;
  f.height = 720;
  f.title = cmp_title(ctx, "Spatial distance histogram: pairs per second vs N", gs);
  f.panels.push_back(p);
  emit(ctx, f, nullptr,
       "Throughput of each SDH version on every GPU (peers left out); colour = version, line = GPU (" +
           join(labels, " vs ") + ").",
       "Pairs per second at each GPU's largest N: " + join(parts, "; ") + ".");
}

void compare_gpus(Ctx& ctx) {
  const std::string ls = "form store (the papers' dummy)", lc = "form cond (map cost alone)";
  cmp_i_vs_n(ctx, "gpus_fig3_sqrt", "sqrt.csv",
             {{sel_of({{"form", "store"}}), "ρ = 16, " + ls, "fig3_sqrt"}, {sel_of({{"form", "cond"}}), "ρ = 16, " + lc, ""}},
             "Square roots of g(λ): I of LTM-X/N/R/D/E vs BB", "Fig. 3 (left) of 000 / 001, the square-root study.");
  cmp_i_vs_n(ctx, "gpus_fig5_dummy", "dummy.csv", {{sel_of({{"form", "store"}}), "ρ = 16, " + ls, "fig5_dummy"}},
             "Dummy kernel (form store): I of every map vs BB", "Fig. 5 of 000 / 001: the dummy kernel.");
  cmp_i_vs_n(ctx, "gpus_fig5_dummy_cond", "dummy.csv", {{sel_of({{"form", "cond"}}), "ρ = 16, " + lc, ""}},
             "Dummy kernel (form cond, no store): I of every map vs BB",
             "The dummy kernel without its contended store: the cost of each map alone.");
  for (int d : {1, 4}) {
    const std::string name = "fig5_edm_d" + std::to_string(d), fs_ = std::to_string(d);
    cmp_i_vs_n(ctx, "gpus_" + name, "edm.csv",
               {{sel_of({{"variant", "full"}, {"features", fs_}}), "ρ = 16, full N×N output", name},
                {sel_of({{"variant", "packed"}, {"features", fs_}}), "ρ = 16, packed triangle", ""}},
               "EDM, " + fs_ + " feature(s): I of every map vs BB",
               "Fig. 5 of 000 / 001: Euclidean distance matrix with " + fs_ + " feature(s).");
  }
  for (const char* dim : {"3d", "1d"}) {
    const std::string name = std::string("fig5_collision_") + dim;
    cmp_i_vs_n(ctx, "gpus_" + name, "collision.csv", {{sel_of({{"variant", dim}}), "ρ = 16", name}},
               std::string("Collision detection ") + dim + " (shared memory): I of every map vs BB",
               std::string("Fig. 5 of 000: collision detection (") + dim + ").");
  }
  cmp_tet_I(ctx);
  cmp_tet_layout(ctx);
  cmp_sdh_scaling(ctx);
}

// <results>/cpu/wasted3d.csv (written by another program) against the library's counts3.
void check_wasted3d(Ctx& ctx) {
  const Table* t = ctx.cpu.get("wasted3d.csv");
  if (!t) return;
  const std::string lb = t->first_of({"launched_blocks"}), ub = t->first_of({"useful_blocks"});
  if (!t->has("N") || !t->has("rho") || !t->has("map") || lb.empty()) {
    ctx.cpu_check = "wasted3d.csv lacks N, rho, map or launched_blocks: not checked";
    return;
  }
  size_t same = 0, differ = 0, skipped = 0;
  std::string first_bad;
  for (const Row& r : t->rows()) {
    const double N = r.d("N"), rho = r.d("rho");
    bool done = false;
    if (std::isfinite(N) && std::isfinite(rho) && N > 0 && rho > 0 && std::ceil(N / rho) <= 256) {
      const std::string name = r.s("map") == "tet" ? "tet-e" : r.s("map");  // wasted3d calls g(λ) "tet"
      tdmaps::with_map(tdmaps::maps3d{}, name.c_str(), [&](auto m) {
        using M = decltype(m);
        try {
          const tdmaps::Counts c = tdmaps::counts3<M>(M::plan(tdmaps::i64(N), int(rho), true));
          const bool ok = double(c.launched_blocks) == r.d(lb) && (ub.empty() || double(c.useful_blocks) == r.d(ub));
          (ok ? same : differ)++;
          if (!ok && first_bad.empty()) first_bad = r.s("map") + " N=" + r.s("N") + " rho=" + r.s("rho");
          done = true;
        } catch (const std::exception&) {
        }
      });
    }
    skipped += !done;
  }
  ctx.cpu_check = "`wasted3d.csv` against the map library's counts3: " + std::to_string(same) + " rows agree, " +
                  std::to_string(differ) + " differ" + (first_bad.empty() ? "" : " (first: " + first_bad + ")") + ", " +
                  std::to_string(skipped) + " not checked (unknown map or n > 256)";
  if (differ) ctx.notice(ctx.cpu_check);
}

std::vector<GpuData> find_gpus(const std::string& results, const std::string& only, Ctx& ctx) {
  std::vector<GpuData> v;
  std::error_code ec;
  if (!fs::is_directory(results, ec)) {
    ctx.notice("results folder " + results + " not found: only the figures without GPU data are drawn");
    return v;
  }
  for (const auto& e : fs::directory_iterator(results, ec)) {
    if (!e.is_directory()) continue;
    const std::string slug = e.path().filename().string();
    if (slug == "cpu" || slug.empty() || slug[0] == '.') continue;
    if (!only.empty() && slug != only) continue;
    GpuData g;
    g.slug = slug;
    g.dir = e.path().string();
    if (g.files().empty()) continue;
    v.push_back(std::move(g));
  }
  // h200 first (the reference GPU of the committed results), then the others by slug
  std::sort(v.begin(), v.end(), [](const GpuData& a, const GpuData& b) {
    return (a.slug == "h200") != (b.slug == "h200") ? a.slug == "h200" : a.slug < b.slug;
  });
  if (!only.empty() && v.empty()) ctx.notice("--gpu " + only + ": no folder " + results + "/" + only + " with CSVs");
  if (only.empty() && v.empty()) ctx.notice("no GPU results under " + results + ": only the figures without GPU data are drawn");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  Ctx ctx;
  std::string gpu;
  bool no_report = false;
  po::options_description d("tdmaps_figures: redraws every figure from the results and writes the report\noptions");
  d.add_options()("help,h", "show this help")
      ("results", po::value(&ctx.results)->default_value(ctx.results), "results folder (<gpu_slug>/ and cpu/)")
      ("out", po::value(&ctx.out)->default_value(ctx.out), "output folder of the PNG and SVG files")
      ("gpu", po::value(&gpu), "draw only this GPU's folder (default: every GPU folder found)")
      ("reported", po::value(&ctx.reported)->default_value(ctx.reported), "the papers' values")
      ("cpu-exact", po::value(&ctx.cpu_exact)->default_value(ctx.cpu_exact), "the CPU oracle's exact-range table")
      ("report", po::value(&ctx.report)->default_value(ctx.report), "the report to write")
      ("bib", po::value(&ctx.bib)->default_value(ctx.bib), "BibTeX of the reproduced papers (cited by the report)")
      ("no-svg", po::bool_switch(), "PNG only")
      ("no-report", po::bool_switch(&no_report), "do not write the report");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, d), vm);
    if (vm.count("help")) {
      std::cout << d << "\n";
      return 0;
    }
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "tdmaps_figures: " << e.what() << "\n";
    return 2;
  }
  ctx.svg = !vm["no-svg"].as<bool>();

  std::string why;
  if (!gnuplot_available(&why)) {
    ctx.gnuplot_ok = false;
    ctx.notice(why);
  }
  ctx.claims = load_claims(ctx.reported, &why);
  if (ctx.claims.empty()) ctx.notice(ctx.reported + ": " + (why.empty() ? "no claims" : why) + " (no paper marks, no claims table)");
  ctx.cpu_exact_table = read_table(ctx.cpu_exact, &why);
  if (!ctx.cpu_exact_table) ctx.notice(ctx.cpu_exact + ": " + why);
  ctx.cpu.slug = "cpu";
  ctx.cpu.dir = (fs::path(ctx.results) / "cpu").string();
  ctx.gpus = find_gpus(ctx.results, gpu, ctx);
  for (const GpuData& g : ctx.gpus) {
    std::cerr << "GPU " << g.slug << ": " << g.name() << ", commit " << (g.meta("commit").empty() ? "?" : g.meta("commit"))
              << ", " << (g.meta("date_utc").empty() ? "date ?" : g.meta("date_utc")) << " (" << g.files().size()
              << " CSV files in " << g.dir << ")\n";
  }

  check_wasted3d(ctx);
  // figures that need no GPU data
  fig3_wasted(ctx);
  tet_wasted(ctx);
  exact_range(ctx);
  size_t cpu_ok = 0;
  for (const FigRec& r : ctx.figs) cpu_ok += r.ok;

  for (const GpuData& g : ctx.gpus) {
    fig3_sqrt(ctx, g);
    fig5_dummy(ctx, g);
    fig5_edm(ctx, g, 1);
    fig5_edm(ctx, g, 4);
    fig5_collision(ctx, g, "3d");
    fig5_collision(ctx, g, "1d");
    fig5_features(ctx, g);
    edm_roofline(ctx, g);
    tet_I(ctx, g);
    tet_layout(ctx, g);
    sdh_ladder(ctx, g);
    sdh_scaling(ctx, g);
  }
  compare_gpus(ctx);  // figures/out/gpus_<name>: every GPU in one figure (two GPUs or more)
  size_t drawn = 0;
  for (const FigRec& r : ctx.figs) drawn += r.ok;
  std::cerr << "tdmaps_figures: " << drawn << " figure(s) drawn into " << ctx.out << ", " << (ctx.figs.size() - drawn)
            << " skipped\n";

  if (!no_report) {
    std::string err;
    if (!write_report(ctx, &err)) std::cerr << "tdmaps_figures: report not written: " << err << "\n";
    else std::cerr << "tdmaps_figures: wrote " << ctx.report << "\n";
  }
  return cpu_ok > 0 ? 0 : 1;
}
