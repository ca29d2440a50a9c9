// src/support/results/readme.cpp — see readme.hpp. Every number here is read from the CSVs through
// select.hpp, every paper value from paper/reported.csv (by claim id), every limit from the
// map library: nothing is typed in.
#include "readme.hpp"

#include "select.hpp"

#include <tdmaps/map_utm.hpp>
#include <tdmaps/numbers.hpp>  // the rounding modes' names (Pinned::name, Fused::name)
#include <tdmaps/registry.hpp>
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)
#include "registry/map_names.hpp"     // the host emulation's name of a root (host_suffix)
#include "registry/sdh_rungs.hpp"   // the SDH implementations' rules, by name

#include <algorithm>
#include <cstdio>
#include <limits>
#include <functional>
#include <map>
#include <optional>

namespace results {

namespace P = pick_rows;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string fmt_e(double v, int prec) {  // 1.79e+12
  char b[64];
  std::snprintf(b, sizeof b, "%.*e", prec, v);
  return b;
}

// The slots of a cell of the results table: the median of I over large N of the first candidate with rows there (via:
// that candidate, when it is not the first), else (all_N: marked "*") over every N it has (a map whose exact range
// ends below large N); v empty: not run.
void cell_I(const Table* t, const Sel& s, const std::vector<std::string>& cands, tmpl::Scope& c) {
  c.set("v", "").set("via", "").flag("all_N", false);
  if (!t) return;
  for (const std::string& m : cands) {
    const Pts p = curve(*t, s, m);
    const double v = P::large_median(p);
    if (std::isfinite(v)) {
      c.set("v", fmt(v, 2)).set("via", cands.size() > 1 && m != cands.front() ? m : "");
      return;
    }
  }
  for (const std::string& m : cands) {
    const Pts p = curve(*t, s, m);
    if (!p.empty()) {
      c.set("v", fmt(median(ys(p)), 2)).flag("all_N", true);
      return;
    }
  }
}

// a paper value of claim `id` as an improvement factor ("13%" -> 1.13), or NaN
double paper_I(const Ctx& ctx, const std::string& id, bool hi = false) {
  const Claim* c = ctx.claim(id);
  if (!c || !c->pv.numeric()) return NAN;
  const double v = hi && std::isfinite(c->pv.hi) ? c->pv.hi : c->pv.lo;
  return c->unit == "%" ? 1.0 + v / 100.0 : v;
}

// One part of a line's paper column (partial `paper` of readme.template.md): a strategy's values, the span (low–high)
// of several claims as I, or one claim's comparison.
struct PaperPart {
  const char* who;               // its flag in partial `paper`: ltm, rb, rb_rec, bound
  const char* how;               // "" (the value alone), up_to or approx: its flag there
  std::vector<std::string> ids;  // the claims of paper/reported.csv
  bool cmp = false;              // true: the comparison of the one claim ids[0] (its cmp, its value)
};
constexpr const char* kPaperWho[] = {"ltm", "rb", "rb_rec", "bound"};
constexpr const char* kPaperHow[] = {"up_to", "approx"};

// The part's slots in list `part` of `s`; nothing where the claims give no number.
void paper_part(const Ctx& ctx, const PaperPart& p, tmpl::Scope& s) {
  tmpl::Scope e;
  for (const char* w : kPaperWho) e.flag(w, std::string(w) == p.who);
  for (const char* h : kPaperHow) e.flag(h, std::string(h) == p.how);
  e.list("span");
  e.list("cmp");
  if (p.cmp) {
    const Claim* c = ctx.claim(p.ids.front());
    if (!c || !c->pv.numeric()) return;
    e.add("cmp")
        .flag("lt", c->pv.cmp == "<")
        .flag("le", c->pv.cmp == "<=")
        .flag("gt", c->pv.cmp == ">")
        .set("v", fmt_g(paper_I(ctx, p.ids.front()), 3));
  } else {
    std::vector<double> v;
    for (const std::string& id : p.ids) {
      for (bool hi : {false, true}) {
        const double x = paper_I(ctx, id, hi);
        if (std::isfinite(x)) v.push_back(x);
      }
    }
    if (v.empty()) return;
    std::sort(v.begin(), v.end());
    const std::string a = fmt(v.front(), 2), b = fmt(v.back(), 2);
    e.add("span").set("lo", a).set("hi", a == b ? "" : b);
  }
  s.lists["part"].push_back(std::move(e));
}

// A line of the results table: its flag in partial `experiment` (readme.template.md, its words), the papers'
// values, the CSV and the selection it reads, and the candidates of each column.
struct Line {
  const char* id;
  std::vector<PaperPart> paper;
  results::Layout layout;
  Sel sel;
  std::vector<std::vector<std::string>> cols;  // candidates per column
};

const std::vector<std::string> kCols = {tdmaps::LTM_R::name, tdmaps::LTM_R_SQ::name, tdmaps::LTM_E::name,
                                        tdmaps::RB::name,    tdmaps::REC::name,      tdmaps::UTM_N::name};

std::vector<Line> lines() {
  const auto cols = [](P::Kernel k) {
    return std::vector<std::vector<std::string>>{{tdmaps::LTM_R::name}, {tdmaps::LTM_R_SQ::name}, {tdmaps::LTM_E::name},
                                                 P::rb(k),  P::rec(), {tdmaps::UTM_N::name}};
  };
  const auto plain = cols(P::Kernel::Direct);  // rb: the papers' thread-level RB
  std::vector<Line> v;
  v.push_back({"dummy_store",
               {{"ltm", "", {"001-dummy-ltm-13", "000-dummy-ltm-18"}}, {"rb", "up_to", {"001-dummy-rb-25", "000-dummy-rb-33"}}},
               results::layout::dummy, P::dummy(P::Form::Store), plain});
  v.push_back({"dummy_cond", {{"bound", "", {"000+001-bound-I"}, true}}, results::layout::dummy, P::dummy(P::Form::Cond), plain});
  v.push_back({"edm_full", {{"ltm", "", {"001-edm-ltm-12-15", "000-edm-ltm-18"}}, {"rb", "up_to", {"000-edm-rb-28"}}},
               results::layout::edm, P::edm(results::edm_variant::full, 4), plain});
  v.push_back({"edm_packed", {}, results::layout::edm, P::edm(results::edm_variant::packed, 4), plain});
  v.push_back({"col3d_shared", {{"ltm", "up_to", {"000-col-ltm-7"}}, {"rb_rec", "", {"000-col-rb-rec-slower"}, true}},
               results::layout::collision, P::collision(P::Kernel::Shared, collision_dim::d3), cols(P::Kernel::Shared)});
  v.push_back({"col3d_direct", {}, results::layout::collision, P::collision(P::Kernel::Direct, collision_dim::d3, false), plain});
  v.push_back({"col1d_shared", {{"ltm", "approx", {"000-col1d-ltm"}, true}}, results::layout::collision,
               P::collision(P::Kernel::Shared, collision_dim::d1), cols(P::Kernel::Shared)});
  v.push_back({"col1d_direct", {}, results::layout::collision, P::collision(P::Kernel::Direct, collision_dim::d1, false), plain});
  return v;
}

const Table* dummy_meta(const GpuData& g) { return g.get(results::layout::dummy); }

// The slots of partial `measured_on`: the GPU, its driver and CUDA, and the commit of each CSV the results table reads
// (one, or several grouped with their files); flag dirty: a commit marked "+dirty".
void measured_on(const GpuData& g, tmpl::Scope& s) {
  const Table* t = dummy_meta(g);
  const auto m = [&](const char* k) {
    const std::string v = t ? t->meta_or(k) : g.meta(k);
    return v.empty() ? std::string("?") : v;
  };
  // the commit of each CSV the results table reads, grouped (runs of several commits are named file by file)
  std::vector<std::pair<std::string, std::vector<std::string>>> by_commit;
  for (const results::Layout* l : {&results::layout::dummy, &results::layout::sqrt_, &results::layout::edm, &results::layout::collision}) {
    const char* f = l->file;
    const Table* ft = g.get(*l);
    if (!ft) continue;
    const std::string c = ft->meta_or("commit").empty() ? std::string("?") : ft->meta_or("commit");
    auto it = std::find_if(by_commit.begin(), by_commit.end(), [&](const auto& e) { return e.first == c; });
    if (it == by_commit.end()) by_commit.push_back({c, {f}});
    else it->second.push_back(f);
  }
  s.set("name", g.name()).set("slug", g.slug).set("driver", m("driver")).set("nvcc", m("nvcc")).set("commit", m("commit"));
  const bool many = by_commit.size() > 1;
  s.flag("many_commits", many);
  bool dirty = !many && m("commit").find("+dirty") != std::string::npos;
  s.list("commits");
  if (many)
    for (const auto& [c, fs] : by_commit) {
      tmpl::Scope& e = s.add("commits");
      e.set("c", c);
      for (const std::string& f : fs) e.add("files").set("f", f);
      dirty = dirty || c.find("+dirty") != std::string::npos;
    }
  s.flag("dirty", dirty);
}

// The slots of partial `edm_bw` (list `edm`: one item with edm.csv, none without): the write bandwidth of the run
// and, for each layout, the best map's share of it over large N (lowest, highest, where the lowest is).
void edm_bw(const GpuData& g, tmpl::Scope& s) {
  s.list("edm");
  const Table* t = g.get(results::layout::edm);
  if (!t) return;
  std::vector<double> bws;
  for (const TableRow& r : t->rows())
    if (r.s("map") == kWriteBwMap) bws.push_back(r.d("GBps"));
  const double bw = median(bws);
  tmpl::Scope& e = s.add("edm");
  e.set("bw", fmt(bw, 0)).set("large_N", fmt_int(kLargeN));
  e.list("layout");
  for (const std::string lay : {results::edm_variant::full, results::edm_variant::packed}) {
    std::map<std::pair<int, long long>, double> best;  // (features, N) -> best map's GB/s
    for (const TableRow& r : t->rows())
      if (r.s("variant") == lay && r.s("map") != kWriteBwMap && r.d("N") >= kLargeN) {
        const auto k = std::make_pair(int(r.d("features")), (long long)r.d("N"));
        best[k] = std::max(best.count(k) ? best[k] : 0.0, r.d("GBps"));
      }
    if (best.empty()) continue;
    auto lo = best.begin();
    double hi = 0;
    for (auto it = best.begin(); it != best.end(); ++it) {
      if (it->second < lo->second) lo = it;
      hi = std::max(hi, it->second);
    }
    e.add("layout")
        .set("name", lay)
        .set("lo", fmt(lo->second / bw * 100, 0))
        .set("hi", fmt(hi / bw * 100, 0))
        .set("features", std::to_string(lo->first.first))
        .flag("plural", lo->first.first != 1)
        .set("N", fmt_int(double(lo->first.second)));
  }
}

// Judging rule "faster than" (paper/claims/judging.hpp): the fastest map configuration (any ρ, mode) against the
// fastest BB3 configuration at N, from the same table (same run); "" when either is missing. form: "" any, else
// only rows of that form.
void best_vs_best(const Table& t, double N, const std::string& form, tmpl::Scope& s) {
  s.list("best");
  const std::vector<TableRow> rows = t.rows();  // rows() returns a copy: keep it alive for the pointers below
  const TableRow* bm = nullptr;
  const TableRow* bb = nullptr;
  for (const TableRow& r : rows) {
    if (r.d("N") != N || (!form.empty() && r.s("form") != form) || !(r.d("median_ms") > 0)) continue;
    if (r.has("verified") && r.s("verified") == "0") continue;
    const TableRow*& b = r.s("map") == tdmaps::BB3::name ? bb : bm;
    if (!b || r.d("median_ms") < b->d("median_ms")) b = &r;
  }
  if (!bm || !bb) return;
  s.add("best")
      .set("map", bm->s("map"))
      .set("map_rho", bm->s("rho"))
      .set("map_mode", bm->s("mode"))
      .set("x", fmt(bb->d("median_ms") / bm->d("median_ms"), 2))
      .set("bb_rho", bb->s("rho"))
      .set("bb_mode", bb->s("mode"));
}

// The slots of partial `tet`: list `tet`, one item per tetrahedral table the folder has (flag is_dummy, is_threebody or
// is_layout says which).
void tet(const GpuData& g, tmpl::Scope& s) {
  s.list("tet");
  const auto item = [&](const char* which) -> tmpl::Scope& {
    tmpl::Scope& e = s.add("tet");
    for (const char* f : {"is_dummy", "is_threebody", "is_layout"}) e.flag(f, std::string(f) == which);
    return e;
  };
  if (const Table* t = g.get(results::layout::tet_dummy)) {
    double nmax = 0;
    for (const TableRow& r : t->rows()) nmax = std::max(nmax, r.d("N"));
    const auto improvement = [&](const std::string& m, const std::string& mode, const std::string& rho) {
      std::vector<double> v;
      for (const TableRow& r : t->rows())
        if (r.s("map") == m && r.s("mode") == mode && r.s("rho") == rho && r.s("form") == pick_rows::form_name(pick_rows::Form::Cond) && r.d("N") == nmax)
          v.push_back(r.d("I"));
      return median(v);
    };
    tmpl::Scope& e = item("is_dummy");
    e.set("N", fmt_int(nmax))
        .set("fast4", fmt(improvement(tdmaps::TET_FAST::name, kBlockMode, "4"), 2))
        .set("fast8", fmt(improvement(tdmaps::TET_FAST::name, kBlockMode, "8"), 2))
        .set("e4", fmt(improvement(tdmaps::TET_E::name, kThreadMode, "4"), 2));
    best_vs_best(*t, nmax, pick_rows::form_name(pick_rows::Form::Cond), e);
  }
  if (const Table* t = g.get(results::layout::tet_threebody)) {
    double nmax = 0, v = -1;
    for (const TableRow& r : t->rows()) nmax = std::max(nmax, r.d("N"));
    for (const TableRow& r : t->rows())
      if (r.d("N") == nmax) v = std::max(v, r.d("I"));
    tmpl::Scope& e = item("is_threebody");
    e.set("N", fmt_int(nmax)).set("I", fmt(v, 2));
    best_vs_best(*t, nmax, "", e);
  }
  if (const Table* t = g.get(results::layout::tet_layout)) {
    std::vector<double> v;
    for (const TableRow& r : t->rows())
      if (std::isfinite(r.d("linear_over_blocked"))) v.push_back(r.d("linear_over_blocked"));
    if (!v.empty())
      item("is_layout")
          .set("lo", fmt(*std::min_element(v.begin(), v.end()), 2))
          .set("hi", fmt(*std::max_element(v.begin(), v.end()), 2));
  }
}

// The slots of partial `sdh` (list `sdh`: one item, none without sdh.csv rows): the best implementation at the largest
// N, its rule, its speed-up over the all-core CPU (list `spd`) and issue #26's verdict (list `target`).
void sdh(const GpuData& g, const std::vector<TargetVerdict>& verdicts, tmpl::Scope& s) {
  s.list("sdh");
  const Table* t = g.get(results::layout::sdh);
  if (!t || t->size() == 0) return;
  double nmax = 0;
  for (const TableRow& r : t->rows()) nmax = std::max(nmax, r.d("N"));
  const TableRow* best = nullptr;
  std::vector<TableRow> rows = t->rows();
  for (const TableRow& r : rows)
    if (r.d("N") == nmax && (!best || r.d("pairs_per_s") > best->d("pairs_per_s"))) best = &r;
  if (!best) return;
  const std::string impl = best->s("impl");
  tmpl::Scope& e = s.add("sdh");
  e.list("spd");
  e.list("target");
  const TableRow* last = nullptr;
  for (const TableRow& r : rows)
    if (r.s("impl") == impl && !r.s("speedup_vs_cpu_mt").empty()) last = &r;
  const TableRow* same_run = nullptr;  // sdh_cpu_1M.csv's row: the CPU timed in the same run
  std::vector<TableRow> b_rows;
  if (const Table* b = g.get(results::layout::sdh_cpu_1M)) {
    b_rows = b->rows();
    for (const TableRow& r : b_rows)
      if (r.s("impl") == impl && !r.s("speedup_vs_cpu_mt").empty()) {
        same_run = &r;
        break;
      }
  }
  if (const TableRow* r = same_run ? same_run : last)
    e.add("spd").set("x", fmt(r->d("speedup_vs_cpu_mt"), 0)).set("N", fmt_int(r->d("N"))).flag("same_run", same_run != nullptr);
  // issue #26's target (26-sdh of paper/targets.csv, judged in paper/claims/targets.cpp on the same best row)
  const TargetVerdict* v = find_verdict(verdicts, "26-sdh", g.slug);
  if (nmax == 1e6 && v && std::isfinite(v->value) && std::isfinite(v->goal))
    e.add("target")
        .set("goal", fmt_e(v->goal, 2))
        .set("N", fmt_int(nmax))
        .flag("met", v->verdict == "met")
        .set("by", fmt(100 * (v->value / v->goal - 1), 2))
        .set("verdict", v->verdict)
        .set("pct", fmt(100 * v->value / v->goal, 0));
  // the rule of its histogram: the list of SDH implementations' (registry/sdh_rungs.hpp); none for a name it lacks
  const auto rule = tdmaps::gpu::sdh::rule_of_name(impl);
  e.set("impl", impl)
      .flag("gram_rule", rule && *rule == tdmaps::sdh::Rule::gram)
      .set("rule", rule ? tdmaps::sdh::rule_name(*rule) : "")
      .set("N", fmt_int(nmax))
      .set("pairs_per_s", fmt_e(best->d("pairs_per_s"), 2));
}

// The slots of partial `multi` (list `multi`: one item, none without either multi-GPU table): the machine, the
// commits, and per application (list `app`) the rate on one GPU, the split over the GPUs (list `split`), the most
// chunks on one GPU (list `chunks`) and whether every split was bit-identical.
void multi_gpu(const GpuData& g, tmpl::Scope& s) {
  s.list("multi");
  std::vector<std::string> commits;
  std::vector<tmpl::Scope> apps;
  const Table* meta = nullptr;
  for (const results::Layout* layout : {&results::layout::sdh_multigpu, &results::layout::threebody_multigpu}) {
    const Table* t = g.get(*layout);
    if (!t || t->size() == 0) continue;
    if (!meta) meta = t;
    const std::string c = t->meta_or("commit");
    if (!c.empty() && std::find(commits.begin(), commits.end(), c) == commits.end()) commits.push_back(c);
    double n = 0;
    for (const TableRow& r : t->rows()) n = std::max(n, r.d("N"));
    std::vector<TableRow> at;
    for (const TableRow& r : t->rows())
      if (r.d("N") == n) at.push_back(r);
    const TableRow* one = nullptr;
    for (const TableRow& r : at)
      if (r.s("gpus") == "1" && r.s("chunks") == "1") { one = &r; break; }
    if (!one) continue;
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.3g", one->d("work_per_s"));
    tmpl::Scope& A = apps.emplace_back();
    A.flag("is_sdh", layout == &results::layout::sdh_multigpu).set("N", fmt_int(n)).set("kernel", one->s("kernel")).set("rate", rate);
    A.list("split");
    A.list("chunks");
    double gmax = 0;
    for (const TableRow& r : at) gmax = std::max(gmax, r.d("gpus"));
    const TableRow* gr = nullptr;
    for (const TableRow& r : at)
      if (r.d("gpus") == gmax && r.s("chunks") == "1") { gr = &r; break; }
    if (gmax > 1 && gr)
      A.add("split")
          .set("gpus", fmt_int(gmax))
          .set("x", fmt(gr->d("rate_vs_first"), 3))
          .set("reduce_ms", fmt(gr->d("reduce_ms"), 2))
          .set("frac", fmt(100 * gr->d("reduce_frac"), 4));
    const TableRow* cm = nullptr;
    for (const TableRow& r : at)
      if (r.s("gpus") == "1" && r.d("chunks") > 1 && (!cm || r.d("chunks") > cm->d("chunks"))) cm = &r;
    if (cm) A.add("chunks").set("chunks", cm->s("chunks")).set("x", fmt(cm->d("rate_vs_first"), 3));
    bool same = true;
    for (const TableRow& r : t->rows()) same = same && r.s("identical") == "1";
    A.flag("identical", same);
  }
  if (apps.empty()) return;
  tmpl::Scope& M = s.add("multi");
  M.set("gpus", meta->meta_or("gpus_used").empty() ? "?" : meta->meta_or("gpus_used"))
      .set("gpu", meta->meta_or("gpu", "?"))
      .set("nccl", meta->meta_or("nccl", "?"))
      .flag("many_commits", commits.size() > 1);
  if (commits.empty()) commits.push_back("?");
  for (const std::string& c : commits) M.add("commits").set("c", c);
  M.lists["app"] = std::move(apps);
}

}  // namespace

