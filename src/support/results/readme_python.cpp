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
  std::ostringstream o;
  o << "<!-- written by tdmaps_figures --readme from each GPU folder's peers_python.csv "
       "(src/support/results/readme_python.cpp) -->\n";
  o << "```sh\n.ci/deps.sh --cutlass    # on a GPU machine, once: the CUTLASS headers the kernels need (no root)\n"
       "pip install .            # from this repository's root: the package tdmaps and its CUDA extension\n```\n\n";
  o << "```python\n"
       "import torch, tdmaps\n"
       "x = torch.rand(20_000, 128, device=\"cuda\")    # N points in d features, float32 on the GPU (CuPy, JAX: the same)\n"
       "d = tdmaps.pdist(x)                            # condensed, the order of torch.pdist / SciPy pdist (TF32)\n"
       "D = tdmaps.pdist(x, out=\"square\")              # the whole N x N, as torch.cdist(x, x)\n"
       "hist, edges = tdmaps.histogram(x, bins=64)     # the pair distances' histogram: nothing of N x N written\n"
       "```\n\n";
  const std::string overhead_N = pick_rows::kPythonOverheadN, thin_N = pick_rows::kPythonThinN, D = pick_rows::kPythonD;
  const std::string how = "`experiments/peers/python_peers.py` (one process, the same float32 points, each output checked "
                          "against float64 before it is timed; medians of CUDA-event times with the GPU idle before each "
                          "call, so the Python call's host time counts; C++: `tdmaps._enqueue_cpp`, the same GPU work queued by "
                          "one C++ call: prepare into a workspace, the kernel, lower's zeroed upper part, the NaN pass, with the "
                          "workspace and the output allocated once, timed between the same CUDA events, recorded from Python)";
  std::vector<std::string> without;
  for (const GpuData& g : ctx.gpus)
    if (!g.get(results::layout::peers_python)) without.push_back("`experiments/results/" + g.slug + "/`");
  if (without.size() == ctx.gpus.size()) {  // nothing measured: one sentence, no table of dashes
    o << "Speed-ups: not measured yet: no GPU folder has a `peers_python.csv`"
      << (without.empty() ? std::string(" (no GPU folder in experiments/results)") : " (" + join(without, ", ") + ")")
      << "; " << how << " writes it, and `make figures` on a GPU runs it where the package is installed.\n";
    return o.str();
  }
  o << "| GPU | `tdmaps.pdist(x)` over `torch.pdist(x)` | `tdmaps.pdist(x, out=\"square\")` over `torch.cdist(x, x)` "
       "(TF32 allowed) | the Python call over the same GPU work queued from C++, N = "
    << overhead_N << " (target `38-overhead`) | the same at N = " << thin_N
    << " (thin binding: target `38-thin`) | `pip install .` |\n|---|---|---|---|---|---|\n";
  std::vector<std::string> sources;
  std::vector<std::pair<std::string, std::string>> ratios;  // (GPU, its table of every ratio)
  for (const GpuData& g : ctx.gpus) {
    const Table* t = g.get(results::layout::peers_python);
    if (!t) {
      o << "| " << g.name() << " | no `peers_python.csv` in `experiments/results/" << g.slug
        << "/`: not measured | not measured | not measured | not measured | not measured |\n";
      continue;
    }
    const std::vector<TableRow> rows = t->rows();
    // issue #38's targets against this folder (38-overhead, 38-thin of paper/targets.csv, judged in
    // paper/claims/targets.cpp: the report lists the same rows)
    const auto verdict_cell = [&](const char* id) {
      const TargetVerdict* v = find_verdict(verdicts, id, g.slug);
      if (!v) return std::string("not measured");
      return v->measured + ": **" + v->verdict + "**" + (v->where.empty() ? "" : " (" + v->where + ")");
    };
    const std::string overhead = verdict_cell("38-overhead"), binding = verdict_cell("38-thin");
    const std::string pip = t->meta_or("pip_install_s");
    o << "| " << t->meta_or("gpu", g.name()) << " | " << speedup(rows, python_peers::torch_pdist)
      << " | " << speedup(rows, python_peers::torch_cdist_tf32) << " | " << overhead << " | " << binding << " | "
      << (pip.empty() ? std::string("not measured")
                      : pip + " s" + (t->meta_or("pip_install").empty() ? std::string() : " (`" + t->meta_or("pip_install") + "`)"))
      << " |\n";
    ratios.push_back({t->meta_or("gpu", g.name()), every_ratio(rows, t->meta_or("precision", "tf32"))});
    sources.push_back("`experiments/results/" + g.slug + "/peers_python.csv` (tdmaps " + t->meta_or("tdmaps", "?") +
                      ", torch " + t->meta_or("torch", "?") + ", " + t->meta_or("date_utc", "date ?") + ")");
  }
  o << "\nMeasured by " << how << ": " << join(sources, "; ")
    << ". Ratios: the peer's median over ours at the largest N both ran (d = " << D << " first).\n";
  for (const auto& [gpu, table] : ratios)
    if (!table.empty()) o << "\nEvery ratio of the same CSV on " << gpu << ":\n" << table;
  return o.str();
}

}  // namespace results
