// figures/fig_exact.cpp — the figures that need no GPU data: wasted blocks and threads from
// the map library (fig3_wasted, tet_wasted), the exact range of each float map (CPU oracle,
// plus each GPU's sweep where measured), and the check of <results>/cpu/wasted3d.csv.
#include "figures.hpp"

#include <tdmaps/counts.hpp>
#include <tdmaps/numbers.hpp>  // the rounding modes' names (Pinned::name, Fused::name)
#include "registry/map_names.hpp"  // a variant's map by name

#include <algorithm>
#include <cmath>
#include <map>

namespace figs {

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
  p.series.push_back(series_of("BB (library)", w.wasted.at(tdmaps::BB::name), tdmaps::BB::name));
  Series bal = series_of("LTM, balanced n'×n' grid of §III-A", w.balanced, tdmaps::LTM_R::name);
  p.series.push_back(bal);
  for (const char* m : {tdmaps::REC::name, tdmaps::RB::name, tdmaps::UTM_N::name}) {
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
  for (const char* m : {tdmaps::LTM_E::name, tdmaps::RB::name, tdmaps::REC::name, tdmaps::UTM_N::name}) {
    bool all0 = true, any = false;
    for (double v : w.wasted.at(m))
      if (std::isfinite(v)) { any = true; all0 = all0 && v == 0; }
    if (any && all0) zero.push_back(m == std::string(tdmaps::LTM_E::name) ? "LTM (library, linear grid)" : std::string(m));
  }
  if (!zero.empty()) p.labels.push_back(Label{0.02, 0.04, "0 wasted blocks at every N: " + join(zero, ", ")});
  p.title = "n = ceil(N/16)";
  f.panels.push_back(p);
  double worst = 0;
  for (size_t k = 0; k < w.N.size(); ++k) worst = std::max(worst, w.balanced[k] / w.n[k]);
  emit(ctx, f, nullptr,
       Slots()
           .set("n_max", fmt_int(w.N.back()))
           .set("bb", fmt_int(w.wasted.at(tdmaps::BB::name).back()))
           .set("balanced", fmt_int(w.balanced.back()))
           .set("worst", fmt(worst, 2))
           .set("linear", fmt_int(w.wasted.at(tdmaps::LTM_E::name).back())));
}

// ---- exact ranges ------------------------------------------------------------------------------
namespace {

struct ExactEntry {
  std::string source;  // "CPU oracle" or the GPU's name
  std::string variant, kind;
  double N = NAN;      // largest exact N at the panel's rho
  bool lower = false;  // no failure below the searched limit
  bool host = false;   // CPU host emulation of a device function
};

// Rows of a table with columns variant, kind, first_wrong, largest_exact_N_rho<R>.
void variant_rows(const Table& t, const std::string& source, int rho, bool three_d, std::vector<ExactEntry>& out) {
  const std::string col = "largest_exact_N_rho" + std::to_string(rho);
  if (!t.has("variant") || !t.has(col)) return;
  for (const TableRow& r : t.rows()) {
    // the variant's map (a "-host" name: the CPU's emulation of that map's device root; registry/map_names.hpp)
    const std::optional<tdmaps::named_map> m = tdmaps::map_named(r.s("variant"));
    const bool is3 = r.s("kind") == results::exact_kind::block3 || (m && m->dims == 3);
    if (is3 != three_d || !std::isfinite(r.d(col))) continue;
    // the library's rounding (tdmaps::Pinned); the FMA-contracted rows (column rounding Fused::name, the
    // papers' nvcc default) are judged in the claims table, not drawn twice here
    if (t.has("rounding") && r.s("rounding") == tdmaps::Fused::name) continue;
    const bool host = m && m->host;
    ExactEntry e{source, host ? std::string(m->map) : r.s("variant"), r.s("kind"), r.d(col), r.s("first_wrong") == "none",
                 host};
    out.push_back(e);
  }
}
// tet_exact_range_gpu.csv: root, part (layer|row), ..., largest_exact_N_rho<R>, index_bits: a map
// is exact where both of its parts are. A part's 32-bit path serves only the blocks below 2^31 and
// its 64-bit path the rest, so a part reaches the larger of its paths' N where neither failed (a
// path that failed bounds the part by its own N).
void root_rows(const Table& t, const std::string& source, int rho, std::vector<ExactEntry>& out) {
  const std::string col = "largest_exact_N_rho" + std::to_string(rho);
  if (!t.has("root") || !t.has(col)) return;
  std::map<std::string, std::map<std::string, ExactEntry>> by;  // root -> part -> its reach
  for (const TableRow& r : t.rows()) {
    if (!std::isfinite(r.d(col))) continue;
    const bool clean = r.s("first_wrong") == "none";
    auto& parts = by[r.s("root")];
    auto it = parts.find(r.s("part"));
    if (it == parts.end()) {
      parts[r.s("part")] = ExactEntry{source, r.s("root"), results::exact_kind::block3, r.d(col), clean, false};
    } else if (clean && it->second.lower) {
      it->second.N = std::max(it->second.N, r.d(col));
    } else {
      it->second.N = std::min(it->second.N, r.d(col));
      it->second.lower = false;
    }
  }
  for (const auto& [root, parts] : by) {
    ExactEntry e = parts.begin()->second;
    for (const auto& [part, x] : parts) {
      e.N = std::min(e.N, x.N);
      e.lower = e.lower && x.lower;
    }
    out.push_back(e);
  }
}

}  // namespace

void exact_range(Ctx& ctx) {
  const int rho2 = kRho, rho3 = kRho3;
  std::vector<ExactEntry> e2, e3;
  std::vector<std::string> sources, source_gpu;  // each source's label (the key's) and GPU name ("": the CPU oracle)
  if (ctx.cpu_exact_table) {
    variant_rows(*ctx.cpu_exact_table, "CPU oracle", rho2, false, e2);
    variant_rows(*ctx.cpu_exact_table, "CPU oracle", rho3, true, e3);
    sources.push_back("CPU oracle");
    source_gpu.push_back("");
  }
  for (const GpuData& g : ctx.gpus) {
    const size_t before = e2.size() + e3.size();
    std::vector<ExactEntry> g3;
    if (const Table* t = g.get(results::layout::exact_range_gpu)) {
      variant_rows(*t, "GPU: " + g.name(), rho2, false, e2);
      variant_rows(*t, "GPU: " + g.name(), rho3, true, g3);
    }
    if (const Table* t = g.get(results::layout::tet_exact_range_gpu)) {
      std::vector<ExactEntry> r3;
      root_rows(*t, "GPU: " + g.name(), rho3, r3);
      for (const ExactEntry& e : r3) {  // exact_range_gpu.csv first; the 3D table adds the rest
        bool have = false;
        for (const ExactEntry& x : g3) have = have || x.variant == e.variant;
        if (!have) g3.push_back(e);
      }
    }
    e3.insert(e3.end(), g3.begin(), g3.end());
    if (e2.size() + e3.size() > before) {
      sources.push_back("GPU: " + g.name());
      source_gpu.push_back(g.name());
    }
  }
  if (e2.empty() && e3.empty())
    return skip(ctx, "exact_range", nullptr, "no exact-range table (" + ctx.cpu_exact + " missing, no GPU table)");
  const std::vector<std::string> colors = {"#7f7f7f", "#d62728", "#1f77b4", "#2ca02c", "#9467bd"};
  Figure f;
  f.name = "exact_range";
  f.title = "Largest exact N of each float map: CPU oracle and GPU";
  f.width = 1400;
  f.height = 640;
  Slots slots;
  slots.list("cats");
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
    // A source whose largest exact N is 0 (the map is wrong from its first block: tet-f on the
    // GPU) has no bar on the log axis; its category says so instead of leaving a silent gap.
    std::map<std::string, bool> none_exact;
    for (const ExactEntry& e : es)
      if (std::isfinite(e.N) && e.N < 1 && e.source.rfind("GPU", 0) == 0) none_exact[e.variant] = true;
    // a map the CPU oracle's table has no row for (tet-fast: its range is proven in the library) says so
    std::map<std::string, bool> has_cpu;
    for (const ExactEntry& e : es)
      if (e.source == "CPU oracle") has_cpu[e.variant] = true;
    const bool any_cpu = std::find(sources.begin(), sources.end(), "CPU oracle") != sources.end();
    for (const std::string& c : cats)
      p.categories.push_back(c + (kind[c] == results::exact_kind::thread ? " (threads)" : "") + (lower[c] ? " ≥" : "") +
                             (host[c] ? " *" : "") +
                             (none_exact[c] ? " (GPU: no bar, wrong from λ = 0)" : "") +
                             (any_cpu && !has_cpu[c] ? " (no CPU oracle row)" : ""));
    std::vector<size_t> source_of;  // the source of each series
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
      if (any) {
        p.series.push_back(s);
        source_of.push_back(k);
      }
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
      Slots& cat = slots.add("cats");
      cat.set("variant", cats[k]).set("rho", std::to_string(rho)).flag("lower", lower[cats[k]]).list("values");
      for (size_t i = 0; i < source_of.size(); ++i)
        if (std::isfinite(p.series[i].y[k]))
          cat.add("values").set("gpu", source_gpu[source_of[i]]).set("n", fmt_int(p.series[i].y[k]));
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
  emit(ctx, f, nullptr, slots);
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
  a.series.push_back(map_series(tdmaps::BB3::name, b3, "BB3 (bounding cube)"));
  a.series.push_back(map_series(tdmaps::TET_E::name, te, "TET (g(λ), linear grid)"));
  Series s2 = map_series(tdmaps::TET_E::name, ref2, "n²ρ³ (003: O(n²ρ³))");
  s2.with = "lines";
  s2.dt = 2;
  s2.color = "#ff7f0e";
  Series s3 = map_series(tdmaps::BB3::name, ref3, "n³ρ³ (O(n³))");
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
  b.series.push_back(map_series(results::kWasted3dTet, ratio, "library plans (= eq. 17 at β = τ)"));
  if (const Claim* c = ctx.claim("003-blocks-6x"))
    if (c->pv.numeric()) b.hlines.push_back(HLine{c->pv.lo, "paper: → " + fmt_g(c->pv.lo) + " (003-blocks-6x)", "#d62728", 2, 1.4});
  b.yrange = std::make_pair(0.0, 6.5);
  f.panels.push_back(a);
  f.panels.push_back(b);
  emit(ctx, f, nullptr,
       Slots()
           .set("n_max", fmt_int(w.N.back()))
           .set("n", fmt_int(w.n.back()))
           .set("bb3", fmt_g(w.bb3_wasted_threads.back(), 4))
           .set("tet", fmt_g(w.tet_wasted_threads.back(), 4))
           .set("tet_per_n2rho3", fmt(w.tet_wasted_threads.back() / ref2.back().second, 3))
           .set("ratio", fmt(ratio.back().second, 3)));
}

// <results>/cpu/wasted3d.csv (written by another program) against the library's counts3.
void check_wasted3d(Ctx& ctx) {
  const Table* t = ctx.cpu.get(results::layout::wasted3d);
  if (!t) return;
  const std::string lb = t->first_of({"launched_blocks"}), ub = t->first_of({"useful_blocks"});
  if (!t->has("N") || !t->has("rho") || !t->has("map") || lb.empty()) {
    ctx.cpu_check = "wasted3d.csv lacks N, rho, map or launched_blocks: not checked";
    return;
  }
  size_t same = 0, differ = 0, skipped = 0;
  std::string first_bad;
  for (const TableRow& r : t->rows()) {
    const double N = r.d("N"), rho = r.d("rho");
    bool done = false;
    if (std::isfinite(N) && std::isfinite(rho) && N > 0 && rho > 0 && std::ceil(N / rho) <= 256) {
      // wasted3d.csv names TET's counts kWasted3dTet (any root: tet(n) blocks); counted here as TET_E
      const std::string name = r.s("map") == results::kWasted3dTet ? tdmaps::TET_E::name : r.s("map");
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

}  // namespace figs
