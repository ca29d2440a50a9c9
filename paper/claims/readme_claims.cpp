// paper/claims/readme_claims.cpp — README's claims block (<!-- claims:begin/end -->, section `claims` of
// src/support/results/readme.template.md) and the verdict tally that the block and the report's section 5 share (see
// report.hpp). The words and the tally's form are the templates'; this file fills counts, names and lists.
#include "report.hpp"

#include "claims.hpp"
#include "readme_template.hpp"
#include "select.hpp"

namespace claims {

// The tally, split by what a verdict rests on (issue #35 item 3): for each GPU column the claims judged on that GPU's
// measurements under the paper's conditions; once, the claims of the map library or the CPU oracle (counting and
// formula facts, the same whatever GPU folder they are computed for); "context" rows apart. Each cell gives the count
// and, beside it, how many of them are within the run-to-run noise (per verdict, never pooled).
void tally_slots(tmpl::Scope& s, const Ctx& ctx, const std::vector<std::vector<Outcome>>& out,
                 const std::vector<const GpuData*>& cols) {
  for (const char* l : {"tally_col", "tally_row", "tally_total"}) s.list(l).clear();
  if (out.empty()) return;  // no claims: the lists empty
  for (const GpuData* g : cols) s.add("tally_col").set("name", g ? g->name() : "").set("slug", g ? g->slug : "");
  const std::vector<const char*> verdicts = {kHolds, kDiffers, kDepends, kNotMeasured, kContext};
  std::vector<size_t> tot(cols.size() + 1, 0);
  for (const char* v : verdicts) {
    tmpl::Scope& row = s.add("tally_row");
    row.set("verdict", v);
    row.list("cell");
    for (size_t k = 0; k <= cols.size(); ++k) {
      const bool lib = k == cols.size();
      size_t n = 0, noise = 0;
      for (size_t i = 0; i < ctx.claims.size(); ++i) {
        if (needs_gpu(ctx.claims[i].id) == lib) continue;
        const Outcome& r = out[i][lib ? 0 : k];
        if (r.verdict != v) continue;
        ++n;
        noise += r.noise;
      }
      tot[k] += n;
      row.add("cell").set("n", std::to_string(n)).set("noise", noise ? std::to_string(noise) : "");
    }
  }
  for (size_t k = 0; k <= cols.size(); ++k) s.add("tally_total").set("n", std::to_string(tot[k]));
}

std::string readme_claims_block(const Ctx& ctx) {
  tmpl::Scope s;
  s.flag("none", ctx.claims.empty()).set("n_claims", std::to_string(ctx.claims.size())).set("lib", "").set("dep_n", "");
  s.list("rep");
  s.list("no_sq");
  s.list("dep");
  if (ctx.claims.empty()) {
    tally_slots(s, ctx, {}, {});
    return fill_readme(ctx.readme, "claims", s);
  }
  const ClaimGrid grid = evaluate_all(ctx);
  const std::vector<const GpuData*>& cols = grid.cols;
  const std::vector<std::vector<Outcome>>& out = grid.out;
  tally_slots(s, ctx, out, cols);
  for (size_t i = 0; i < ctx.claims.size(); ++i) {  // the claims that depend on the reading on some GPU
    bool any = false, same = true;
    for (size_t k = 0; k < cols.size(); ++k) {
      any = any || out[i][k].verdict == kDepends;
      same = same && out[i][k].verdict == out[i][0].verdict && out[i][k].split == out[i][0].split;
    }
    if (!any) continue;
    tmpl::Scope& d = s.add("dep");
    d.set("id", ctx.claims[i].id).flag("same", same).set("split", out[i][0].split);
    d.list("on");  // each GPU's, when they differ: its readings' split, else its verdict
    for (size_t k = 0; k < cols.size(); ++k)
      d.add("on")
          .set("gpu", cols[k] ? cols[k]->name() : "")
          .set("v", out[i][k].verdict == kDepends ? out[i][k].split : out[i][k].verdict);
  }
  s.set("dep_n", std::to_string(s.lists["dep"].size()));
  // the headline: only a GPU column's "holds" is a reproduction by a measurement under the paper's conditions
  for (size_t k = 0; k < cols.size(); ++k) {
    size_t n = 0;
    for (size_t i = 0; i < ctx.claims.size(); ++i) n += needs_gpu(ctx.claims[i].id) && out[i][k].verdict == kHolds;
    s.add("rep").set("n", std::to_string(n)).set("gpu", cols[k] ? cols[k]->name() : "");
  }
  size_t lib = 0;
  for (size_t i = 0; i < ctx.claims.size(); ++i) lib += !needs_gpu(ctx.claims[i].id) && out[i][0].verdict == kHolds;
  s.set("lib", std::to_string(lib));
  // the GPU folders whose square-root, EDM or collision CSV has no LTM rows on the papers' grid
  for (const GpuData* g : cols) {
    if (!g) continue;
    std::vector<std::string> files;
    for (const results::Layout* l : {&results::layout::sqrt_, &results::layout::edm, &results::layout::collision}) {
      const Table* t = g->get(*l);
      bool sq = false;
      if (t)
        for (const TableRow& r : t->rows()) sq = sq || r.s("map") == pick_rows::on_grid(pick_rows::Grid::Papers, tdmaps::LTM_R::name);
      if (!sq) files.push_back(l->file);
    }
    if (files.empty()) continue;
    tmpl::Scope& e = s.add("no_sq");
    e.set("gpu", g->name());
    for (const std::string& f : files) e.add("file").set("f", f);
  }
  return fill_readme(ctx.readme, "claims", s);
}

}  // namespace claims
