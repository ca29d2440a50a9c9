// paper/claims/report.cpp — writes paper/report.md (see report.hpp): fills the named slots of the template
// paper/report.template.md, which holds the prose. Every number comes from a CSV (through the results layer,
// src/support/results/, report_data.hpp (here, beside the rules) for the report's own sections), from paper/reported.csv and the claim
// rules, or from the map library; this file only formats them (values, table rows) and keeps no analysis.
#include "report.hpp"
#include "judging.hpp"
#include "targets.hpp"
#include "template.hpp"

#include "claims.hpp"
#include "readme.hpp"
#include "report_data.hpp"
#include "select.hpp"

#include <tdmaps/map_utm.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace claims {
namespace {

using tmpl::Scope;

std::string cell(std::string s) {
  std::string o;
  for (char c : s) {
    if (c == '|') o += "\\|";
    else if (c == '\n') o += ' ';
    else o += c;
  }
  return o;
}

// Table rows (each "| … |"), one a line, without the last newline (the template's line gives it).
std::string rows_text(const std::string& s) { return !s.empty() && s.back() == '\n' ? s.substr(0, s.size() - 1) : s; }

std::string str(double v) {  // a number as a stream writes it
  std::ostringstream o;
  o << v;
  return o.str();
}

// CUDA's version integers: 12040 -> 12.4
std::string cuda_version(const std::string& v) {
  const double x = to_num(v);
  if (!std::isfinite(x) || x < 1000) return v;
  const long long n = (long long)x;
  return std::to_string(n / 1000) + "." + std::to_string((n % 1000) / 10);
}

std::vector<std::string> bib_keys(const std::string& path) {
  std::vector<std::string> keys;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find('@'), br = line.find('{'), cm = line.find(',');
    if (at == 0 && br != std::string::npos && cm != std::string::npos && cm > br)
      keys.push_back(trim(line.substr(br + 1, cm - br - 1)));
  }
  return keys;
}

// §2: gpu (each GPU's metadata and files), cpu_* (the CPU side).
void fill_setup(Scope& s, const Ctx& ctx) {
  const std::vector<std::pair<std::string, std::string>> keys = {
      {"gpu", "GPU"},          {"cc", "compute capability"},       {"sm_count", "SMs"},
      {"sm_clock_max_mhz", "SM clock, max (MHz)"}, {"mem_clock_max_mhz", "memory clock, max (MHz)"},
      {"mem_bus_bits", "memory bus (bits)"}, {"global_mem_mib", "global memory (MiB)"}, {"l2_bytes", "L2 (bytes)"},
      {"driver", "CUDA driver"}, {"runtime", "CUDA runtime"}, {"nvcc", "nvcc"}, {"nvcc_flags", "nvcc flags"}};
  s.list("gpu");
  for (const GpuData& g : ctx.gpus) {
    Scope& x = s.add("gpu");
    x.set("name", g.name()).set("slug", g.slug);
    std::ostringstream o;
    for (const auto& [k, label] : keys) {
      std::string v = g.meta(k);
      if (v.empty()) continue;
      if (k == "driver" || k == "runtime") v = cuda_version(v) + " (" + v + ")";
      o << "| " << label << " | " << cell(v) << " |\n";
    }
    std::set<std::string> commits, dates, extra;
    for (const results::Layout* l : g.layouts())
      if (const Table* t = g.get(*l)) {
        if (!t->meta_or("commit").empty()) commits.insert(t->meta_or("commit"));
        if (!t->meta_or("date_utc").empty()) dates.insert(t->meta_or("date_utc"));
        for (const auto& [k, v] : t->meta) {
          bool known = k == "args" || k == "program" || k == "commit" || k == "date_utc" || k == "gpu_slug";
          for (const auto& kk : keys) known = known || kk.first == k;
          if (!known) extra.insert(k);
        }
      }
    if (!commits.empty()) o << "| commit(s) | " << cell(join({commits.begin(), commits.end()}, ", ")) << " |\n";
    if (!dates.empty()) o << "| measured (UTC) | " << *dates.begin() << " … " << *dates.rbegin() << " |\n";
    for (const std::string& k : extra) o << "| " << cell(k) << " | " << cell(g.meta(k)) << " |\n";
    x.set("meta_rows", rows_text(o.str()));
    std::ostringstream f;
    for (const results::Layout* l : g.layouts()) {
      const std::string file = l->file;
      const Table* t = g.get(*l);
      if (!t) continue;
      f << "| `" << file << "` | " << cell(t->meta_or("program", "—")) << " | " << t->size() << " | "
        << cell(t->meta_or("date_utc", "—")) << " | " << cell(t->meta_or("commit", "—")) << " | `"
        << cell(t->meta_or("args", "—")) << "` |\n";
    }
    x.set("file_rows", rows_text(f.str()));
  }
  s.set("cpu_exact_variants", ctx.cpu_exact_table ? std::to_string(ctx.cpu_exact_table->size()) : "");
  GpuData cpu = ctx.cpu;
  s.set("cpu_dir", cpu.dir);
  s.list("cpu_file");
  for (const results::Layout* l : cpu.layouts()) {
    const std::string f = l->file;
    const Table* t = cpu.get(*l);
    s.add("cpu_file").set("file", f).set("rows", t ? std::to_string(t->size()) : "").set("commit", t ? t->meta_or("commit") : "");
  }
  s.set("cpu_check", ctx.cpu_check);
}