const TargetVerdict* find_verdict(const std::vector<TargetVerdict>& v, const std::string& id, const std::string& slug) {
  for (const TargetVerdict& x : v)
    if (x.id == id && x.slug == slug) return &x;
  return nullptr;
}

std::string readme_results_block(const Ctx& ctx, const std::vector<TargetVerdict>& verdicts) {
  // the prose: sections `results` and `results_none` of readme.template.md
  if (ctx.gpus.empty()) return fill_readme(ctx.readme, "results_none", tmpl::Scope{});
  tmpl::Scope s;
  for (const GpuData& g : ctx.gpus) measured_on(g, s.add("gpu_on"));
  s.set("large_N", fmt_int(kLargeN)).set("rho", std::to_string(kRho));
  for (const std::string& c : kCols) s.add("col").set("name", c);
  const std::vector<Line> L = lines();
  for (const Line& l : L)
    for (size_t gi = 0; gi < ctx.gpus.size(); ++gi) {
      const GpuData& g = ctx.gpus[gi];
      const Table* t = g.get(l.layout);
      tmpl::Scope& row = s.add("row");
      row.flag("first", gi == 0).set("gpu", g.name());  // first: the line's words and the papers' values
      for (const Line& o : L) row.flag(o.id, &o == &l);
      row.list("part");
      if (gi == 0)
        for (const PaperPart& p : l.paper) paper_part(ctx, p, row);
      for (const auto& c : l.cols) cell_I(t, l.sel, c, row.add("cell"));
    }
  s.set("utm_n_max_N", fmt_int(double(tdmaps::limits::utm_n_max_N)));
  const std::vector<std::string> sq = {tdmaps::LTM_X::name, tdmaps::LTM_N::name, tdmaps::LTM_R::name, tdmaps::LTM_D::name,
                                     tdmaps::LTM_E::name};
  for (const std::string& m : sq) s.add("sq").set("name", m);
  // each root on our linear grid and on the papers' n'×n' grid (the -sq maps; — where a folder has no such rows)
  for (const GpuData& g : ctx.gpus)
    for (const P::Grid grid : {P::Grid::Linear, P::Grid::Papers}) {
      const Table* t = g.get(results::layout::sqrt_);
      tmpl::Scope& row = s.add("sq_row");
      row.set("gpu", g.name()).flag("papers_grid", grid == P::Grid::Papers);
      for (const std::string& m : P::on_grid(grid, sq)) {
        const double v = t ? P::large_median(curve(*t, P::dummy(P::Form::Cond), m)) : NAN;
        row.add("cell").set("v", std::isfinite(v) ? fmt(v, 2) : "");
      }
    }
  // each folder's sentences: partials edm_bw, tet, sdh and multi
  for (const GpuData& g : ctx.gpus) {
    tmpl::Scope& G = s.add("gpu");
    G.set("name", g.name()).set("slug", g.slug);
    edm_bw(g, G);
    tet(g, G);
    sdh(g, verdicts, G);
    multi_gpu(g, G);
  }
  return fill_readme(ctx.readme, "results", s);
}

