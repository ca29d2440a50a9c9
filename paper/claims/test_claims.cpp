// paper/claims/test_claims.cpp — meson test `claims_rules`: every claim id of
// paper/reported.csv has a rule in the rule table (rules.cpp) and every rule a claim;
// ids are unique; and the verdict rule's directions (a bound on a gain, within noise).
#include "claims.hpp"
#include "csv_file.hpp"  // results::CsvFile, the one writer, and its typed rows (src/support/results/)
#include "judging.hpp"
#include "notes.hpp"
#include "rules.hpp"
#include "select.hpp"
#include "targets.hpp"
#include "template.hpp"

#include <cmath>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

int main(int argc, char** argv) {
  using namespace claims;
  if (argc != 2) {
    std::cerr << "usage: test_claims paper/reported.csv\n";
    return 2;
  }
  std::string why;
  const NotesScope notes(argv[1]);  // the rules' reasons' words (paper/notes.template.md), for the rules called here
  const std::vector<Claim> claims = load_claims(argv[1], &why);
  int bad = 0;
  const auto fail = [&](const std::string& s) {
    std::cerr << "FAIL: " << s << "\n";
    ++bad;
  };
  if (claims.empty()) fail(std::string(argv[1]) + ": no claims (" + why + ")");
  std::set<std::string> ids;
  for (const Claim& c : claims) {
    if (!ids.insert(c.id).second) fail("claim id " + c.id + " appears twice in reported.csv");
    if (!has_rule(c.id)) fail("claim " + c.id + " has no rule in paper/claims/rules.cpp");
  }
  // a claim marked on Fig. 5's dummy panel (reported.csv's figure column) is one of the papers' dummy-kernel
  // comparison, which the report's §6 lists: its rule says so (rules.hpp Rule::papers_dummy)
  for (const Claim& c : claims)
    for (const Mark& m : c.marks)
      if (m.fig == "fig5_dummy" && !papers_dummy(c.id))
        fail("claim " + c.id + " is marked on fig5_dummy but its rule is not papers_dummy");
  std::set<std::string> rids;
  for (const std::string& id : rule_ids()) {
    if (!rids.insert(id).second) fail("rule " + id + " appears twice in the rule table");
    if (!ids.count(id)) fail("rule " + id + " has no claim in reported.csv");
  }
  // every claim's conditions are data (paper/conditions.csv): a family with every condition, each
  // with the paper's words or "not stated"; a ρ the paper does not fix is read at 16 and 32, and the
  // rule must then depend on ρ (its text names the ρ it selects), else the readings are not real
  for (const Claim& c : claims) {
    if (c.family.empty()) {
      fail("claim " + c.id + " has no conditions family (column conditions of reported.csv)");
      continue;
    }
    if (c.conds.empty()) fail("claim " + c.id + ": family " + c.family + " is not in paper/conditions.csv");
    for (const std::string& n : condition_names()) {
      bool found = false;
      for (const Condition& k : c.conds)
        if (k.name == n) {
          found = true;
          if (k.fixed_by.empty()) fail("family " + c.family + ", condition " + n + ": no 'fixed_by' (the paper's words, or not stated)");
          if (k.fixed_by.rfind("not stated", 0) == 0 && k.readings.empty() && k.fixed_by.find(kNotMeasured) == std::string::npos &&
              k.fixed_by.find("our sweep") == std::string::npos && n != "N" && n != "kernel" && n != "rho")
            fail("family " + c.family + ", condition " + n + ": not stated by the paper but no readings given");
        }
      if (!found) fail("family " + c.family + " lacks condition " + n);
    }
    const std::vector<double> rhos = rho_readings(c);
    if (rhos.size() > 1 && rule_text_at(c.id, rhos[0]) == rule_text_at(c.id, rhos[1]))
      fail("claim " + c.id + " is read at several ρ but its rule does not depend on ρ: " + rule_text(c.id));
  }
  // the claims' data files: every row has the header's number of fields (a stray comma shifts a column)
  const std::filesystem::path paper_dir = std::filesystem::path(argv[1]).parent_path();  // reported.csv's folder
  for (const std::string& f : {std::string(argv[1]), (paper_dir / results::layout::conditions.file).string(),
                               (paper_dir / results::layout::targets.file).string()}) {
    std::ifstream in(f);
    std::string line;
    size_t want = 0, n = 0;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      const size_t k = split_csv(line).size();
      if (++n == 1) want = k;
      else if (k != want) fail(f + " line " + std::to_string(n) + ": " + std::to_string(k) + " fields, the header has " + std::to_string(want));
    }
    if (n == 0) fail(f + ": empty or missing");
  }
  // the verdict rule's directions
  Claim c;
  c.unit = "x";
  c.value = "<=2";
  c.pv = parse_value(c.value);
  rules::Judge gain;
  gain.gain = true;
  if (rules::judge(c, 0.9, "", gain).verdict != kDiffers) fail("a slowdown satisfied a bound on a gain");
  if (rules::judge(c, 1.5, "", gain).verdict != kHolds) fail("a gain within the bound did not hold");
  Claim e;
  e.unit = "I";
  e.value = "1";
  e.pv = parse_value(e.value);
  rules::Judge noisy;
  noisy.noise = 0.02;
  const Outcome o = rules::judge(e, 1.06, "", noisy);
  if (o.verdict != kDiffers || !o.noise) fail("a verdict 0.01 beyond the tolerance with spread 0.02 is not 'within noise'");
  if (rules::judge(e, 1.2, "", noisy).noise) fail("a verdict far beyond its spread is marked 'within noise'");
  // ---- the judging rules (judging.hpp), each on the claim table and on synthetic rows ----
  {
    // synthetic results: one GPU folder whose dummy.csv has BB and two maps over 4 sizes at ρ = 16
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "tdmaps_claims_rules_test";
    std::filesystem::create_directories(dir / "gpu");
    {
      // written as bench_maps writes it: the one writer (results::CsvFile) under the layout's header, rows by name
      results::CsvFile f((dir / "gpu" / results::layout::dummy.file).string(), "", results::layout::dummy);
      // "below" is below 1 at every N; "late" only at the first three, above at the last (well beyond its spread);
      // "grid-x" has rows on the linear grid only (its -sq variant none)
      const double Ns[] = {1024, 2048, 3072, 4096};
      for (int k = 0; k < 4; ++k) {
        const auto row = [&](const std::string& m, double ms) {
          using results::sig;
          results::RowOf<results::layout::dummy> r;
          r.set(TD_COL("test"), "dummy").set(TD_COL("form"), pick_rows::form_name(pick_rows::Form::Store)).set(TD_COL("N"), sig(Ns[k])).set(TD_COL("rho"), 16);
          r.set(TD_COL("map"), m).set(TD_COL("exact"), 1).set(TD_COL("passes"), 1).set(TD_COL("launched_blocks"), 1);
          r.set(TD_COL("useful_blocks"), 1).set(TD_COL("wasted_blocks"), 0).set(TD_COL("launched_threads"), 1);
          r.set(TD_COL("useful_threads"), 1).set(TD_COL("reps"), 10).set(TD_COL("median_ms"), sig(ms));
          r.set(TD_COL("p25_ms"), sig(ms * 0.999)).set(TD_COL("p75_ms"), sig(ms * 1.001)).set(TD_COL("min_ms"), sig(ms));
          r.set(TD_COL("max_ms"), sig(ms)).set(TD_COL("bb_median_ms"), results::fixed(1.0, 1)).set(TD_COL("I"), "");
          f.row(r.set(TD_COL("index_bits"), 32));
        };
        row(tdmaps::BB::name, 1.0);
        row("below", 1.2);
        row("late", k < 3 ? 1.2 : 0.8);
        row(tdmaps::LTM_X::name, 0.6);
      }
    }
    GpuData g;
    g.slug = "gpu";
    g.dir = (dir / "gpu").string();
    Ctx ctx;
    Claim below;
    below.unit = "I";
    below.value = "<1";
    below.pv = parse_value(below.value);
    RhoScope scope(16);
    const Sel st = pick_rows::dummy(pick_rows::Form::Store);
    // whole range of N: judged per N
    const Outcome b1 = rules::below_one(results::layout::dummy, st, {{"below"}}).fn(below, &g, ctx);
    if (b1.verdict != kHolds) fail("per N: a map below 1 at every N does not hold (" + b1.verdict + ": " + b1.reason + ")");
    const Outcome b2 = rules::below_one(results::layout::dummy, st, {{"late"}}).fn(below, &g, ctx);
    if (b2.verdict != kDiffers || b2.reason.find("4,096") == std::string::npos)
      fail("per N: a map above 1 at one N of four is not 'differs' naming that N (" + b2.verdict + ": " + b2.reason + ")");
    // the grid both papers fix: a map with rows on the linear grid only is not measured on the papers' grid
    if (pick_rows::on_grid(pick_rows::Grid::Papers, tdmaps::LTM_X::name) != tdmaps::LTM_X_SQ::name ||
        pick_rows::on_grid(pick_rows::Grid::Papers, tdmaps::LTM_R_SQ::name) != tdmaps::LTM_R_SQ::name || pick_rows::on_grid(pick_rows::Grid::Papers, tdmaps::RB::name) != tdmaps::RB::name)
      fail("on_grid does not map ltm-x to ltm-x-sq (or changed a map it must keep)");
    Claim eq;
    eq.unit = "I";
    eq.value = "1.6";
    eq.pv = parse_value(eq.value);
    const Outcome sq = rules::stat_I(results::layout::dummy, st, pick_rows::on_grid(pick_rows::Grid::Papers, std::vector<std::string>{tdmaps::LTM_X::name}),
                                     rules::St::MedAll).fn(eq, &g, ctx);
    if (sq.verdict != kNotMeasured) fail("a reading with no rows (ltm-x-sq) voted: " + sq.verdict);
    // an upper bound is judged as one: above the ceiling differs however close
    Claim ub;
    ub.unit = "x";
    ub.value = "<=2";
    ub.pv = parse_value(ub.value);
    if (rules::judge(ub, 2.01, "").verdict != kDiffers) fail("upper bound: 2.01 held under a ceiling of 2");
    if (rules::judge(ub, 1.5, "").verdict != kHolds) fail("upper bound: 1.5 did not hold under a ceiling of 2");
    std::filesystem::remove_all(dir);
  }
  // a citation of other work that the citing paper did not measure is context in every column
  for (const Claim& c : claims) {
    if (!is_citation(c)) continue;
    if (c.gpu.find("measured by") != std::string::npos) fail("claim " + c.id + " is both measured and a citation");
    const Outcome o = evaluate(c, nullptr, Ctx{});
    if (o.verdict != kContext && o.verdict != kNotMeasured)
      fail("claim " + c.id + " cites other work but is judged " + o.verdict);
  }
  // our targets (paper/targets.csv): unique ids, each value a number the verdict rule reads, judged by judge()
  {
    std::string twhy;
    const std::vector<Target> ts = load_targets((paper_dir / results::layout::targets.file).string(), &twhy);
    if (ts.empty()) fail("paper/targets.csv: no targets (" + twhy + ")");
    std::set<std::string> tids;
    for (const Target& t : ts) {
      if (!tids.insert(t.id).second) fail("target " + t.id + " appears twice in targets.csv");
      if (!t.pv.numeric()) fail("target " + t.id + ": value '" + t.value + "' is not a number or bound");
      if (ids.count(t.id)) fail("target " + t.id + " is also a claim id of reported.csv");
      if (!has_target_rule(t.id)) fail("target " + t.id + " has no rule in targets.cpp");
    }
  }
  // the report's template filler (template.hpp): block tags alone on their line take the line, an empty value
  // alone on its line too, each with a separator, partials, and a slot the data does not define is an error
  {
    tmpl::Scope d;
    d.set("a", "A").set("none", "");
    d.add("x").set("v", "1");
    d.add("x").set("v", "2");
    std::string err;
    const std::string got = tmpl::render("{{! note }}\n{{#if a}}\nyes {{a}}\n{{else}}\nno\n{{/if}}\n{{none}}\n"
                                         "[{{#each x sep=\", \"}}{{v}}{{/each}}]{{#if !none}}!{{/if}}\n", d, &err);
    if (got != "yes A\n[1, 2]!\n") fail("template: got '" + got + "' (" + err + ")");
    err.clear();
    tmpl::render("{{undefined}}", d, &err);
    if (err.empty()) fail("template: an undefined slot is not an error");
    err.clear();
    tmpl::render("{{#if a}}open", d, &err);
    if (err.empty()) fail("template: an unclosed {{#if}} is not an error");
    // a partial (figures/captions.template.md's): filled from the scope where it is included, its output without
    // its leading and trailing line breaks; one not given is an error
    const tmpl::Partials parts{{"p", "{{#if a}}\n<{{v}}>\n{{/if}}\n"}};
    err.clear();
    const std::string inc = tmpl::render("{{#each x sep=\",\"}}{{> p}}{{/each}}", d, &err, &parts);
    if (inc != "<1>,<2>") fail("template: a partial gave '" + inc + "' (" + err + ")");
    err.clear();
    tmpl::render("{{> q}}", d, &err, &parts);
    if (err.empty()) fail("template: an unknown partial is not an error");
    // a value's equality test ({{#if name=word}}, {{#if !name=word}}; the report's target tables): on a list or an
    // undefined name, an error
    err.clear();
    const std::string eq = tmpl::render("{{#if a=A}}=A{{/if}}{{#if a=B}}=B{{/if}}{{#if !a=B}}!B{{/if}}", d, &err);
    if (eq != "=A!B") fail("template: the equality test gave '" + eq + "' (" + err + ")");
    err.clear();
    tmpl::render("{{#if x=1}}no{{/if}}", d, &err);
    if (err.empty()) fail("template: an equality test of a list is not an error");
    // the partials a text includes, each once, in order (the template files' checks)
    const std::vector<std::string> used = tmpl::partials_included("{{> b}} {{>a}} {{> b }}");
    if (used != std::vector<std::string>{"b", "a"}) fail("template: partials_included");
  }
  // ---- a reader's column names (csv.hpp, issue #39): a table read through its layout throws on a name neither its
  // header nor its layout has (a misspelt reader), and reads a declared column an older file lacks as absent ----
  {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "tdmaps_claims_columns";
    std::filesystem::create_directories(dir);
    const std::filesystem::path f = dir / results::layout::sdh.file;
    {
      std::ofstream o(f);
      o << "impl,N,extra\nv5,1000,7\n";  // an older sdh.csv: most declared columns absent, one undeclared present
    }
    std::string why;
    const std::optional<Table> t = read_table(f.string(), results::layout::sdh, &why);
    if (!t || t->size() != 1) {
      fail("columns: cannot read back " + f.string() + " (" + why + ")");
    } else {
      const TableRow r = t->row(0);
      if (r.s("impl") != "v5" || r.d("N") != 1000) fail("columns: a column of the header does not read");
      if (r.s("extra") != "7") fail("columns: a column of the header the layout lacks does not read");
      if (!r.s("median_ms").empty() || !std::isnan(r.d("median_ms")) || r.has("median_ms") || t->has("median_ms") ||
          t->missing({"N", "median_ms"}) != "median_ms")
        fail("columns: a declared column the file lacks does not read as absent");
      if (!r.s_opt("no_such").empty() || !std::isnan(r.d_opt("no_such")) || r.has_opt("no_such"))
        fail("columns: an unchecked (_opt) read of an unknown column is not absent");
      const auto throws = [&](const char* what, const std::function<void()>& read) {
        try {
          read();
          fail(std::string("columns: ") + what + " of a column neither in the header nor the layout does not throw");
        } catch (const std::logic_error& e) {
          const std::string m = e.what();
          if (m.find("\"media_ms\"") == std::string::npos || m.find(f.string()) == std::string::npos ||
              m.find(results::layout::sdh.file) == std::string::npos || m.find('\n') != std::string::npos)
            fail(std::string("columns: ") + what + ": the error does not name the column, the file and the layout in one line: " + m);
        }
      };
      throws("s", [&] { (void)r.s("media_ms"); });
      throws("d", [&] { (void)r.d("media_ms"); });
      throws("has", [&] { (void)r.has("media_ms"); });
      throws("Table::has", [&] { (void)t->has("media_ms"); });
      throws("Table::missing", [&] { (void)t->missing({"N", "media_ms"}); });
      throws("Table::first_of", [&] { (void)t->first_of({"media_ms"}); });
      // read without a layout (no reader does): nothing checked, as before
      const std::optional<Table> u = read_table(f.string(), &why);
      if (!u || !u->row(0).s("media_ms").empty()) fail("columns: a table read without a layout checks its names");
    }
  }
  // ---- what binds a kernel (targets.cpp binds_rule) on two rows of ncu_gram.csv written by the one writer ----
  {
    const std::filesystem::path f = std::filesystem::temp_directory_path() / "tdmaps_claims_ncu" / results::layout::ncu_gram.file;
    {
      results::CsvFile o(f.string(), "", results::layout::ncu_gram);
      const auto row = [&](const char* out, double dram, const char* stall) {
        using results::fixed;
        results::RowOf<results::layout::ncu_gram> r;
        r.set(TD_COL("kernel"), "sm90-evt").set(TD_COL("output"), out).set(TD_COL("precision"), "tf32").set(TD_COL("N"), 65536);
        r.set(TD_COL("d"), 128).set(TD_COL("ncu_ms"), fixed(4, 2)).set(TD_COL("dram_pct"), fixed(dram, 2));
        r.set(TD_COL("l2_pct"), fixed(57, 2)).set(TD_COL("l1_pct"), fixed(55, 2)).set(TD_COL("sm_pct"), fixed(38, 2));
        r.set(TD_COL("issue_active_pct"), fixed(23, 2)).set(TD_COL("warp_cycles_per_issue"), fixed(9.8, 2));
        r.set(TD_COL("stall_1"), stall).set(TD_COL("stall_1_cycles"), fixed(2.9, 2)).set(TD_COL("stall_2"), "wait");
        o.row(r.set(TD_COL("stall_2_cycles"), fixed(1.7, 2)));
      };
      row("lower", 49, "long_scoreboard");
      row("mirror", 91, "lg_throttle");
    }
    std::string why;
    const std::optional<Table> t = read_table(f.string(), results::layout::ncu_gram, &why);
    if (!t || t->size() != 2) {
      fail("binds_rule: cannot read back " + f.string() + " (" + why + ")");
    } else {
      const std::vector<TableRow> rows = t->rows();
      const std::string lat = binds_rule(rows[0]), bw = binds_rule(rows[1]);
      if (lat.find("latency binds") == std::string::npos ||
          lat.find("`long_scoreboard` (global-memory (L1TEX) results), 1.7 on `wait` (fixed-latency dependencies)") ==
              std::string::npos)
        fail("binds_rule: a row with no unit at 80 % of its peak is not latency-bound on its stall: " + lat);
      if (bw.find("DRAM bandwidth binds (91 %") == std::string::npos)
        fail("binds_rule: DRAM at 91 % of its peak does not bind: " + bw);
    }
  }
  // ---- the reasons' prose (paper/notes.template.md, notes.hpp): each section a rule fills is there, and no other ----
  {
    results::ReadmeTemplate nt;
    std::string err;
    if (!results::load_readme_template(notes_template_path(argv[1]), &nt, &err)) fail("notes template: " + err);
    else
      for (const std::string& p : notes_template_problems(nt)) fail(notes_template_path(argv[1]) + ": " + p);
  }
  if (!bad) std::cout << "claims_rules: " << claims.size() << " claims, " << rids.size() << " rules: ok\n";
  return bad ? 1 : 0;
}
