// paper/claims/targets.cpp — see targets.hpp.
#include "targets.hpp"

#include "gram_measures.hpp"
#include "rules.hpp"
#include "select.hpp"
#include "python_names.hpp"  // peers_python.csv's names (tdmaps.pdist, the C++ call's impl, the outputs, torch.pdist)

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace claims {

std::string targets_path(const Ctx& ctx) {
  return (std::filesystem::path(ctx.reported).parent_path() / results::layout::targets.file).string();
}

std::vector<Target> load_targets(const std::string& path, std::string* why) {
  std::vector<Target> out;
  const std::optional<Table> t = read_table(path, results::layout::targets, why);
  if (!t) return out;
  const std::string miss = t->missing({"id", "issue", "table", "target", "value", "unit", "csv", "how"});
  if (!miss.empty()) {
    if (why) *why = path + " lacks column(s) " + miss;
    return out;
  }
  for (const TableRow& r : t->rows()) {
    Target x{r.s("id"), r.s("issue"), r.s("table"), r.s("target"), r.s("value"), r.s("unit"), r.s("csv"), r.s("how"), {}};
    if (x.id.empty()) continue;
    (void)results::layout_of_file(x.csv);  // a table without a declared layout: std::invalid_argument, here
    x.pv = parse_value(x.value);
    out.push_back(x);
  }
  return out;
}

namespace {
// The target as a claim, so that judge() reads it as it reads a paper's value.
Claim as_claim(const Target& t) {
  Claim c;
  c.id = t.id;
  c.quantity = t.target;
  c.value = t.value;
  c.unit = t.unit;
  c.pv = t.pv;
  return c;
}
std::string met(const Outcome& o) {
  return o.verdict == kHolds ? kMet : o.verdict == kDiffers ? kMissed : o.verdict;
}

// 26-sdh: the fastest version of sdh.csv at N = 10⁶ (pairs_per_s).
bool sdh_at_1M(const Target& x, const GpuData& g, TargetResult* res) {
  const Table* t = g.get(results::layout_of_file(x.csv));
  if (!t) return false;
  const TableRow* best = nullptr;
  const std::vector<TableRow> rows = t->rows();  // a copy: keep it alive for `best`
  for (const TableRow& r : rows)
    if (r.d("N") == 1e6 && (!best || r.d("pairs_per_s") > best->d("pairs_per_s"))) best = &r;
  if (!best) return false;
  const double v = best->d("pairs_per_s");
  res->kernel = "`" + best->s("impl") + "` (`" + x.csv + "`, commit " + t->meta_or("commit", "?") + ")";
  res->measured = fmt_g(v, 4) + " (" + fmt(100 * v / x.pv.lo, 1) + " % of the target)";
  res->outcome = rules::judge(as_claim(x), v, res->measured);
  res->verdict = met(res->outcome);
  res->value = v;
  return true;
}

// ---- the Gram targets (27-*, 36-*, 37-*): gram_measures() of the GPU folder (gram_measures.cpp) ----
// The distinct values of a list, in their first order.
template <class T, class F> std::vector<std::string> distinct(const std::vector<T>& v, F&& key) {
  std::vector<std::string> o;
  for (const T& x : v)
    if (std::find(o.begin(), o.end(), key(x)) == o.end()) o.push_back(key(x));
  return o;
}
// "N = 32768 (d = 64, 128), N = 65536 (d = 64)" of a list of (N, d) in the issue's order
std::string sizes_words(const std::vector<std::pair<std::string, std::string>>& s) {
  std::string o;
  for (const std::string& N : distinct(s, [](const std::pair<std::string, std::string>& p) { return p.first; })) {
    std::string ds;
    for (const auto& [n, d] : s)
      if (n == N) ds += (ds.empty() ? "" : ", ") + d;
    if (!ds.empty()) o += (o.empty() ? "" : ", ") + std::string("N = ") + N + " (d = " + ds + ")";
  }
  return o;
}
// How a measure is judged and shown: scale (27-write: the fraction in %) and format. The outputs and precisions
// are the Gram vocabulary's names (results/gram_names.hpp: what bench_gram writes), not retyped here.
struct Shown {
  double scale;
  const char* f;
  const char* profiled = "";                            // the output whose ncu profile (ncu_gram.csv) explains a miss; "": none
  const char* precision = gram::name(gram::Prec::tf32);  // ... and its precision
  bool one_size = false;    // judged at its one size (our time, with the other kernels'), not at every size of the issue
  bool exact_mode = false;  // the exact mode (37-exact-*): its kernels are the tensor cores' and the float64 replay
};
const std::map<std::string, Shown>& gram_rules() {
  using gram::Output;
  constexpr const char* lower = gram::name(Output::lower);
  constexpr const char* tf32 = gram::name(gram::Prec::tf32);
  constexpr const char* tf32x3 = gram::name(gram::Prec::tf32x3);
  static const std::map<std::string, Shown> m = {
      {"27-write", {100, "%.0f %%", lower}},
      {"27-gemm", {1, "%.2f×", lower}},
      {"27-gemm-epilogue", {1, "%.2f×", lower}},
      {"27-syrk", {1, "%.2f×", lower, tf32x3}},
      {"27-cdist", {1, "%.1f×", lower}},
      {"27-hist", {1, "%.2f s", gram::name(Output::hist), tf32, true}},
      {"36-mirror", {100, "%.0f %%", gram::name(Output::mirror)}},
      {"36-lower", {100, "%.0f %%", lower}},
      {"36-condensed", {100, "%.0f %%", gram::name(Output::condensed)}},
      {"36-gemm-epilogue", {1, "%.2f×", lower}},
      {"36-sym", {1, "%.2f×", gram::name(Output::mirror_gram), gram::name(gram::Prec::bf16)}},
      {"36-lower-256", {100, "%.0f %%", lower}},
      {"36-cdist-square", {1, "%.1f×", gram::name(Output::mirror)}},
      {"36-cdist-lower", {1, "%.1f×", lower}},
      {"37-hist", {1, "%.2f s", gram::name(Output::hist), tf32, true}},
      {"37-hist-bf16", {1, "%.2f s", gram::name(Output::hist), gram::name(gram::Prec::bf16), true}},
      {"37-count", {1, "%.2f s", gram::name(Output::count), tf32, true}},
      {"37-exact-count", {1, "%.2f s", gram::name(gram::Out::count_exact), tf32x3, true, true}},
      {"37-exact-hist", {1, "%.2f s", gram::name(gram::Out::hist_exact), tf32x3, true, true}}};
  return m;
}

// A target over the issue's sizes: each size judged by judge() (holds: met); met when every measured size is,
// "met at some sizes" (naming them) when some are; the sizes within 1 % of the target and those not measured named.
// Returns the kernels of the points, in their first order.
std::vector<std::string> gram_sized(const Target& x, const GramMeasure& m, const Shown& sh, TargetResult* res) {
  std::vector<std::pair<std::string, std::string>> met_at, missed, absent, near;
  std::vector<std::string> kernels;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> where_k;
  std::string per_n;
  bool any_missed = false;
  const auto N_of = [](const GramPoint& p) { return p.N; };
  const auto d_of = [](const GramPoint& p) { return p.d; };
  for (const std::string& N : distinct(m.points, N_of)) {
    std::string vs;
    for (const GramPoint& p : m.points) {
      if (p.N != N) continue;
      const double v = sh.scale * p.value;
      vs += (vs.empty() ? "" : " / ") + fmt_with(v, sh.f);
      if (!std::isfinite(v)) {
        absent.emplace_back(p.N, p.d);
        continue;
      }
      const Outcome o = rules::judge(as_claim(x), v, fmt_with(v, sh.f) + " at N = " + p.N + ", d = " + p.d);
      const bool ok = o.verdict == kHolds;
      (ok ? met_at : missed).emplace_back(p.N, p.d);
      if (!any_missed) res->outcome = o;
      any_missed = any_missed || !ok;
      if (std::fabs(v / x.pv.lo - 1) < 0.01) near.emplace_back(p.N, p.d);
      if (where_k.find(p.kernel) == where_k.end()) kernels.push_back(p.kernel);
      where_k[p.kernel].emplace_back(p.N, p.d);
    }
    per_n += (per_n.empty() ? "" : "; ") + std::string("N = ") + N + ": " + vs;
  }
  std::string ds;
  for (const std::string& d : distinct(m.points, d_of)) ds += (ds.empty() ? "" : " / ") + d;
  res->measured = per_n + " (d = " + ds + ")";
  for (const std::string& k : kernels)
    res->kernel += (res->kernel.empty() ? "" : "; ") + std::string("`") + k + "`" +
                   (kernels.size() > 1 ? " at " + sizes_words(where_k[k]) : "");
  if (kernels.empty()) res->kernel = "—";
  const bool measured = !(met_at.empty() && missed.empty());
  if (!measured) {
    res->verdict = kNotMeasured;
    res->measured = "no rows at these sizes";
  } else if (missed.empty()) {
    res->verdict = kMet;
  } else if (met_at.empty()) {
    res->verdict = kMissed;
  } else {
    res->verdict = kMetAtSome;
    res->where = sizes_words(met_at);
  }
  if (!near.empty() && measured)
    res->where += (res->where.empty() ? "" : "; ") + std::string("within 1 % of the target at ") + sizes_words(near);
  if (!absent.empty() && measured)
    res->where += (res->where.empty() ? "" : "; ") + std::string("not measured at ") + sizes_words(absent);
  return kernels;
}

// What binds a kernel, from a row of ncu_gram.csv (experiments/gram/ncu_binds: Nsight Compute's throughputs of
// DRAM, L2, L1 and the SM in % of their peaks, the schedulers' issue activity and a warp's stall reasons). The rule:
// a unit at >= 80 % of its peak binds (the busiest one named); with none there, the kernel is latency-bound, and the
// largest stall reason says what its warps wait on.
constexpr double binds_busy_pct = 80;
// The words: paper/notes.template.md, section binds (partial stall_words: what a warp waits on, by stall reason).
std::string binds_words(const TableRow& r) {
  const std::pair<double, const char*> units[] = {
      {r.d("dram_pct"), "DRAM"}, {r.d("l2_pct"), "L2"}, {r.d("l1_pct"), "L1"}, {r.d("sm_pct"), "SM"}};
  const std::pair<double, const char*>* top = &units[0];
  for (const auto& u : units)
    if (u.first > top->first) top = &u;
  tmpl::Scope v;
  v.set("kernel", r.s("kernel")).set("output", r.s("output")).set("precision", r.s("precision")).set("N", r.s("N")).set("d", r.s("d"));
  v.set("dram", fmt(r.d("dram_pct"), 0)).set("l2", fmt(r.d("l2_pct"), 0)).set("l1", fmt(r.d("l1_pct"), 0)).set("sm", fmt(r.d("sm_pct"), 0));
  const bool bound = top->first >= binds_busy_pct;  // a unit binds, else latency
  v.set("unit", bound ? top->second : "").set("top", fmt(top->first, 0)).set("busy", fmt(binds_busy_pct, 0));
  v.set("issue", fmt(r.d("issue_active_pct"), 0)).set("wait", fmt(r.d("warp_cycles_per_issue"), 1));
  v.list("stall");
  for (const std::string k : {"stall_1", "stall_2"}) {  // the largest stall reasons, in order
    if (r.s(k).empty()) break;
    v.add("stall").set("reason", r.s(k)).set("cycles", fmt(r.d(k + "_cycles"), 1)).flag("first", k == "stall_1");
  }
  return note("binds", v);
}
// The profiles of output `out` in precision `prec` of one of `kernels` (the target's kernels as gram.csv names them:
// a profile's kernel, or that kernel with its configuration, "name (...)") in the GPU folder's ncu_gram.csv, as
// binds_rule words, each naming its size ("" where none: a profile of another kernel, output or precision explains
// nothing).
std::string binds_of(const GpuData& g, const std::string& out, const std::string& prec,
                     const std::vector<std::string>& kernels) {
  const Table* t = g.get(results::layout::ncu_gram);
  if (!t || out.empty()) return "";
  std::vector<std::string> v;
  for (const TableRow& r : t->rows()) {
    const std::string k = r.s("kernel");
    const bool named = std::any_of(kernels.begin(), kernels.end(),
                                   [&](const std::string& n) { return n == k || n.rfind(k + " (", 0) == 0; });
    if (r.s("output") == out && r.s("precision") == prec && named) v.push_back(binds_words(r));
  }
  return v.empty() ? "" : join(v, "; ") + " (`ncu_gram.csv`, commit " + t->meta_or("commit", "?") + ")";
}

// 27-*, 36-*, 37-*: the measure of the same id; one size where its rule says so (27-hist, 37-hist ...: our time, with
// the other kernels'), else every size.
bool gram_target(const Target& x, const GpuData& g, const std::vector<GramMeasure>& ms, TargetResult* res) {
  const auto rule = gram_rules().find(x.id);
  if (rule == gram_rules().end()) return false;
  for (const GramMeasure& m : ms) {
    if (m.id != x.id) continue;
    std::vector<std::string> kernels;  // the kernels measured, as gram.csv names them
    if (!m.none.empty() || m.points.empty()) {
      res->kernel = "—";
      res->measured = m.none.empty() ? "no rows at these sizes" : m.none;
      res->verdict = kNotMeasured;
    } else if (rule->second.one_size) {
      const GramPoint& p = m.points.front();
      kernels = {p.kernel};
      res->kernel = "`" + p.kernel + "`";
      res->measured = fmt_with(p.value, rule->second.f) + (m.others.empty() ? "" : " (" + m.others + ")");
      res->outcome = rules::judge(as_claim(x), p.value, res->measured);
      res->verdict = met(res->outcome);
      res->value = p.value;
    } else {
      kernels = gram_sized(x, m, rule->second, res);
    }
    // the exact mode (37-exact-*): the tensor cores' kernel, then the float64 replay of the straddling pairs
    // (gram_exact.cu, profiled as kernel `fp64-replay`), which every exact-mode run has whatever its kernel
    if (rule->second.exact_mode) kernels.push_back("fp64-replay");
    if (res->verdict != kMet && res->verdict != kNotMeasured)
      res->binds = g.get(results::layout::ncu_gram) ? binds_of(g, rule->second.profiled, rule->second.precision, kernels)
                                                    : note("binds_none", tmpl::Scope{});
    return true;
  }
  return false;
}

// ---- issues #16 and #17 (16-*, 17-*): the GPU folder's sdh_multigpu.csv (multi_hist) ----
// At each N of the CSV, the rows of `gpus` GPUs (chunks: a count, or "" for every count); 16-chunks and 17-gpus
// judge rate_vs_first (the rate over 1 GPU, 1 chunk of the same N) of the row with that many chunks, 16-reduce and
// 17-reduce the largest reduce_frac (in %) over the rows of that GPU count. Met when every N is, "met at some N"
// (naming them) when some are.
// 37-gpus (issue #37 item 3): the same on gram_multigpu_exact.csv, the rows of the exact histogram alone (their app is
// multigpu_app::gram_exact: multi_hist --app gram --exact); where the CSV has none, the line says so ("not measured").
struct MultiRule {
  const char* gpus;
  const char* chunks;          // "" : the largest reduce_frac over every chunk count
  const char* app = "";        // only the rows of this app (layouts.hpp multigpu_app; "": every row)
  const char* what = "";       // ... named so in the "not measured" line
  bool line_when_absent = false;  // no such row: a "not measured" line (else no line)
};
const std::map<std::string, MultiRule>& multi_rules() {
  static const std::map<std::string, MultiRule> m = {
      {"16-chunks", {"1", "8"}}, {"16-reduce", {"1", ""}}, {"17-gpus", {"2", "1"}}, {"17-reduce", {"2", ""}},
      {"37-gpus", {"2", "1", results::multigpu_app::gram_exact, gram::name(gram::Out::hist_exact), true}}};
  return m;
}
bool multigpu_target(const Target& x, const GpuData& g, TargetResult* res) {
  const auto rule = multi_rules().find(x.id);
  if (rule == multi_rules().end()) return false;
  const Table* t = g.get(results::layout_of_file(x.csv));
  if (!t || t->size() == 0) return false;
  std::vector<TableRow> rows;
  for (const TableRow& r : t->rows())
    if (!*rule->second.app || r.s("app") == rule->second.app) rows.push_back(r);
  std::vector<double> Ns;
  std::vector<std::string> kernels;
  bool identical = true;
  for (const TableRow& r : rows) {
    if (std::find(Ns.begin(), Ns.end(), r.d("N")) == Ns.end()) Ns.push_back(r.d("N"));
    if (std::find(kernels.begin(), kernels.end(), r.s("kernel")) == kernels.end()) kernels.push_back(r.s("kernel"));
    identical = identical && r.s("identical") == "1";
  }
  const bool reduce = std::string(rule->second.chunks).empty();
  std::vector<std::string> per_n, met_at, missed, absent;
  bool any_missed = false;
  for (const double N : Ns) {
    double v = NAN;
    std::string of;
    for (const TableRow& r : rows) {
      if (r.d("N") != N || r.s("gpus") != rule->second.gpus) continue;
      if (reduce) {
        const double f = 100 * r.d("reduce_frac");
        if (std::isfinite(f) && !(f <= v)) v = f, of = r.s("chunks");
      } else if (r.s("chunks") == rule->second.chunks) {
        v = r.d("rate_vs_first");
      }
    }
    const std::string at = "N = " + fmt_int(N);
    if (!std::isfinite(v)) {
      absent.push_back(at);
      continue;
    }
    const std::string shown = reduce ? fmt_g(v, 2) + " % (" + of + (of == "1" ? " chunk)" : " chunks)") : "×" + fmt(v, 4);
    per_n.push_back(at + ": " + shown);
    const Outcome o = rules::judge(as_claim(x), v, shown + " at " + at);
    const bool ok = o.verdict == kHolds;
    (ok ? met_at : missed).push_back(at);
    if (!any_missed) res->outcome = o;
    any_missed = any_missed || !ok;
  }
  if (met_at.empty() && missed.empty()) {  // no row of this GPU count
    if (!rule->second.line_when_absent) return false;
    res->kernel = "—";
    res->measured = std::string("no rows of ") + rule->second.gpus + " GPUs" +
                    (*rule->second.what ? std::string(" with ") + rule->second.what : std::string()) + " in `" +
                    x.csv + "` (commit " + t->meta_or("commit", "?") + ")";
    res->verdict = kNotMeasured;
    return true;
  }
  std::vector<std::string> ks;
  for (const std::string& k : kernels) ks.push_back("`" + k + "`");
  res->kernel = join(ks, ", ") + " (`" + x.csv + "`, commit " + t->meta_or("commit", "?") + ", " +
                t->meta_or("gpus_used", "?") + " × " + t->meta_or("gpu", "?") + ")";
  res->measured = join(per_n, "; ") + (identical ? "; every split bit-identical" : "; NOT every split bit-identical");
  res->verdict = missed.empty() ? kMet : met_at.empty() ? kMissed : kMetAtSome;
  if (!missed.empty() && !met_at.empty()) res->where = join(met_at, ", ");
  if (!absent.empty()) res->where += (res->where.empty() ? "" : "; ") + std::string("not measured at ") + join(absent, ", ");
  return true;
}

// ---- issue #38 (38-*): the GPU folder's peers_python.csv (experiments/peers/python_peers.py) ----
// 38-overhead: the Python call's median minus the C++ call's (python_peers::cpp_impl: the same GPU work queued by
// one C++ call, between the same CUDA events) at N = 1024, in µs; 38-thin: the Python call over the C++ call at N = 32768, in % over; each for every output
// of pdist, met when every output is. 38-pdist: torch.pdist's median over tdmaps.pdist's (condensed) at N = 32768.
bool is_python_target(const std::string& id) { return id == "38-overhead" || id == "38-thin" || id == "38-pdist"; }
bool python_target(const Target& x, const GpuData& g, TargetResult* res) {
  if (!is_python_target(x.id)) return false;
  const Table* t = g.get(results::layout::peers_python);
  if (!t || t->size() == 0) return false;
  const std::vector<TableRow> rows = t->rows();
  const std::string d = pick_rows::kPythonD;
  // a row's median where it ran and, for ours, passed its float64 check (verified != 0)
  const auto med = [](const TableRow* r) { return r && r->d("verified") != 0 && r->d("median_ms") > 0 ? r->d("median_ms") : NAN; };
  const std::string source = "`peers_python.csv`, commit " + t->meta_or("commit", "?");
  if (x.id == "38-pdist") {
    const std::string N = pick_rows::kPythonThinN;
    const python_peers::Peer& tp = python_peers::torch_pdist;
    const TableRow* ours = pick_rows::python(rows, N, d, python_peers::pdist, tp.output);
    const TableRow* peer = pick_rows::python(rows, N, d, tp.impl, tp.output);
    const double v = med(peer) / med(ours);
    if (!std::isfinite(v)) return false;
    res->kernel = "`" + ours->s("kernel") + "` (" + source + ")";
    res->measured = fmt(v, 1) + "× at N = " + N + ", d = " + d + " (" + fmt_g(med(peer), 4) + " / " +
                    fmt_g(med(ours), 4) + " ms)";
    res->outcome = rules::judge(as_claim(x), v, res->measured);
    res->verdict = met(res->outcome);
    res->value = v;
    return true;
  }
  const bool overhead = x.id == "38-overhead";
  const std::string N = overhead ? pick_rows::kPythonOverheadN : pick_rows::kPythonThinN;
  std::vector<std::string> per, met_for, kernels;
  bool any_missed = false;
  for (const char* out : python_peers::outputs) {
    const TableRow* py = pick_rows::python(rows, N, d, python_peers::pdist, out);
    const TableRow* cpp = pick_rows::python(rows, N, d, python_peers::cpp_impl, out);
    const double v = overhead ? 1000 * (med(py) - med(cpp)) : 100 * (med(py) / med(cpp) - 1);
    if (!std::isfinite(v)) continue;
    const std::string shown = std::string(out) + " " + (v >= 0 ? "+" : "") + fmt(v, 1) + (overhead ? " µs" : " %");
    per.push_back(shown);
    kernels.push_back(std::string(out) + ": `" + py->s("kernel") + "`");
    const Outcome o = rules::judge(as_claim(x), v, shown + " at N = " + N);
    const bool ok = o.verdict == kHolds;
    if (ok) met_for.push_back(out);
    if (!any_missed) res->outcome = o;
    any_missed = any_missed || !ok;
  }
  if (per.empty()) return false;
  res->kernel = join(kernels, ", ") + " (" + source + ")";
  res->measured = join(per, ", ") + " at N = " + N + ", d = " + d;
  res->verdict = any_missed ? kMissed : kMet;
  if (any_missed && !met_for.empty()) res->where = "met for " + join(met_for, ", ");
  return true;
}
}  // namespace

std::string binds_rule(const TableRow& ncu_row) { return binds_words(ncu_row); }

bool has_target_rule(const std::string& id) {
  return id == "26-sdh" || gram_rules().count(id) || multi_rules().count(id) || is_python_target(id);
}

std::vector<TargetResult> evaluate_targets(const std::vector<Target>& targets, const Ctx& ctx) {
  const NotesScope notes(ctx.reported);  // the words of what binds a kernel (binds_words)
  std::vector<TargetResult> out;
  for (const GpuData& g : ctx.gpus) {
    const std::vector<GramMeasure> gram = gram_measures(g);
    for (const Target& x : targets) {
      TargetResult r{&x, &g, "", "", "", "", "", NAN, {}};
      const bool ok = x.id == "26-sdh"                ? sdh_at_1M(x, g, &r)
                      : multi_rules().count(x.id)     ? multigpu_target(x, g, &r)
                      : is_python_target(x.id)        ? python_target(x, g, &r)
                                                      : gram_target(x, g, gram, &r);
      if (ok) out.push_back(r);
    }
  }
  return out;
}

std::vector<TargetVerdict> target_verdicts(const Ctx& ctx, std::string* why) {
  std::vector<TargetVerdict> out;
  const std::vector<Target> targets = load_targets(targets_path(ctx), why);
  for (const TargetResult& r : evaluate_targets(targets, ctx))
    out.push_back(TargetVerdict{r.target->id, r.gpu->slug, r.target->target, r.kernel, r.measured, r.verdict, r.where,
                                r.binds, r.value, r.target->pv.lo, r.target->issue, r.target->table});
  return out;
}

}  // namespace claims
