// src/support/results/readme_python.cpp — README's <!-- python:begin/end --> block (issue #38 items 5, 6): the
// install line, a five-line example and, for each GPU folder, the Python package's measured speed-ups from its
// peers_python.csv (experiments/peers/python_peers.py; layout results::layout::peers_python). Every number is read
// from the committed CSV; a folder without the file, or a value the file lacks, says "not measured".
#include "python_names.hpp"  // the rows' names: tdmaps.pdist, its outputs, the peers (python_peers.py takes them)
#include "readme.hpp"
#include "select.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdio>
#include <sstream>

namespace results {
namespace {

// A row's median when it ran and, for our rows, passed its float64 check (verified != 0); NaN otherwise.
double py_med(const TableRow* r) {
  if (!r || r->d("verified") == 0) return NAN;
  const double v = r->d("median_ms");
  return v > 0 ? v : NAN;
}
// The slots of partial `python_speedup` in `s`: flag ran; the peer's median over tdmaps.pdist's of the peer's output
// (x), at the largest N with both (N, d), and the two medians (peer_ms, ours_ms).
void speedup(const std::vector<TableRow>& rows, const python_peers::Peer& peer, tmpl::Scope& s) {
  const TableRow *best_ours = nullptr, *best_peer = nullptr;
  for (const TableRow& r : rows) {
    if (r.s("impl") != python_peers::pdist || r.s("output") != peer.output || !std::isfinite(py_med(&r))) continue;
    const TableRow* p = nullptr;
    for (const TableRow& q : rows)
      if (q.s("impl") == peer.impl && q.s("output") == peer.output && q.s("precision") == peer.precision && q.s("N") == r.s("N") &&
          q.s("d") == r.s("d") && std::isfinite(py_med(&q)))
        p = &q;
    if (!p) continue;
    // the largest N; at equal N, d = 128 (issue #38's d) first
    const bool better = !best_ours || r.d("N") > best_ours->d("N") ||
                        (r.d("N") == best_ours->d("N") && r.s("d") == pick_rows::kPythonD);
    if (better) best_ours = &r, best_peer = p;
  }
  s.flag("ran", best_ours != nullptr);
  s.set("x", best_ours ? fmt_with(py_med(best_peer) / py_med(best_ours), "%.1f") : "")
      .set("N", best_ours ? best_ours->s("N") : "")
      .set("d", best_ours ? best_ours->s("d") : "")
      .set("peer_ms", best_ours ? fmt_with(py_med(best_peer), "%.3g") : "")
      .set("ours_ms", best_ours ? fmt_with(py_med(best_ours), "%.3g") : "");
}

// Every ratio of one folder's CSV (issue #38: "report every ratio"), the slots of the table in section `python`: at
// each N of d = 128 (list `ratio_row`), our three outputs' medians (list `ours`) and each peer's median over ours with
// the same output (list `cell`: flag ran, the ratio v, else the first words of the row's note, why); false (nothing
// set) without a row of d = 128.
bool every_ratio(const std::vector<TableRow>& rows, const std::string& prec, tmpl::Scope& s) {
  using python_peers::peers;
  std::vector<std::string> Ns;
  for (const TableRow& r : rows)
    if (r.s("d") == pick_rows::kPythonD && r.s("impl") == python_peers::pdist &&
        std::find(Ns.begin(), Ns.end(), r.s("N")) == Ns.end())
      Ns.push_back(r.s("N"));
  if (Ns.empty()) return false;
  for (const char* out : python_peers::outputs) s.add("output").set("name", out);
  for (const python_peers::Peer& p : peers) s.add("peer").set("label", p.label).set("output", p.output);
  for (const std::string& N : Ns) {
    tmpl::Scope& R = s.add("ratio_row");
    R.set("N", N);
    for (const char* out : python_peers::outputs)
      R.add("ours").set("v", fmt_with(py_med(pick_rows::python(rows, N, pick_rows::kPythonD, python_peers::pdist, out, prec)), "%.3g"));
    for (const python_peers::Peer& p : peers) {
      const TableRow* q = pick_rows::python(rows, N, pick_rows::kPythonD, p.impl, p.output, p.precision);
      const double ours_ms = py_med(pick_rows::python(rows, N, pick_rows::kPythonD, python_peers::pdist, p.output, prec));
      const double v = py_med(q) / ours_ms;
      std::string why = std::isfinite(v) || !q ? "" : q->s("note");
      why = why.substr(0, why.find(';'));
      R.add("cell").flag("ran", std::isfinite(v)).set("v", std::isfinite(v) ? fmt_with(v, v < 10 ? "%.2f" : "%.0f") : "").set("why", why);
    }
  }
  return true;
}

}  // namespace

std::string readme_python_block(const Ctx& ctx, const std::vector<TargetVerdict>& verdicts) {
  // the prose: section `python` of readme.template.md; here the numbers, names and table cells
  tmpl::Scope s;
  s.set("overhead_N", pick_rows::kPythonOverheadN).set("thin_N", pick_rows::kPythonThinN).set("D", pick_rows::kPythonD);
  s.list("without");
  for (const GpuData& g : ctx.gpus)
    if (!g.get(results::layout::peers_python)) s.add("without").set("slug", g.slug);
  // nothing measured: one sentence, no table of dashes
  s.flag("measured", s.lists["without"].size() != ctx.gpus.size()).flag("no_gpu", ctx.gpus.empty());
  s.list("gpu");
  s.list("source");
  s.list("ratios");
  for (const GpuData& g : ctx.gpus) {
    const Table* t = g.get(results::layout::peers_python);
    tmpl::Scope& G = s.add("gpu");
    G.flag("has_csv", t != nullptr).set("slug", g.slug).set("name", g.name());
    if (!t) continue;
    const std::vector<TableRow> rows = t->rows();
    // issue #38's targets against this folder (38-overhead, 38-thin of paper/targets.csv, judged in
    // paper/claims/targets.cpp: the report lists the same rows)
    const auto verdict_cell = [&](tmpl::Scope& c, const char* id) {
      const TargetVerdict* v = find_verdict(verdicts, id, g.slug);
      c.flag("judged", v != nullptr);
      c.set("measured", v ? v->measured : "").set("verdict", v ? v->verdict : "").set("where", v ? v->where : "");
    };
    speedup(rows, python_peers::torch_pdist, G.add("over_pdist"));
    speedup(rows, python_peers::torch_cdist_tf32, G.add("over_cdist"));
    verdict_cell(G.add("overhead"), "38-overhead");
    verdict_cell(G.add("binding"), "38-thin");
    const std::string pip = t->meta_or("pip_install_s");
    G.set("gpu", t->meta_or("gpu", g.name()))
        .set("pip_s", pip)
        .set("pip_how", pip.empty() ? "" : t->meta_or("pip_install"));
    tmpl::Scope ratios;
    if (every_ratio(rows, t->meta_or("precision", "tf32"), ratios))
      s.add("ratios") = std::move(ratios.set("gpu", t->meta_or("gpu", g.name())));
    s.add("source")
        .set("slug", g.slug)
        .set("tdmaps", t->meta_or("tdmaps", "?"))
        .set("torch", t->meta_or("torch", "?"))
        .set("date", t->meta_or("date_utc", "date ?"));
  }
  return fill_readme(ctx.readme, "python", s);
}

}  // namespace results