// §3: reps_min / reps_max, sanitizer (each GPU's logs), the verdict rule's tolerances and the judging rules.
void fill_method(Scope& s, const Ctx& ctx) {
  const auto [rmin, rmax] = reps_range(ctx);
  s.set("reps_min", std::isfinite(rmin) ? fmt_int(rmin) : "").set("reps_max", std::isfinite(rmax) ? fmt_int(rmax) : "");
  s.list("sanitizer");
  for (const GpuData& g : ctx.gpus) {
    const std::vector<SanitizerLog> logs = sanitizer_logs(g);
    if (logs.empty()) continue;
    Scope& x = s.add("sanitizer");
    x.set("slug", g.slug).set("dir", sanitizer_dir(g));
    for (const SanitizerLog& l : logs)
      x.add("log").set("file", l.file).set("clean", std::to_string(l.clean)).set("runs", std::to_string(l.runs));
  }
  // the verdict rule's tolerances (model.hpp); its words are the template's
  s.set("tol_i", fmt(kTolI, 2)).set("tol_pct", fmt(kTolPct, 0)).set("tol_rel_pct", fmt(100 * kTolRel, 0));
  s.list("judging_rule");
  for (const auto& [name, text] : judging_rules()) s.add("judging_rule").set("name", name).set("text", text);
}

// §4: figure (the registry's order, then any figure it does not list), each with its drawings.
void fill_figures(Scope& s, const Ctx& ctx) {
  std::vector<std::string> names;
  for (const auto& e : ctx.fig_order) names.push_back(e.first);
  for (const FigRec& r : ctx.figs)
    if (std::find(names.begin(), names.end(), r.name) == names.end()) names.push_back(r.name);
  s.list("figure");
  int k = 0;
  for (const std::string& name : names) {
    std::vector<const FigRec*> recs;
    for (const FigRec& r : ctx.figs)
      if (r.name == name) recs.push_back(&r);
    if (recs.empty()) continue;
    std::string title = name;
    for (const auto& e : ctx.fig_order)
      if (e.first == name) title = e.second;
    Scope& f = s.add("figure");
    f.set("k", std::to_string(++k)).set("title", title).set("name", cell(name));
    for (const FigRec* r : recs)
      f.add("drawing")
          .flag("ok", r->ok)
          .set("gpu", r->gpu)
          .set("why", cell(r->why))
          .set("png", r->ok ? rel_to(r->png, ctx.report) : "")
          .set("svg", r->ok && !r->svg.empty() ? rel_to(r->svg, ctx.report) : "")
          .set("caption", r->caption)
          .set("reading", r->reading);
  }
}