std::string readme_targets_block(const Ctx& ctx) {
  if (ctx.gpus.empty()) return "";
  const auto improvement = [&](const GpuData& g, const results::Layout& layout, const Sel& s, const std::string& m) {
    const Table* t = g.get(layout);
    return t ? P::large_median(curve(*t, s, m)) : NAN;
  };
  double cond_min = kInf, store_r = kInf, store_e = kInf;
  std::string cond_min_at;
  for (const GpuData& g : ctx.gpus)
    for (const std::string& m : P::ltm(P::Grid::Linear)) {
      const double v = improvement(g, results::layout::sqrt_, P::dummy(P::Form::Cond), m);
      if (std::isfinite(v) && v < cond_min) {
        cond_min = v;
        cond_min_at = m + ", " + g.name();
      }
    }
  for (const GpuData& g : ctx.gpus) {
    store_r = std::min(store_r, improvement(g, results::layout::dummy, P::dummy(P::Form::Store), tdmaps::LTM_R::name));
    store_e = std::min(store_e, improvement(g, results::layout::dummy, P::dummy(P::Form::Store), tdmaps::LTM_E::name));
  }
  const auto gap = [&](const results::Layout& layout, const Sel& s) {  // largest (ltm-r − ltm-e) / ltm-r over the GPUs, %
    double w = -kInf;
    for (const GpuData& g : ctx.gpus) {
      const double r = improvement(g, layout, s, tdmaps::LTM_R::name), e = improvement(g, layout, s, tdmaps::LTM_E::name);
      if (std::isfinite(r) && std::isfinite(e)) w = std::max(w, 100.0 * (r - e) / r);
    }
    return w;
  };
  // the prose: section `targets` of readme.template.md
  tmpl::Scope v;
  v.flag("many_gpus", ctx.gpus.size() > 1).set("large_N", fmt_int(kLargeN)).set("rho", std::to_string(kRho));
  v.set("cond_min", fmt(cond_min, 2)).set("cond_min_at", cond_min_at).set("store_r", fmt(store_r, 2)).set("store_e", fmt(store_e, 2));
  v.set("gap_edm", fmt(gap(results::layout::edm, P::edm(results::edm_variant::full, 4)), 1))
      .set("gap_col1d", fmt(gap(results::layout::collision, P::collision(P::Kernel::Shared, collision_dim::d1)), 1))
      .set("gap_col3d", fmt(gap(results::layout::collision, P::collision(P::Kernel::Shared, collision_dim::d3)), 1));
  return fill_readme(ctx.readme, "targets", v);
}

