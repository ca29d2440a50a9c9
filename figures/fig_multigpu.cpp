// figures/fig_multigpu.cpp — one GPU folder's multi-GPU figure (issues #16, #17, #37): the SDH, three-body
// and exact Gram histograms of experiments/multigpu/multi_hist split over GPUs x chunks
// (sdh_multigpu.csv, threebody_multigpu.csv, gram_multigpu_exact.csv): speed-up over 1 GPU × 1 chunk against the number
// of GPUs, the parallel efficiency, and the NCCL reduction's share of the run.
#include "figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace figs {

namespace {

// One curve family: an app's kernel at one N (every (gpus, chunks) row of it).
struct MgKey {
  std::string app, kernel;
  double N = NAN;
  bool operator<(const MgKey& o) const { return std::tie(app, kernel, N) < std::tie(o.app, o.kernel, o.N); }
};

struct MgPoint {
  double speedup = NAN, reduce_frac = NAN, reduce_ms = NAN;
};

std::string app_name(const std::string& app) {
  namespace a = results::multigpu_app;
  return app == a::sdh ? "SDH" : app == a::threebody ? "three-body" : app == a::gram_exact ? "gram (exact)" : app;
}

std::string chunk_text(double c) { return fmt_int(c) + (c == 1 ? " chunk" : " chunks"); }  // the key's

// A configuration's counts as slots (the partials n_gpus and n_chunks of figures/captions.template.md).
Slots& counts(Slots& s, double gpus, double chunks) {
  return s.set("gpus", fmt_int(gpus)).flag("one_gpu", gpus == 1).set("chunks", fmt_int(chunks)).flag("one_chunk", chunks == 1);
}

}  // namespace