// §5: tally_col, tally_row, tally_total (tally_slots), gpu_split, cond_family (the conditions), seed_table (the
// claims, one table per seed), rule.
void fill_claims(Scope& s, const Ctx& ctx) {
  s.list("claims");
  s.set("several_gpus", "").set("gpu_split_n", "");
  s.list("cond_family");
  tally_slots(s, ctx, {}, {});
  s.list("gpu_split");
  s.list("seed_table");
  s.list("rule");
  if (ctx.claims.empty()) return;
  for (const Claim& c : ctx.claims) s.add("claims").set("id", c.id);
  const ClaimGrid grid = evaluate_all(ctx);
  const std::vector<const GpuData*>& cols = grid.cols;
  const std::vector<std::vector<Outcome>>& out = grid.out;
  tally_slots(s, ctx, out, cols);
  if (cols.size() > 1) {  // the claims whose verdict depends on the GPU
    s.flag("several_gpus", true);
    size_t n = 0;
    for (size_t i = 0; i < ctx.claims.size(); ++i) {
      bool same = true;
      for (size_t k = 1; k < cols.size(); ++k) same = same && out[i][k].verdict == out[i][0].verdict;
      if (same) continue;
      std::vector<std::string> v;
      for (size_t k = 0; k < cols.size(); ++k) v.push_back(cols[k]->slug + " " + out[i][k].verdict);
      s.add("gpu_split").set("text", "`" + ctx.claims[i].id + "` (" + join(v, ", ") + ")");
      ++n;
    }
    s.set("gpu_split_n", std::to_string(n));
  }
  {  // the conditions of every claim family (paper/conditions.csv), with the paper's words: cond_family (family, n,
     // condition: first, name, ours, fixed_by, readings; none where conditions.csv lacks the family)
    std::vector<std::string> fams;
    std::map<std::string, std::vector<std::string>> members;
    for (const Claim& c : ctx.claims) {
      if (std::find(fams.begin(), fams.end(), c.family) == fams.end()) fams.push_back(c.family);
      members[c.family].push_back(c.id);
    }
    for (const std::string& f : fams) {
      const Claim* any = nullptr;
      for (const Claim& c : ctx.claims)
        if (c.family == f) { any = &c; break; }
      Scope& x = s.add("cond_family");
      x.set("family", f).set("n", std::to_string(members[f].size()));
      x.list("condition");
      for (const Condition& k : any->conds)
        x.add("condition")
            .flag("first", x.lists["condition"].size() == 1)
            .set("name", k.name)
            .set("ours", cell(k.ours))
            .set("fixed_by", cell(k.fixed_by))
            .set("readings", cell(join(k.readings, ", ")));
    }
  }
  // one table per run of claims of one seed (seed_table: seed, both, row): a claim measured on the GPUs has one row
  // per GPU (its verdict computed on that GPU's results; slug empty: no GPU data); a claim of the map library / CPU
  // oracle has one row (flag library)
  for (size_t i = 0; i < ctx.claims.size(); ++i) {
    const Claim& c = ctx.claims[i];
    if (s.lists["seed_table"].empty() || c.seed != s.lists["seed_table"].back().vals["seed"]) {
      Scope& t = s.add("seed_table");
      t.set("seed", c.seed).flag("both", c.seed.find('+') != std::string::npos).list("row");
    }
    Scope& t = s.lists["seed_table"].back();
    const bool gpu = needs_gpu(c.id);
    const size_t rows = gpu ? cols.size() : 1;
    for (size_t k = 0; k < rows; ++k) {
      const Outcome& r = out[i][k];
      t.add("row")
          .set("id", c.id)
          .flag("first", k == 0)
          .set("section", cell(c.section))
          .set("quantity", cell(c.quantity))
          .set("value", cell(c.value))
          .set("unit", c.unit == "set" ? "" : cell(c.unit))
          .set("gpu", cell(c.gpu))
          .set("family", c.family)
          .flag("library", !gpu)
          .set("slug", gpu && cols[k] ? cols[k]->slug : "")
          .set("ours", cell(r.ours))
          .set("verdict", r.verdict)
          .flag("noise", r.noise)
          .set("reason", cell(r.reason));
    }
  }
  for (const Claim& c : ctx.claims) {
    const std::vector<double> rhos = rho_readings(c);
    std::vector<std::string> rs;
    for (double r : rhos) rs.push_back(fmt_int(r));
    s.add("rule").set("id", c.id).set("text", cell(rule_text(c.id))).set("readings", rhos.size() > 1 ? join(rs, ", ") : "");
  }
}