namespace {
// The row of a map in an exact-range table in rounding `rounding` (a tdmaps rounding's name: Pinned::name,
// Fused::name; a row without one is pinned), or nullptr.
const TableRow* range_row(const Table* t, const std::string& variant, const std::string& rounding,
                     const std::string& kind = "", std::vector<TableRow>* keep = nullptr) {
  if (!t) return nullptr;
  keep->clear();
  for (const TableRow& r : t->rows())
    if (r.s("variant") == variant && (r.s("rounding").empty() ? rounding == tdmaps::Pinned::name : r.s("rounding") == rounding) &&
        (kind.empty() || r.s("kind") == kind)) {
      keep->push_back(r);
      return &keep->back();
    }
  return nullptr;
}
// The slots of partial `range` (readme.template.md), which of its forms the flag says: thread (a thread map's largest
// N), checked (every λ searched exact), below (exact below the first wrong λ) or wrong_from; every slot set, so that
// none is read from an enclosing scope. List `gpus` (partial `ranges`): the GPUs that gave it, none for the CPU's.
enum class RangeIs { thread, checked, below, wrong_from };
tmpl::Scope range_slots(RangeIs is, const std::string& N, const std::string& upto, const std::string& wrong,
                        const std::string& at_rho, const std::string& bits) {
  tmpl::Scope s;
  s.flag("thread", is == RangeIs::thread)
      .flag("checked", is == RangeIs::checked)
      .flag("below", is == RangeIs::below)
      .flag("wrong_from", is == RangeIs::wrong_from);
  s.set("N", N).set("upto", upto).set("wrong", wrong).set("at_rho", at_rho).set("bits", bits);
  s.list("gpus");
  return s;
}
// The range of a row of exact_ranges_cpu.csv or exact_range_gpu.csv at ρ (3D, kind block3: N at that ρ). Which form:
// a thread map's N; else every λ checked (first_wrong "none"), wrong from λ = 0, or exact below the first wrong λ.
tmpl::Scope range_of(const TableRow& r, int rho) {
  const std::string kind = r.s("kind");
  const std::string N = fmt_int(r.d("largest_exact_N_rho" + std::to_string(rho)));
  if (kind == exact_kind::thread) return range_slots(RangeIs::thread, N, "", "", "", "");
  const std::string at = kind == exact_kind::block3 ? std::to_string(rho) : "";
  if (r.s("first_wrong") == "none") return range_slots(RangeIs::checked, N, fmt_int(r.d("searched_up_to")), "", at, "");
  if (r.d("first_wrong") == 0) return range_slots(RangeIs::wrong_from, "", "", "0", "", "");
  return range_slots(RangeIs::below, N, "", fmt_int(r.d("first_wrong")), at, "");
}
// The cell of partial `ranges`: list `r` of its ranges.
tmpl::Scope ranges(std::vector<tmpl::Scope> r) {
  tmpl::Scope s;
  s.lists["r"] = std::move(r);
  return s;
}
std::vector<tmpl::Scope> one(std::optional<tmpl::Scope> r) {
  std::vector<tmpl::Scope> v;
  if (r) v.push_back(std::move(*r));
  return v;
}
// Each GPU's range (none: nothing), the same range once with the GPUs that gave it (list `gpus`), in the GPUs' order.
std::vector<tmpl::Scope> per_gpu(const Ctx& ctx, const std::function<std::optional<tmpl::Scope>(const GpuData&)>& f) {
  std::vector<tmpl::Scope> by;
  for (const GpuData& g : ctx.gpus) {
    std::optional<tmpl::Scope> v = f(g);
    if (!v) continue;
    auto it = std::find_if(by.begin(), by.end(), [&](const tmpl::Scope& e) { return e.vals == v->vals; });
    if (it == by.end()) it = by.insert(by.end(), std::move(*v));
    it->add("gpus").set("name", g.name());
  }
  return by;
}
// The instruction count of a map's dummy kernel (experiments/results/cpu/map_instructions.csv); "" where none.
std::string instr(const Ctx& ctx, const std::string& map, int dim, int bits) {
  const Table* t = ctx.cpu.get(results::layout::map_instructions);
  if (!t) return "";
  for (const TableRow& r : t->rows())
    if (r.s("map") == map && r.d("dim") == dim && r.d("index_bits") == bits && r.s("form") == pick_rows::form_name(pick_rows::Form::Cond) &&
        (dim == 2 || r.s("mode") == kThreadMode))
      return fmt_int(r.d("map_instructions"));
  return "";
}
// largest n with n(n+1)/2 ≤ b (2D) or n(n+1)(n+2)/6 ≤ b (3D)
double largest_n(double b, int dim) {
  double n = dim == 2 ? std::floor(std::sqrt(2 * b)) : std::floor(std::cbrt(6 * b));
  const auto tri = [&](double k) { return dim == 2 ? k * (k + 1) / 2 : k * (k + 1) * (k + 2) / 6; };
  while (tri(n) > b) n -= 1;
  while (tri(n + 1) <= b) n += 1;
  return n;
}
// The slots of partial `limit`: the CPU-oracle column of a map without a root, its traits' range_limit
// (registry/traits.hpp); every slot set.
tmpl::Scope limit_of(const tdmaps::range_limit& r, int dim) {
  tmpl::Scope s;
  s.flag("table", r.kind == tdmaps::range_kind::table_entries)
      .flag("blocks", r.kind == tdmaps::range_kind::blocks)
      .flag("valid_N", r.kind == tdmaps::range_kind::valid_N)
      .flag("every_N", r.kind == tdmaps::range_kind::every_N);
  s.set("n", "").set("limit", "").set("constant", "").set("N", "").set("at_rho", "");
  switch (r.kind) {
    case tdmaps::range_kind::table_entries:
      s.set("n", fmt_int(largest_n(r.limit, dim))).set("limit", fmt_int(r.limit)).set("constant", r.constant);
      break;
    case tdmaps::range_kind::blocks: {
      const int rho = dim == 3 ? kRho3 : kRho;
      s.set("limit", fmt_int(r.limit))
          .set("N", fmt_int(rho * largest_n(r.limit, dim)))
          .set("at_rho", std::to_string(rho))
          .set("constant", r.constant);
      break;
    }
    case tdmaps::range_kind::valid_N:
    case tdmaps::range_kind::every_N: break;
  }
  return s;
}
}  // namespace