void multigpu_scaling(Ctx& ctx, const GpuData& g) {
  const std::string name = "multigpu_scaling";
  // any one file is enough; the figure is skipped only when none can be drawn
  std::vector<const Table*> tabs;
  std::vector<std::string> why;
  for (const results::Layout* layout :
       {&results::layout::sdh_multigpu, &results::layout::threebody_multigpu, &results::layout::gram_multigpu_exact}) {
    const char* file = layout->file;
    const Table* t = g.get(*layout);
    if (!t) {
      why.push_back(g.reason(*layout));
      continue;
    }
    // app: which histogram each row is (layouts.hpp multigpu_app); every multi_hist CSV has it, none is guessed
    const std::string miss = t->missing({"app", "N", "gpus", "chunks", "median_ms"});
    if (!miss.empty()) {
      why.push_back(t->path + " lacks column(s) " + miss);
      ctx.notice(name + " [" + g.slug + "]: " + why.back() + " (not drawn)");
    } else if (t->size() == 0) {
      why.push_back(std::string(file) + " has no rows");
    } else {
      tabs.push_back(t);
    }
  }
  if (tabs.empty()) return skip(ctx, name, &g, join(why, "; "));

  // (app, kernel, N) -> chunks -> gpus -> rows' values (medians when a configuration repeats)
  std::map<MgKey, std::map<double, std::map<double, std::vector<MgPoint>>>> fam;
  Slots slots;
  slots.list("dropped");
  for (const Table* t : tabs) {
    // 1 GPU x 1 chunk of each (app, kernel, N): the base when the table has no rate_vs_first
    std::map<MgKey, double> base_ms;
    const auto key_of = [&](const TableRow& r) { return MgKey{r.s("app"), r.s("kernel"), r.d("N")}; };
    for (const TableRow& r : t->rows())
      if (r.d("gpus") == 1 && r.d("chunks") == 1 && std::isfinite(r.d("median_ms"))) base_ms[key_of(r)] = r.d("median_ms");
    for (const TableRow& r : t->rows()) {
      const MgKey k = key_of(r);
      if (!std::isfinite(k.N) || !std::isfinite(r.d("gpus")) || !std::isfinite(r.d("chunks"))) continue;
      if (r.d("identical") == 0 || r.d("verified") == 0) {  // a wrong histogram is no measurement
        counts(slots.add("dropped").set("app", app_name(k.app)).set("n", fmt_int(k.N)), r.d("gpus"), r.d("chunks"));
        continue;
      }
      MgPoint p;
      p.speedup = r.d("rate_vs_first");
      if (!std::isfinite(p.speedup) && base_ms.count(k) && r.d("median_ms") > 0) p.speedup = base_ms[k] / r.d("median_ms");
      p.reduce_ms = r.d("reduce_ms");
      p.reduce_frac = r.d("reduce_frac");
      if (!std::isfinite(p.reduce_frac) && r.d("median_ms") > 0) p.reduce_frac = p.reduce_ms / r.d("median_ms");
      fam[k][r.d("chunks")][r.d("gpus")].push_back(p);
    }
  }
  if (fam.empty()) return skip(ctx, name, &g, "no row with N, gpus and chunks (or none bit-identical)");

  Figure f;
  f.name = name;
  f.title = title_of("Multi-GPU histograms: speed-up over 1 GPU × 1 chunk, efficiency, reduction share", &g);
  f.width = 1500;
  f.height = 560;
  Panel sp, ef, rd;
  sp.title = "speed-up (ideal: y = x)";
  sp.ylabel = "speed-up over 1 GPU × 1 chunk";
  sp.key = "bottom right";
  ef.title = "parallel efficiency = speed-up / GPUs";
  ef.ylabel = "efficiency";
  ef.key = "bottom left";
  rd.title = "NCCL reduction share of the run (log)";
  rd.ylabel = "reduce_ms / run time";
  rd.logy = true;
  rd.yformat = "%.0e";
  rd.key = "bottom right";
  rd.hlines.push_back(HLine{0.01, "1% of the run", "#999999", 2, 1.2});
  for (Panel* p : {&sp, &ef, &rd}) {
    p->xlabel = "GPUs";
    p->xtic = 1;
    p->xformat = "%g";
  }
  // colour = (app, kernel, N) in the files' order (SDH first); line and mark fill = chunks
  static const char* colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"};
  static const int pts[] = {7, 5, 9, 13, 11};
  std::map<std::string, std::set<std::string>> kernels;
  for (const auto& [k, byc] : fam) kernels[k.app].insert(k.kernel);
  std::vector<MgKey> keys;
  for (const auto& [k, byc] : fam) keys.push_back(k);
  std::stable_sort(keys.begin(), keys.end(), [](const MgKey& a, const MgKey& b) {
    return (a.app == results::multigpu_app::sdh) != (b.app == results::multigpu_app::sdh) ? a.app == results::multigpu_app::sdh : a < b;
  });
  std::set<double> chunk_values;
  for (const auto& [k, byc] : fam)
    for (const auto& [c, byg] : byc) chunk_values.insert(c);
  const std::vector<double> chunks(chunk_values.begin(), chunk_values.end());
  double gmax = 1;
  slots.list("families");
  bool any_reduce = false;
  for (size_t ki = 0; ki < keys.size(); ++ki) {
    const MgKey& k = keys[ki];
    const std::string who = app_name(k.app) + (kernels[k.app].size() > 1 ? " " + k.kernel : "") + ", N = " + fmt_int(k.N);
    Slots family;
    family.set("app", app_name(k.app)).flag("several_kernels", kernels[k.app].size() > 1).set("kernel", k.kernel);
    family.set("n", fmt_int(k.N)).list("runs");
    family.list("reduction");
    Slots reduction;
    bool reduced = false;
    for (const auto& [c, byg] : fam.at(k)) {
      const size_t ci = size_t(std::find(chunks.begin(), chunks.end(), c) - chunks.begin());
      Series s;
      s.label = who + ", " + chunk_text(c);
      s.color = colors[ki % (sizeof colors / sizeof *colors)];
      s.pt = pts[ki % (sizeof pts / sizeof *pts)] - (ci > 0 ? 1 : 0);  // open marks for the later chunk counts
      s.dt = int(ci % 5) + 1;
      s.ps = ci > 0 ? 1.2 : 0.9;
      Series e = s, q = s;
      e.label = q.label = "";
      for (const auto& [gp, v] : byg) {
        std::vector<double> spv, rfv, rmv;
        for (const MgPoint& p : v) {
          spv.push_back(p.speedup);
          rfv.push_back(p.reduce_frac);
          rmv.push_back(p.reduce_ms);
        }
        const double su = median(spv), rf = median(rfv), rm = median(rmv);
        gmax = std::max(gmax, gp);
        s.x.push_back(gp);
        s.y.push_back(su);
        e.x.push_back(gp);
        e.y.push_back(su / gp);
        q.x.push_back(gp);
        q.y.push_back(rf);
        any_reduce = any_reduce || (std::isfinite(rf) && rf > 0);
        if (!(gp == 1 && c == 1)) counts(family.add("runs"), gp, c).set("speedup", fmt(su, 3));
        if (gp > 1 && c == chunks.front() && std::isfinite(rf)) {  // the last such configuration's
          reduction = Slots();
          counts(reduction, gp, c).set("ms", fmt_g(rm, 2)).set("pct", fmt_g(100 * rf, 2));
          reduced = true;
        }
      }
      sp.series.push_back(s);
      ef.series.push_back(e);
      rd.series.push_back(q);
    }
    if (reduced) family.list("reduction").push_back(reduction);
    slots.list("families").push_back(family);
  }
  Series ideal;
  ideal.label = "ideal (y = x)";
  ideal.color = "#000000";
  ideal.with = "lines";
  ideal.dt = 3;
  ideal.lw = 1.2;
  ideal.x = {1, gmax};
  ideal.y = {1, gmax};
  sp.series.push_back(ideal);
  ef.hlines.push_back(HLine{1.0, "ideal (1)", "#000000", 3, 1.2});
  for (Panel* p : {&sp, &ef, &rd}) p->xrange = std::make_pair(0.75, gmax + 0.25);
  f.panels.push_back(sp);
  f.panels.push_back(ef);
  if (any_reduce) f.panels.push_back(rd);

  emit(ctx, f, &g, slots);
}

}  // namespace figs