// Issue targets (ours; no paper claim): the rows of paper/targets.csv judged by targets.cpp (README prints the same
// verdicts), one table per value of its column table (a row without one: its issue), in the order of the tables' first
// rows in the CSV: target_table (table, issue: the issues of its rows, row: id, target, slug, kernel, measured,
// verdict, where, binds). Each table's heading and columns are the template's (by the table's name).
void fill_targets(Scope& s, const Ctx& ctx) {
  std::string why;
  const std::vector<Target> targets = load_targets(targets_path(ctx), &why);
  const auto table_of = [](const Target& t) { return t.table.empty() ? t.issue : t.table; };
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> issues;
  for (const Target& t : targets) {
    const std::string k = table_of(t);
    if (std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
    if (std::find(issues[k].begin(), issues[k].end(), t.issue) == issues[k].end()) issues[k].push_back(t.issue);
  }
  const std::vector<TargetResult> results = evaluate_targets(targets, ctx);
  s.list("target_table");
  for (const std::string& k : order) {
    Scope x;
    x.set("table", k);
    for (const std::string& i : issues[k]) x.add("issue").set("n", i);
    x.list("row");
    for (const TargetResult& r : results)
      if (table_of(*r.target) == k)
        x.add("row")
            .set("id", r.target->id)
            .set("target", cell(r.target->target))
            .set("slug", r.gpu->slug)
            .set("kernel", cell(r.kernel))
            .set("measured", cell(r.measured))
            .set("verdict", r.verdict)
            .set("where", cell(r.where))
            .set("binds", cell(r.binds));
    if (!x.lists["row"].empty()) s.list("target_table").push_back(std::move(x));
  }
}

// Peers' triangular index formulas (issue #27 item 6): peer_index, the rows of
// experiments/results/cpu/peer_index_audit.csv (experiments/gram/peer_index_audit).
void fill_peers(Scope& s, const Ctx& ctx) {
  s.list("peer_index");
  const Table* t = ctx.cpu.get(results::layout::peer_index_audit);
  if (!t) return;
  for (const TableRow& r : t->rows()) {
    Scope& x = s.add("peer_index");
    for (const char* k : {"formula", "source", "index_type", "first_wrong", "points_n", "first_wrong_row", "right_row",
                          "verdict", "note"})
      x.set(k, cell(r.s(k)));
    x.set("searched", cell(r.s("searched_range")));
  }
}

// §6: the dummy kernel on the GPUs measured (report_data.hpp: dummy_hopper) and the papers' Kepler values.
void fill_hopper(Scope& s, const Ctx& ctx) {
  const DummyHopper d = dummy_hopper(ctx);
  s.list("dummy_unusable");
  for (const DummyHopper::Unusable& u : d.unusable)
    s.add("dummy_unusable").set("slug", u.slug).set("missing", u.missing).set("reason", u.reason);
  s.flag("dummy_usable", !d.usable.empty());
  std::ostringstream o;
  o << "| GPU | form |";
  for (const std::string& m : d.maps) o << " " << m << " |";
  o << "\n|---|---|";
  for (size_t k = 0; k < d.maps.size(); ++k) o << "---|";
  o << "\n";
  for (const DummyHopper::ImprovementRow& r : d.improvement) {
    o << "| " << r.g->name() << " (`" << r.g->slug << "`) | " << r.form << " |";
    for (size_t k = 0; k < d.maps.size(); ++k) {
      const double v = r.improvement[k];
      o << " " << (std::isfinite(v) ? (d.maps[k] == tdmaps::LTM_R::name ? "**" + fmt(v, 3) + "**" : fmt(v, 3)) : "—") << " |";
    }
    o << "\n";
  }
  s.set("dummy_I_table", rows_text(o.str()));
  std::ostringstream rt;
  for (const DummyHopper::RateRow& r : d.rates) {
    rt << "| " << r.g->name() << " | " << r.form << " | " << fmt_int(r.n) << " |";
    for (int k = 0; k < 2; ++k) {
      const double tm = r.ms[k], b = r.blocks[k];
      rt << " " << (std::isfinite(tm) ? fmt_g(tm, 4) : "—") << " | " << (std::isfinite(b) ? fmt_int(b) : "—") << " | "
         << (std::isfinite(tm) && std::isfinite(b) && tm > 0 ? fmt_g(b / tm / 1000, 4) : "—") << " |";
    }
    rt << "\n";
  }
  s.set("dummy_rate_rows", rows_text(rt.str()));
  s.set("utm_n_max", fmt_int(double(tdmaps::limits::utm_n_max_N)));
  s.list("kepler");
  for (const Claim* c : d.kepler)
    s.add("kepler")
        .set("id", cell(c->id))
        .set("quantity", cell(c->quantity))
        .set("value", cell(c->unit == "rank" ? "rank " + c->value : c->value + (c->unit.empty() ? "" : " " + c->unit)))
        .set("gpu", cell(c->gpu));
  s.list("block_rate");
  for (const DummyHopper::BlockRate& b : d.reading)
    s.add("block_rate")
        .set("gpu", b.g->name())
        .set("rate_min", fmt_g(b.rate_min, 3))
        .set("rate_max", fmt_g(b.rate_max, 3))
        .set("n", fmt_int(b.n))
        .set("ratio", fmt(b.ratio, 4));
  std::vector<std::string> v;
  for (const auto& [m, n] : d.sass) v.push_back(m + " " + n);
  s.set("sass", join(v, ", "));
}

}  // namespace

