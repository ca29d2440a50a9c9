// figures/fig_sdh.cpp — one GPU's spatial distance histogram figures (004): the
// optimisation ladder (time of each version) and the throughput against N.
#include "figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace figs {

// ---- SDH ------------------------------------------------------------------------------------------
namespace {

double sdh_t(const TableRow& r) {
  const double w = r.d("with_transfers_ms");
  return std::isfinite(w) ? w : r.d("median_ms");
}

}  // namespace

void sdh_ladder(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "sdh_ladder", g, results::layout::sdh, {"impl", "N", "median_ms"});
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
  Slots slots;
  slots.list("panels");
  for (double N : which) {
    Panel p;
    p.bars = true;
    p.logy = true;
    p.title = "N = " + fmt_int(N);
    p.ylabel = "time (ms)";
    p.key = "top right";
    // one category per implementation at N (the paper's slot order first)
    std::vector<std::pair<std::string, TableRow>> rows;
    const std::vector<std::string> order = sdh_slots();
    std::map<std::string, TableRow> chosen;
    for (const TableRow& r : t->rows()) {
      if (r.d("N") != N) continue;
      const std::string impl = r.s("impl");
      auto it = chosen.find(impl);
      // prefer the paper's bucket width and block size
      const auto score = [](const TableRow& x) {
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
    Slots& panel = slots.add("panels");
    panel.set("n", fmt_int(N)).list("impls");
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
      panel.add("impls").set("impl", impl).set("ms", fmt_g(sdh_t(r), 3));
    }
    p.series.push_back(kern);
    if (any_trans) p.series.push_back(trans);
    if (any_paper) p.series.push_back(paper);
    // versions of the table with no row at this N: bench_sdh skipped them (a run predicted past its limits)
    std::vector<std::string> absent;
    for (const std::string& impl : values_of(*t, "impl"))
      if (!chosen.count(impl)) absent.push_back(impl);
    if (!absent.empty()) {
      p.labels.push_back(Label{0.03, 0.78, "no bar: " + join(absent, ", ")});
      p.labels.push_back(Label{0.03, 0.73, "(not run at this N: predicted past the run's limits)"});
    }
    f.panels.push_back(p);
    panel.list("absent");
    for (const std::string& impl : absent) panel.add("absent").set("impl", impl);
  }
  emit(ctx, f, &g, slots);
}

// Pairs per second against N of each implementation of an SDH table (the paper's 256
// threads per block for the GPU versions), in the table's order.
std::vector<std::pair<std::string, Pts>> sdh_curves(const Table& tab) {
  const auto pps = [](const TableRow& r) {
    double v = r.d("pairs_per_s");
    if (!std::isfinite(v) && r.d("median_ms") > 0) v = r.d("N") * (r.d("N") - 1) / 2 / (r.d("median_ms") * 1e-3);
    return v;
  };
  std::vector<std::pair<std::string, Pts>> out;
  for (const std::string& impl : values_of(tab, "impl")) {
    std::map<double, std::vector<double>> by;
    for (const TableRow& r : tab.rows())
      if (r.s("impl") == impl && std::isfinite(r.d("N")) && std::isfinite(pps(r))) {
        // unchecked (csv.hpp's *_opt): sdh.csv has threads_per_block, peers_sdh.csv (the same lambda) has not
        if (tab.has_opt("threads_per_block") && std::isfinite(r.d("threads_per_block")) && r.d("threads_per_block") != 256 &&
            sdh_seed_version(impl))
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
  const Table* t = need(ctx, "sdh_scaling", g, results::layout::sdh, {"impl", "N"});
  if (!t) return;
  Figure f;
  f.name = "sdh_scaling";
  f.title = title_of("Spatial distance histogram: pairs per second vs N", &g);
  Panel p;
  p.xlabel = "N (points)";
  p.ylabel = "pairs / s";
  p.logx = p.logy = true;
  p.key = "below";
  Slots slots;
  slots.list("curves");
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
      slots.add("curves").flag("peer", dashed).set("impl", impl).set("pairs_s", fmt_g(q.back().second, 3)).set("n", fmt_int(q.back().first));
    }
  };
  add(*t, "", false);
  if (const Table* peers = g.get(results::layout::peers_sdh))
    if (peers->has("impl") && peers->has("N")) add(*peers, "peer: ", true);
  if (p.series.empty()) return skip(ctx, "sdh_scaling", &g, "sdh.csv has no pairs_per_s / median_ms");
  p.xrange = std::make_pair(xlo / 1.25, xhi * 1.25);
  f.panels.push_back(p);
  emit(ctx, f, &g, slots);
}

}  // namespace figs