std::string readme_maps_block(const Ctx& ctx) {
  // the prose and the table's form: section `maps` of readme.template.md
  tmpl::Scope s;
  s.set("rho", std::to_string(kRho)).set("rho3", std::to_string(kRho3));
  const Table* cpu = ctx.cpu_exact_table ? &*ctx.cpu_exact_table : nullptr;
  std::vector<TableRow> keep;
  // a row: what each map is, its trait `about` (registry/traits.hpp, beside the map); the CPU oracle's range (one
  // item in one of the lists cpu, host, papers_grid and limit: partial `oracle`); the device's, per GPU
  const auto line = [&](const std::string& name, int dim, bool blockwise, const std::string& about) -> tmpl::Scope& {
    tmpl::Scope& e = s.add("map");
    e.set("name", name).set("dim", std::to_string(dim)).flag("dim3", dim == 3).flag("blockwise", blockwise).set("about", about);
    e.set("i32", instr(ctx, name, dim, 32)).set("i64", instr(ctx, name, dim, 64));
    for (const char* l : {"cpu", "host", "papers_grid", "limit"}) e.list(l);
    return e;
  };
  tdmaps::for_each_map(tdmaps::maps2d{}, [&](auto m) {
    using M = decltype(m);
    const std::string name = M::name;
    tmpl::Scope& e = line(name, 2, M::blockwise, tdmaps::map_traits<M>::about);
    if (const TableRow* r = range_row(cpu, name, tdmaps::Pinned::name, "", &keep)) e.lists["cpu"].push_back(range_of(*r, kRho));
    else if (const TableRow* h = range_row(cpu, name + tdmaps::host_suffix, tdmaps::Pinned::name, "", &keep))
      e.lists["host"].push_back(range_of(*h, kRho));
    else if (pick_rows::on_papers_grid(name)) e.add("papers_grid").set("of", pick_rows::off_papers_grid(name));
    else e.lists["limit"].push_back(limit_of(tdmaps::range_limit_of<M>(), 2));
    e.lists["device"].push_back(ranges(per_gpu(ctx, [&](const GpuData& g) -> std::optional<tmpl::Scope> {
      std::vector<TableRow> k2;
      const TableRow* r = range_row(g.get(results::layout::exact_range_gpu), name, tdmaps::Pinned::name, "", &k2);
      if (!r) return std::nullopt;
      return range_of(*r, kRho);
    })));
  });
  tdmaps::for_each_map(tdmaps::maps3d{}, [&](auto m) {
    using M = decltype(m);
    const std::string name = M::name;
    tmpl::Scope& e = line(name, 3, true, tdmaps::map_traits<M>::about);
    if (const TableRow* r = range_row(cpu, name, tdmaps::Pinned::name, "", &keep)) e.lists["cpu"].push_back(range_of(*r, kRho3));
    else if (const TableRow* h = range_row(cpu, name + tdmaps::host_suffix, tdmaps::Pinned::name, "", &keep))
      e.lists["host"].push_back(range_of(*h, kRho3));
    else e.lists["limit"].push_back(limit_of(tdmaps::range_limit_of<M>(), 3));
    // the layer sweep of tet_exact_range_gpu.csv: every λ checked, or wrong from its first wrong λ (its index path)
    e.lists["device"].push_back(ranges(per_gpu(ctx, [&](const GpuData& g) -> std::optional<tmpl::Scope> {
      const Table* t = g.get(results::layout::tet_exact_range_gpu);
      if (!t) return std::nullopt;
      for (const TableRow& r : t->rows())
        if (r.s("root") == name && r.s("part") == tet_part::layer) {
          const std::string bits = std::isfinite(r.d("index_bits")) ? r.s("index_bits") : "";
          if (r.s("first_wrong") == "none")
            return range_slots(RangeIs::checked, fmt_int(r.d("largest_exact_N_rho" + std::to_string(kRho3))),
                               fmt_int(r.d("searched_to")), "", std::to_string(kRho3), bits);
          return range_slots(RangeIs::wrong_from, "", "", fmt_int(r.d("first_wrong")), "", bits);
        }
      return std::nullopt;
    })));
  });
  return fill_readme(ctx.readme, "maps", s);
}

