// paper/claims/readme_claims.cpp — README's claims block (<!-- claims:begin/end -->) and the verdict tally that the
// block and the report's section 5 share (see report.hpp).
#include "report.hpp"

#include "claims.hpp"
#include "select.hpp"

#include <sstream>

namespace figs {

// The tally, split by what a verdict rests on (issue #35 item 3): for each GPU column the claims judged on that GPU's
// measurements under the paper's conditions; once, the claims of the map library or the CPU oracle (counting and
// formula facts, the same whatever GPU folder they are computed for); "context" rows apart. Each cell gives the count
// and, beside it, how many of them are within the run-to-run noise (per verdict, never pooled).
void split_tally(std::ostream& o, const Ctx& ctx, const std::vector<std::vector<Outcome>>& out,
                 const std::vector<const GpuData*>& cols, bool names) {
  const auto col_name = [&](const GpuData* g) {
    return g ? (names ? g->name() : "`" + g->slug + "`") : std::string("no GPU data");
  };
  o << "| verdict |";
  for (const GpuData* g : cols) o << " " << col_name(g) << ": GPU measurement under the paper's conditions |";
  o << " library / CPU (counting and formula facts, once) |\n|---|";
  for (size_t k = 0; k <= cols.size(); ++k) o << "---|";
  o << "\n";
  const auto cellv = [](size_t n, size_t noise) {
    return std::to_string(n) + (noise ? " (" + std::to_string(noise) + " within noise)" : "");
  };
  const std::vector<const char*> verdicts = {"holds", "differs", "depends on the reading", "not measured", "context"};
  std::vector<size_t> tot(cols.size() + 1, 0);
  for (const char* v : verdicts) {
    o << "| " << v << " |";
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
      o << " " << cellv(n, noise) << " |";
    }
    o << "\n";
  }
  o << "| total |";
  for (size_t k = 0; k <= cols.size(); ++k) o << " " << tot[k] << " |";
  o << "\n";
}

std::string readme_claims_block(const Ctx& ctx) {
  std::ostringstream o;
  o << "<!-- written by tdmaps_figures --readme from the claim rules (paper/claims/): the same verdicts as "
       "paper/report.md §5 -->\n";
  if (ctx.claims.empty()) return o.str() + "No claims table (paper/reported.csv).\n";
  const ClaimGrid grid = evaluate_all(ctx);
  const std::vector<const GpuData*>& cols = grid.cols;
  const std::vector<std::vector<Outcome>>& out = grid.out;
  split_tally(o, ctx, out, cols, true);
  std::vector<std::string> dep;
  for (size_t i = 0; i < ctx.claims.size(); ++i) {
    std::vector<std::string> splits;  // each GPU's, once when the GPUs agree
    bool any = false;
    for (size_t k = 0; k < cols.size(); ++k) {
      const bool dep_k = out[i][k].verdict == "depends on the reading";
      any = any || dep_k;
      splits.push_back((cols[k] ? cols[k]->name() + ": " : std::string()) + (dep_k ? out[i][k].split : out[i][k].verdict));
    }
    if (!any) continue;
    bool same = true;
    for (size_t k = 0; k < cols.size(); ++k)
      same = same && out[i][k].verdict == out[i][0].verdict && out[i][k].split == out[i][0].split;
    dep.push_back("`" + ctx.claims[i].id + "` (" + (same ? out[i][0].split : join(splits, "; ")) + ")");
  }
  {  // the headline: only a GPU column's "holds" is a reproduction by a measurement under the paper's conditions
    std::vector<std::string> rep;
    for (size_t k = 0; k < cols.size(); ++k) {
      size_t n = 0;
      for (size_t i = 0; i < ctx.claims.size(); ++i) n += needs_gpu(ctx.claims[i].id) && out[i][k].verdict == "holds";
      rep.push_back(std::to_string(n) + (cols[k] ? " on the " + cols[k]->name() : std::string()));
    }
    size_t lib = 0;
    for (size_t i = 0; i < ctx.claims.size(); ++i) lib += !needs_gpu(ctx.claims[i].id) && out[i][0].verdict == "holds";
    o << "\nReproduced by a GPU measurement under the paper's conditions: " << join(rep, ", ") << " (\"holds\" in a GPU "
      << "column). A further " << lib << " hold as counting or formula facts of the map library or the CPU oracle, "
      << "which need no GPU.\n";
  }
  o << "\n" << ctx.claims.size() << " claims of the papers 000–004 (four papers; 002 is a second text extraction of 001), each judged under the conditions its paper states "
    << "(`paper/conditions.csv`, with the paper's words); where the paper leaves a condition open (the block side ρ, "
    << "the rounding mode) every reading is computed and the claim counts as holds or differs only if all agree. "
    << "LTM is judged on the balanced n'×n' grid both papers fix; a reading with no measured rows does not vote "
    << "(\"not measured\").";
  {  // the GPU folders whose square-root, EDM or collision CSV has no LTM rows on the papers' grid
    std::vector<std::string> none;
    for (const GpuData* g : cols) {
      if (!g) continue;
      std::vector<std::string> files;
      for (const results::Layout* l : {&results::layout::sqrt_, &results::layout::edm, &results::layout::collision}) {
        const char* f = l->file;
        const Table* t = g->get(*l);
        bool sq = false;
        if (t)
          for (const TableRow& r : t->rows()) sq = sq || r.s("map") == pick_rows::on_grid(pick_rows::Grid::Papers, "ltm-r");
        if (!sq) files.push_back(f);
      }
      if (!files.empty()) none.push_back(g->name() + " (" + join(files, ", ") + ")");
    }
    if (!none.empty()) o << " No n'×n' rows yet: " << join(none, "; ") << ".";
  }
  if (!dep.empty()) o << " Depending on the reading (" << dep.size() << "): " << join(dep, "; ") << ".";
  o << "\n";
  return o.str();
}

}  // namespace figs