bool write_report(const Ctx& ctx, std::string* err) {
  std::ifstream in(ctx.report_template, std::ios::binary);
  if (!in) {
    if (err) *err = "cannot read the template " + ctx.report_template;
    return false;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  Scope s;
  s.set("results", ctx.results).set("cpu_exact", ctx.cpu_exact).set("reported", ctx.reported).set("bib", ctx.bib);
  s.set("bib_keys", join(bib_keys(ctx.bib), ", "));
  s.set("rho", str(kRho)).set("large_n", fmt_int(kLargeN));
  fill_setup(s, ctx);
  fill_method(s, ctx);
  fill_figures(s, ctx);
  fill_claims(s, ctx);
  fill_targets(s, ctx);
  fill_peers(s, ctx);
  fill_hopper(s, ctx);
  s.list("notice");
  for (const std::string& n : ctx.notices) s.add("notice").set("text", cell(n));
  std::string why;
  const std::string text = tmpl::render(buf.str(), s, &why);
  if (!why.empty()) {
    if (err) *err = ctx.report_template + ": " + why;
    return false;
  }
  std::error_code ec;
  const fs::path parent = fs::path(ctx.report).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  std::ofstream f(ctx.report);
  if (!f) {
    if (err) *err = "cannot write " + ctx.report;
    return false;
  }
  f << text;
  return bool(f);
}

}  // namespace claims