std::string readme_rounding_block(const Ctx& ctx) {
  // the prose and the table's form: section `rounding` of readme.template.md
  tmpl::Scope s;
  const Table* cpu = ctx.cpu_exact_table ? &*ctx.cpu_exact_table : nullptr;
  std::vector<TableRow> k1, k2;
  // a row: map v, on the device (the GPU sweep) or the host's emulation of a root it does not reproduce; its
  // ranges in both roundings (partial `ranges`; same: the CPU's two the same)
  const auto row = [&](const std::string& v, bool on_device, bool host, bool dim3) -> tmpl::Scope& {
    tmpl::Scope& e = s.add("row");
    e.set("map", v).flag("on_device", on_device).flag("host", host).flag("dim3", dim3).flag("same", false);
    return e;
  };
  // the CPU oracle's rows of variant `variant` (verify/results/exact_ranges_cpu.csv), both roundings
  const auto cpu_row = [&](const std::string& v, const std::string& variant, bool host, bool dim3, int rho) {
    const TableRow* a = range_row(cpu, variant, tdmaps::Pinned::name, "", &k1);
    const TableRow* b = range_row(cpu, variant, tdmaps::Fused::name, "", &k2);
    tmpl::Scope& e = row(v, false, host, dim3);
    std::optional<tmpl::Scope> p, f;
    if (a) p = range_of(*a, rho);
    if (b) f = range_of(*b, rho);
    e.flag("same", p && f && p->vals == f->vals);
    e.lists["pinned"].push_back(ranges(one(std::move(p))));
    e.lists["fma"].push_back(ranges(one(std::move(f))));
  };
  // the GPU sweep's rows of map v (each GPU's exact_range_gpu.csv), both roundings
  const auto device_row = [&](const std::string& v, const std::string& kind, bool dim3, int rho) {
    const auto of = [&](const char* rounding) {
      return ranges(per_gpu(ctx, [&](const GpuData& g) -> std::optional<tmpl::Scope> {
        std::vector<TableRow> k;
        const TableRow* r = range_row(g.get(results::layout::exact_range_gpu), v, rounding, kind, &k);
        if (!r) return std::nullopt;
        return range_of(*r, rho);
      }));
    };
    tmpl::Scope& e = row(v, true, false, dim3);
    e.lists["pinned"].push_back(of(tdmaps::Pinned::name));
    e.lists["fma"].push_back(of(tdmaps::Fused::name));
  };
  // The registry's maps whose root has products nvcc's default contracts (registry/traits.hpp root_facts
  // fma: the maps with fma rows), 2D then 3D, in the registry's order. A root the host reproduces:
  // the CPU oracle's rows. One it does not (rsqrtf, cbrtf): the source of its limit first (the
  // GPU sweep, or the CPU's proof), then the other (the host's emulation, "<name>-host", or the
  // device).
  const auto each = [&](auto m) {
    using M = decltype(m);
    if constexpr (tdmaps::has_root<M>) {
      constexpr tdmaps::root_facts f = tdmaps::map_traits<M>::root;
      if constexpr (f.fma) {
        const std::string v = M::name;
        const bool three = f.kind == tdmaps::root_kind::layer;
        const int rho = three ? kRho3 : kRho;
        if (f.host_repro) {
          cpu_row(v, v, false, three, rho);
        } else {
          const std::string kind = three                                ? exact_kind::block3
                                 : f.kind == tdmaps::root_kind::row ? exact_kind::block
                                                                    : exact_kind::thread;
          if (!f.cpu_limit) device_row(v, kind, three, rho);
          cpu_row(v, v + tdmaps::host_suffix, true, three, rho);
          if (f.cpu_limit) device_row(v, kind, three, rho);
        }
      }
    }
  };
  tdmaps::for_each_map(tdmaps::maps2d{}, each);
  tdmaps::for_each_map(tdmaps::maps3d{}, each);
  s.list("row");
  return fill_readme(ctx.readme, "rounding", s);
}

bool replace_block(std::string& text, const std::string& name, const std::string& body) {
  const std::string b = "<!-- " + name + ":begin -->\n", e = "<!-- " + name + ":end -->";
  const size_t i = text.find(b);
  if (i == std::string::npos) return false;
  const size_t j = text.find(e, i + b.size());
  if (j == std::string::npos) return false;
  text = text.substr(0, i + b.size()) + body + text.substr(j);
  return true;
}

}  // namespace results
