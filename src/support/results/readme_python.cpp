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
// "<ratio>× (N = .., d = ..; <peer> ms / <ours> ms)" of the peer over tdmaps.pdist of the peer's output at the largest
// N with both.
std::string speedup(const std::vector<TableRow>& rows, const python_peers::Peer& peer) {
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
  if (!best_ours) return "not measured";
  return fmt_with(py_med(best_peer) / py_med(best_ours), "%.1f×") + " (N = " + best_ours->s("N") + ", d = " + best_ours->s("d") +
         "; " + fmt_with(py_med(best_peer), "%.3g") + " / " + fmt_with(py_med(best_ours), "%.3g") + " ms)";
}

// Every ratio of one folder's CSV (issue #38: "report every ratio"): at each N of d = 128, our three outputs' medians
// and each peer's median over ours with the same output; a call that did not run: its note's first words.
std::string every_ratio(const std::vector<TableRow>& rows, const std::string& prec) {
  using python_peers::peers;
  std::vector<std::string> Ns;
  for (const TableRow& r : rows)
    if (r.s("d") == pick_rows::kPythonD && r.s("impl") == python_peers::pdist &&
        std::find(Ns.begin(), Ns.end(), r.s("N")) == Ns.end())
      Ns.push_back(r.s("N"));
  if (Ns.empty()) return "";
  std::ostringstream o;
  o << "\n| N (d = " << pick_rows::kPythonD << ") | ours: "
    << join(std::vector<std::string>(std::begin(python_peers::outputs), std::end(python_peers::outputs)), " / ") << " (ms)";
  for (const python_peers::Peer& p : peers) o << " | " << p.label << " over ours (" << p.output << ")";
  o << " |\n|---|---";
  for (size_t k = 0; k < std::size(peers); ++k) o << "|---";
  o << "|\n";
  for (const std::string& N : Ns) {
    std::vector<std::string> ours;
    for (const char* out : python_peers::outputs)
      ours.push_back(fmt_with(py_med(pick_rows::python(rows, N, pick_rows::kPythonD, python_peers::pdist, out, prec)), "%.3g"));
    o << "| " << N << " | " << join(ours, " / ");
    for (const python_peers::Peer& p : peers) {
      const TableRow* q = pick_rows::python(rows, N, pick_rows::kPythonD, p.impl, p.output, p.precision);
      const double ours_ms = py_med(pick_rows::python(rows, N, pick_rows::kPythonD, python_peers::pdist, p.output, prec));
      const double v = py_med(q) / ours_ms;
      if (std::isfinite(v)) {
        o << " | " << fmt_with(v, v < 10 ? "%.2f×" : "%.0f×");
      } else {
        std::string why = q ? q->s("note") : "";
        why = why.substr(0, why.find(';'));
        o << " | " << (why.empty() ? std::string("not run") : "not run: " + why);
      }
    }
    o << " |\n";
  }
  return o.str();
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
    verdict_cell(G.add("overhead"), "38-overhead");
    verdict_cell(G.add("binding"), "38-thin");
    const std::string pip = t->meta_or("pip_install_s");
    G.set("gpu", t->meta_or("gpu", g.name()))
        .set("over_pdist", speedup(rows, python_peers::torch_pdist))
        .set("over_cdist", speedup(rows, python_peers::torch_cdist_tf32))
        .set("pip_s", pip)
        .set("pip_how", pip.empty() ? "" : t->meta_or("pip_install"));
    std::string table = every_ratio(rows, t->meta_or("precision", "tf32"));  // its line breaks at either end dropped
    while (!table.empty() && table.front() == '\n') table.erase(table.begin());
    while (!table.empty() && table.back() == '\n') table.pop_back();
    if (!table.empty()) s.add("ratios").set("gpu", t->meta_or("gpu", g.name())).set("table", table);
    s.add("source")
        .set("slug", g.slug)
        .set("tdmaps", t->meta_or("tdmaps", "?"))
        .set("torch", t->meta_or("torch", "?"))
        .set("date", t->meta_or("date_utc", "date ?"));
  }
  return fill_readme(ctx.readme, "python", s);
}

}  // namespace results
